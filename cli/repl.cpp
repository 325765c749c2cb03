// `ppl repl [MODEL [DATA]]`: build a model a statement at a time, sample it, and ask
// questions of the draws. Line editing, persistent history (~/.ppl_history, or
// $PPL_HISTORY) and tab completion come from libedit; a statement may span lines (the
// input continues while a bracket is open). When standard input is not a terminal the
// REPL reads it as a script: no prompts, and the exit status is 1 if any line failed.
//
// A line is a command (see `help`), a statement of the language (declarations, `~`, `=`,
// `for`, `factor`: added to the model, which is checked again at once), or an expression
// evaluated over the posterior draws of the last `sample`: mean(E), sd(E), median(E) and
// quantile(E, p) summarise E across draws; a bare E prints its summary table.
#include <editline/readline.h>
#include <fmt/core.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "lang/checker.hpp"
#include "runtime/diagnostics.hpp"
#include "runtime/interrupt.hpp"
#include "runtime/version.hpp"
#include "runtime/graph.hpp"
#include "samplers/chain.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli {

namespace {

// Every command with its one-line help, in the order `help` lists them.
const std::pair<const char*, const char*> commands[] = {
    {"load MODEL [DATA]", "read a model file (replacing the current model) and optionally a data file"},
    {"read DATA", "read a data file (CSV or JSON), replacing the data"},
    {"set NAME=VALUE", "set a data value, as --set does: set K=3, set y=[1,0,1]"},
    {"model", "print the current model"},
    {"plan [--sampler NAME=KIND]", "the sampler of every unknown, and why"},
    {"sample [OPTIONS]", "run the chains with the options of `ppl infer` (sample --help lists them)"},
    {"summary [--show a,b]", "the summary table of the last sample"},
    {"describe NAME", "a variable's type, shape, role, statements and sampler"},
    {"mean(E) sd(E) median(E) quantile(E, p)", "E over the posterior draws: mean(theta[1] > 0.5)"},
    {"E", "any other expression: its summary over the draws"},
    {"help", "this list"},
    {"quit", "leave (also exit, or Ctrl-D)"},
};

const char* value_name = "ppl_repl_value";

bool is_word_start(const std::string& line, const char* word) {
  const std::size_t n = std::strlen(word);
  return line.compare(0, n, word) == 0 && (line.size() == n || std::isspace(static_cast<unsigned char>(line[n])));
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// Words of a command line, for CLI11 (no quoting needed by any option).
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Open brackets left by `text`, comments and strings aside: the input continues while > 0.
int open_brackets(const std::string& text) {
  int depth = 0;
  bool comment = false;
  for (char c : text) {
    if (comment) {
      comment = c != '\n';
      continue;
    }
    if (c == '#') comment = true;
    else if (c == '{' || c == '(' || c == '[') ++depth;
    else if (c == '}' || c == ')' || c == ']') --depth;
  }
  return depth;
}

// A statement of the language, as opposed to an expression: a declaration, a loop, a
// factor, or a `~` or `=` outside brackets (not ==, <=, >=, !=).
bool is_statement(const std::string& line) {
  if (is_word_start(line, "data") || is_word_start(line, "for") || line.rfind("factor", 0) == 0) return true;
  int depth = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (depth == 0 && c == '~') return true;
    else if (depth == 0 && c == '=' && (i + 1 >= line.size() || line[i + 1] != '=') &&
             (i == 0 || std::string("=<>!").find(line[i - 1]) == std::string::npos))
      return true;
  }
  return false;
}

// f(args) with f one of the posterior summaries: the name and the top-level arguments.
bool summary_call(const std::string& e, std::string& fn, std::vector<std::string>& args) {
  const auto open = e.find('(');
  if (open == std::string::npos || e.back() != ')') return false;
  fn = trim(e.substr(0, open));
  if (fn != "mean" && fn != "sd" && fn != "median" && fn != "quantile") return false;
  int depth = 0;
  std::string current;
  for (std::size_t i = open + 1; i + 1 < e.size(); ++i) {
    const char c = e[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return false;  // the first parenthesis closes before the end: f(a) + g(b)
    }
    if (c == ',' && depth == 0) {
      args.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  args.push_back(trim(current));
  return depth == 0;
}

class session {
 public:
  explicit session(bool interactive) : interactive_(interactive) {}

  // Handles one complete input (one or more lines); false to quit.
  bool handle(const std::string& input) {
    const std::string line = trim(input);
    if (line.empty() || line[0] == '#') return true;
    if (line == "quit" || line == "exit") return false;
    try {
      if (line == "help") help();
      else if (is_word_start(line, "load")) load_command(words(line));
      else if (is_word_start(line, "read")) read_command(words(line));
      else if (is_word_start(line, "set")) set_command(trim(line.substr(3)));
      else if (line == "model") fmt::print("{}", text_.empty() ? "(no model yet)\n" : text_);
      else if (is_word_start(line, "plan")) plan_command(words(line));
      else if (is_word_start(line, "sample")) sample_command(words(line));
      else if (is_word_start(line, "summary")) summary_command(words(line));
      else if (is_word_start(line, "describe")) describe_command(words(line));
      else if (is_statement(line)) add_statement(input);
      else evaluate(line);
    } catch (const lang::source_error& e) {
      fail(e.what());
    } catch (const CLI::Success&) {
    } catch (const CLI::ParseError& e) {
      fail(usage_error_line(e.what()));
    } catch (const std::exception& e) {
      fail(std::string("error: ") + e.what() + "\n");
    }
    return true;
  }

  bool failed() const { return failed_; }

  // Names to complete: commands, the model's variables, the summaries.
  std::vector<std::string> completions() const {
    std::vector<std::string> out = {"load", "read", "set", "model", "plan", "sample", "summary", "describe",
                                    "help", "quit", "mean(", "sd(", "median(", "quantile("};
    if (model_)
      for (const auto& v : model_->variables) out.push_back(v.name);
    return out;
  }

  void load_command(const std::vector<std::string>& w) {
    if (w.size() < 2 || w.size() > 3) throw std::invalid_argument("usage: load MODEL [DATA]");
    std::ifstream f(w[1], std::ios::binary);
    if (!f) throw std::invalid_argument("load: cannot open " + w[1] + ": " + std::strerror(errno));
    std::ostringstream text;
    text << f.rdbuf();
    compile(w[1], text.str());
    name_ = w[1];
    text_ = text.str();
    if (!text_.empty() && text_.back() != '\n') text_ += '\n';
    if (w.size() == 3) read_command({"read", w[2]});
    fmt::print("model {}: {} variables, {} statements\n", name_, model_->variables.size(), model_->statements.size());
  }

 private:
  void fail(const std::string& message) {
    std::cerr << message;
    failed_ = true;
  }

  void help() {
    fmt::print("Statements of the language (data, ~, =, for, factor) are added to the model.\nCommands:\n");
    for (const auto& [usage, what] : commands) fmt::print("  {:<40} {}\n", usage, what);
  }

  void compile(const std::string& name, const std::string& text) {
    model_ = std::make_unique<lang::ir::model>(lang::compile({name, text}, stdlib::library()));
  }

  void add_statement(const std::string& input) {
    std::string text = text_ + trim(input) + "\n";
    compile(name_, text);  // throws, leaving the model as it was
    text_ = std::move(text);
    fmt::print("model: {} variables, {} statements\n", model_->variables.size(), model_->statements.size());
  }

  void read_command(const std::vector<std::string>& w) {
    if (w.size() != 2) throw std::invalid_argument("usage: read DATA");
    data_ = runtime::read_data_file(w[1]);
    for (const auto& s : sets_) runtime::apply_set(data_, s);
    fmt::print("data {}: {} variables\n", w[1], data_.values().size());
  }

  void set_command(const std::string& assignment) {
    runtime::apply_set(data_, assignment);
    sets_.push_back(assignment);
  }

  const lang::ir::model& model() const {
    if (!model_) throw std::invalid_argument("no model yet: load one, or type its statements");
    return *model_;
  }

  void plan_command(const std::vector<std::string>& w) {
    std::vector<std::string> overrides;
    CLI::App app{"plan"};
    app.add_option("--sampler", overrides, "force a sampler kind: NAME=KIND");
    parse(app, w);
    std::map<std::string, std::string> forced;
    for (const auto& o : overrides) {
      const auto eq = o.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == o.size())
        throw std::invalid_argument("--sampler " + o + ": expected NAME=KIND, e.g. --sampler theta=slice");
      forced[o.substr(0, eq)] = o.substr(eq + 1);
    }
    for (const auto& p : samplers::describe_plan(model(), data_, forced)) fmt::print("{:<28} {:<10} {}\n", p.variable, p.kind, p.reason);
  }

  static void parse(CLI::App& app, const std::vector<std::string>& w) {
    std::vector<std::string> args(w.rbegin(), w.rend() - 1);  // CLI11 takes them in reverse, without the command
    try {
      app.parse(args);
    } catch (const CLI::CallForHelp&) {
      fmt::print("{}", app.help());
      throw CLI::Success();
    }
  }

  void sample_command(const std::vector<std::string>& w) {
    infer_options o;
    o.quiet = !interactive_;
    CLI::App app{"sample: run the chains (the options of ppl infer)"};
    add_infer_options(&app, o);
    parse(app, w);
    model();
    loaded l;
    l.model = std::make_unique<lang::ir::model>(lang::compile({name_, text_}, stdlib::library()));
    l.data = data_;
    model_inputs in{name_, "", sets_};
    runtime::draws d;
    runtime::set_interrupted(false);
    infer_loaded(std::move(l), in, o, &d);
    runtime::set_interrupted(false);
    draws_ = std::move(d);
    draws_text_ = text_;
  }

  const runtime::draws& draws() const {
    if (draws_.columns.empty()) throw std::invalid_argument("no draws yet: run `sample` first");
    return draws_;
  }

  void summary_command(const std::vector<std::string>& w) {
    std::vector<std::string> show;
    CLI::App app{"summary"};
    app.add_option("--show", show, "list every element of these arrays")->delimiter(',');
    parse(app, w);
    const summary_messages messages = print_summary(runtime::draws_source(draws()), {20, show, want_histograms(false)});
    for (const auto& note : messages.notes) fmt::print("note: {}\n", note);
    for (const auto& warning : messages.warnings) fmt::print("warning: {}\n", warning);
  }

  void describe_command(const std::vector<std::string>& w) {
    if (w.size() != 2) throw std::invalid_argument("usage: describe NAME");
    const auto& m = model();
    const int v = m.find(w[1]);
    if (v < 0) throw std::invalid_argument("describe: `" + w[1] + "` is not a variable of the model");
    const auto& var = m.variables[static_cast<std::size_t>(v)];
    static const char* roles[] = {"data", "computed from data", "unknown", "derived from unknowns"};
    std::string role = roles[static_cast<int>(var.role)];
    if (var.observed) role = "observed " + role;
    fmt::print("{}: {} {}\n", var.name, stdlib::to_string(var.type), role);
    for (int s : var.statements) {
      const auto& st = m.statements[static_cast<std::size_t>(s)];
      const auto where = lang::locate(m.source.text, st.pos);
      fmt::print("  line {}: {}\n", where.line, trim(line_of(m.source.text, where.line)));
    }
    try {
      runtime::rng rng(1);
      runtime::graph g(m, data_, rng);
      fmt::print("  shape {}\n", g.value(v).shape.rank ? g.value(v).shape.str() : "scalar");
      if (var.role == lang::ir::role::unknown)
        for (const auto& p : samplers::describe_plan(m, data_, {}))
          if (p.name == var.name) fmt::print("  sampler {}: {}\n", p.kind, p.reason);
    } catch (const lang::source_error&) {
      fmt::print("  (give data to see its shape and sampler)\n");
    }
  }

  static std::string line_of(const std::string& text, std::size_t line) {
    std::istringstream in(text);
    std::string l;
    for (std::size_t k = 0; k < line && std::getline(in, l); ++k) {
    }
    return l;
  }

  // E over the draws: compiles the model of the draws with `ppl_repl_value = E` added,
  // then for every draw sets the unknowns and recomputes it.
  void evaluate(const std::string& line) {
    std::string fn = "summary";
    std::vector<std::string> args;
    if (!summary_call(line, fn, args)) args = {line};
    if ((fn == "quantile") != (args.size() == 2))
      throw std::invalid_argument(fn == "quantile" ? "quantile(E, p) takes an expression and a probability" : fn + "(E) takes one expression");
    double p = 0;
    if (fn == "quantile") {
      char* end = nullptr;
      p = std::strtod(args[1].c_str(), &end);
      if (*end != '\0' || !(p >= 0 && p <= 1)) throw std::invalid_argument("quantile: the probability must be a number in [0, 1], got " + args[1]);
    }
    const auto& d = draws();
    const std::string prefix = draws_text_ + value_name + " =\n";
    std::unique_ptr<lang::ir::model> m;
    try {
      m = std::make_unique<lang::ir::model>(lang::compile({"<input>", prefix + args[0] + "\n"}, stdlib::library()));
    } catch (const lang::source_error& e) {
      // Point into the expression alone when that is where the error is.
      const auto& diag = e.diag();
      const std::size_t prefix_lines = static_cast<std::size_t>(std::count(prefix.begin(), prefix.end(), '\n'));
      if (diag.where.line <= prefix_lines) throw;
      const std::size_t at = line.find(args[0]);
      const lang::source_file input{"<input>", line};
      throw lang::source_error(lang::make_diagnostic(input, (at == std::string::npos ? 0 : at) + diag.where.column - 1, diag.message));
    }
    const int target = m->find(value_name);
    runtime::rng rng(1);
    runtime::graph g(*m, data_, rng);
    // Where each unknown's elements are in the draws; an unknown the expression needs and
    // the draws lack is an error.
    std::vector<std::vector<int>> where(m->variables.size());
    std::vector<char> missing(m->variables.size(), 0);
    for (std::size_t v = 0; v < m->variables.size(); ++v) {
      if (m->variables[v].role != lang::ir::role::unknown) continue;
      const auto& t = g.value(static_cast<int>(v));
      for (runtime::index_t i = 0; i < t.size(); ++i) {
        const std::string column = runtime::element_column(m->variables[v].name, t.shape, i);
        const auto it = std::find(d.columns.begin(), d.columns.end(), column);
        if (it == d.columns.end()) {
          missing[v] = 1;
          break;
        }
        where[v].push_back(static_cast<int>(it - d.columns.begin()));
      }
    }
    const auto needed = inputs_of(*m, target);
    for (std::size_t v = 0; v < m->variables.size(); ++v)
      if (missing[v] && needed[v])
        throw std::invalid_argument("`" + m->variables[v].name + "` is not in the draws; sample with --monitor " + m->variables[v].name);
    const runtime::index_t size = g.value(target).size();
    std::vector<std::vector<std::vector<double>>> values(static_cast<std::size_t>(size));  // element, chain, draw
    for (auto& e : values) e.resize(d.chains.size());
    for (std::size_t c = 0; c < d.chains.size(); ++c) {
      const std::size_t width = d.columns.size();
      for (runtime::index_t r = 0; r < d.rows(c); ++r) {
        const double* row = d.chains[c].data() + static_cast<std::size_t>(r) * width;
        for (std::size_t v = 0; v < where.size(); ++v)
          if (!missing[v])
            for (std::size_t i = 0; i < where[v].size(); ++i)
              g.values()[v].data[i] = row[where[v][i]];
        g.update_derived();
        const auto& out = g.value(target).data;
        for (runtime::index_t i = 0; i < size; ++i) values[static_cast<std::size_t>(i)][c].push_back(out[static_cast<std::size_t>(i)]);
      }
    }
    const auto& shape = g.value(target).shape;
    for (runtime::index_t i = 0; i < size; ++i) {
      const std::string label = size == 1 && shape.rank == 0 ? line : runtime::element_column("", shape, i);
      std::vector<double> pooled;
      for (const auto& chain : values[static_cast<std::size_t>(i)]) pooled.insert(pooled.end(), chain.begin(), chain.end());
      // NaN last (with < alone it is no ordering, and std::sort may run past the ends).
      std::sort(pooled.begin(), pooled.end(), [](double a, double b) { return a < b || (!std::isnan(a) && std::isnan(b)); });
      auto quantile = [&](double q) { return pooled[static_cast<std::size_t>(std::lround(q * static_cast<double>(pooled.size() - 1)))]; };
      if (fn == "summary") {
        const auto s = runtime::summarize(values[static_cast<std::size_t>(i)]);
        fmt::print("{}{}mean {:.6g}, sd {:.4g}, 5% {:.4g}, 50% {:.4g}, 95% {:.4g} (mcse {:.2g}, ess {:.0f})\n", size > 1 ? label : "",
                   size > 1 ? " " : "", s.mean, s.sd, s.q5, s.q50, s.q95, s.mcse_mean, s.ess_bulk);
        continue;
      }
      double result = 0;
      if (fn == "mean" || fn == "sd") {
        double sum = 0, sq = 0;
        for (double x : pooled) sum += x;
        const double mean = sum / static_cast<double>(pooled.size());
        for (double x : pooled) sq += (x - mean) * (x - mean);
        result = fn == "mean" ? mean : std::sqrt(sq / static_cast<double>(pooled.size() - 1));
      } else {
        result = quantile(fn == "median" ? 0.5 : p);
      }
      fmt::print("{}{}{:.6g}\n", size > 1 ? label : "", size > 1 ? " " : "", result);
    }
  }

  // The variables `target` is computed from, through derived variables.
  static std::vector<char> inputs_of(const lang::ir::model& m, int target) {
    std::vector<char> needed(m.variables.size(), 0);
    needed[static_cast<std::size_t>(target)] = 1;
    for (auto it = m.statements.rbegin(); it != m.statements.rend(); ++it)
      if (it->which == lang::ir::statement::kind::assign && needed[static_cast<std::size_t>(it->target)])
        for (int r : lang::ir::statement_reads(*it)) needed[static_cast<std::size_t>(r)] = 1;
    return needed;
  }

  bool interactive_;
  bool failed_ = false;
  std::string name_ = "<repl>", text_;
  std::unique_ptr<lang::ir::model> model_;
  runtime::data_table data_;
  std::vector<std::string> sets_;
  runtime::draws draws_;
  std::string draws_text_;
};

session* active = nullptr;  // for the completion callbacks, which take no context

char* complete_next(const char* prefix, int state) {
  static std::vector<std::string> candidates;
  static std::size_t next = 0;
  if (state == 0) {
    candidates = active->completions();
    next = 0;
  }
  const std::size_t n = std::strlen(prefix);
  while (next < candidates.size()) {
    const std::string& c = candidates[next++];
    if (c.compare(0, n, prefix) == 0) return strdup(c.c_str());
  }
  return nullptr;
}

char** complete(const char* prefix, int, int) {
  rl_attempted_completion_over = 1;  // no file names
  return rl_completion_matches(prefix, complete_next);
}

std::string history_path() {
  if (const char* p = std::getenv("PPL_HISTORY")) return p;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.ppl_history";
  return ".ppl_history";
}

}  // namespace

int run_repl(const model_inputs& in, bool script) {
  const bool interactive = !script && isatty(STDIN_FILENO);
  session s(interactive);
  active = &s;
  if (!in.model_path.empty()) {
    std::vector<std::string> w = {"load", in.model_path};
    if (!in.data_path.empty()) w.push_back(in.data_path);
    std::string line;
    for (const auto& x : w) line += x + " ";
    s.handle(line);
  }
  for (const auto& set : in.sets) s.handle("set " + set);
  if (!interactive) {
    std::string pending, line;
    while (std::getline(std::cin, line)) {
      pending += line + "\n";
      if (open_brackets(pending) > 0) continue;
      if (!s.handle(pending)) break;
      pending.clear();
    }
    if (!trim(pending).empty()) s.handle(pending);
    return s.failed() ? 1 : 0;
  }
  const std::string history = history_path();
  using_history();
  read_history(history.c_str());
  rl_attempted_completion_function = complete;
  fmt::print("ppl {} — type help for the commands, quit to leave\n", runtime::version());
  std::string pending;
  while (true) {
    char* raw = readline(pending.empty() ? "ppl> " : "...> ");
    if (!raw) {
      fmt::print("\n");
      break;
    }
    std::string line = raw;
    std::free(raw);
    pending += line + "\n";
    if (open_brackets(pending) > 0) continue;
    const std::string entry = trim(pending);
    if (!entry.empty()) {
      add_history(entry.c_str());
      write_history(history.c_str());
    }
    const bool go_on = s.handle(pending);
    pending.clear();
    if (!go_on) break;
  }
  return 0;
}

}  // namespace ppl::cli
