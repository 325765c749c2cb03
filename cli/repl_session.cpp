#include "cli/repl_session.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/repl_input.hpp"
#include "cli/repl_query.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "lang/checker.hpp"
#include "runtime/graph.hpp"
#include "runtime/interrupt.hpp"
#include "samplers/chain.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli::repl {

const std::vector<command_help> command_table = {
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

namespace {

// CLI11 options of a command, from its words; `--help` prints them.
void parse(CLI::App& app, const std::vector<std::string>& w) {
  std::vector<std::string> args(w.rbegin(), w.rend() - 1);  // CLI11 takes them in reverse, without the command
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", app.help());
    throw CLI::Success();
  }
}

void help() {
  fmt::print("Statements of the language (data, ~, =, for, factor) are added to the model.\nCommands:\n");
  for (const auto& [usage, what] : command_table) fmt::print("  {:<40} {}\n", usage, what);
}

std::string line_of(const std::string& text, std::size_t line) {
  std::istringstream in(text);
  std::string l;
  for (std::size_t k = 0; k < line && std::getline(in, l); ++k) {
  }
  return l;
}

}  // namespace

bool session::handle(const std::string& input) {
  const std::string line = trim(input);
  if (line.empty() || line[0] == '#') return true;
  if (line == "quit" || line == "exit") return false;
  try {
    dispatch(line, input);
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

void session::dispatch(const std::string& line, const std::string& input) {
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
  else {
    const query q = parse_query(line);  // a malformed call is reported before a lack of draws
    print_query(q, draws_text_, data_, draws());
  }
}

std::vector<std::string> session::completions() const {
  std::vector<std::string> out = {"load", "read", "set", "model", "plan", "sample", "summary", "describe",
                                  "help", "quit", "mean(", "sd(", "median(", "quantile("};
  if (model_)
    for (const auto& v : model_->variables) out.push_back(v.name);
  return out;
}

void session::load_command(const std::vector<std::string>& w) {
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

void session::fail(const std::string& message) {
  std::cerr << message;
  failed_ = true;
}

void session::compile(const std::string& name, const std::string& text) {
  model_ = std::make_unique<lang::ir::model>(lang::compile({name, text}, stdlib::library()));
}

void session::add_statement(const std::string& input) {
  std::string text = text_ + trim(input) + "\n";
  compile(name_, text);  // throws, leaving the model as it was
  text_ = std::move(text);
  fmt::print("model: {} variables, {} statements\n", model_->variables.size(), model_->statements.size());
}

void session::read_command(const std::vector<std::string>& w) {
  if (w.size() != 2) throw std::invalid_argument("usage: read DATA");
  data_ = runtime::read_data_file(w[1]);
  for (const auto& s : sets_) runtime::apply_set(data_, s);
  fmt::print("data {}: {} variables\n", w[1], data_.values().size());
}

void session::set_command(const std::string& assignment) {
  runtime::apply_set(data_, assignment);
  sets_.push_back(assignment);
}

const lang::ir::model& session::model() const {
  if (!model_) throw std::invalid_argument("no model yet: load one, or type its statements");
  return *model_;
}

void session::plan_command(const std::vector<std::string>& w) {
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

void session::sample_command(const std::vector<std::string>& w) {
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

const runtime::draws& session::draws() const {
  if (draws_.columns.empty()) throw std::invalid_argument("no draws yet: run `sample` first");
  return draws_;
}

void session::summary_command(const std::vector<std::string>& w) {
  std::vector<std::string> show;
  CLI::App app{"summary"};
  app.add_option("--show", show, "list every element of these arrays")->delimiter(',');
  parse(app, w);
  for (const auto& warning : print_summary(draws(), {20, show, want_histograms(false)})) fmt::print("warning: {}\n", warning);
}

void session::describe_command(const std::vector<std::string>& w) {
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

}  // namespace ppl::cli::repl
