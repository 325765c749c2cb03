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
#include "cli/options.hpp"
#include "cli/repl_describe.hpp"
#include "cli/repl_input.hpp"
#include "cli/repl_query.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "lang/bugs_parser.hpp"
#include "lang/checker.hpp"
#include "model/graph.hpp"
#include "core/interrupt.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli::repl {

const std::vector<command_help> command_table = {
    {"load MODEL [DATA]", "read a model file (replacing the current model) and optionally a data file"},
    {"read DATA", "read a data file (CSV, JSON or R dump), replacing the data"},
    {"set NAME=VALUE", "set a data value, as --set does: set K=3, set y=[1,0,1]"},
    {"model", "print the current model, each statement under its number"},
    {"drop N", "remove statement N from the model"},
    {"replace N STATEMENT", "put STATEMENT in the place of statement N"},
    {"plan [--sampler NAME=KIND]", "the sampler of every unknown, and why"},
    {"sample [OPTIONS]", "run the chains with the options of `ppl infer` (sample --help lists them)"},
    {"summary [--show a,b]", "the summary table of the last sample"},
    {"describe NAME", "a variable's type, shape, role, statements and sampler"},
    {"mean(E) sd(E) median(E) quantile(E, p)", "E over the posterior draws: mean(theta[1] > 0.5)"},
    {"E", "any other expression: its summary over the draws"},
    {"help", "this list"},
    {"quit", "leave (also exit, Ctrl-D, or Ctrl-C twice)"},
    {"Ctrl-C", "cancel the line being typed; during `sample`, stop the chains (keeping their draws)"},
};

namespace {

const char* stale_note = "note: the model or data changed since the last sample; `sample` again to update\n";
const char* stale_answer_note = "note: answered from the last sample's draws, made before the model or data changed\n";

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

// "1 variable", "3 variables".
std::string count(std::size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

void help() {
  fmt::print("Statements of the language (data, ~, =, for, factor) are added to the model.\nCommands:\n");
  for (const auto& [usage, what] : command_table) fmt::print("  {:<40} {}\n", usage, what);
}

}  // namespace

bool session::handle(const std::string& input) {
  const std::string line = trim(input);
  if (line.empty() || line[0] == '#') return true;
  if (line == "quit" || line == "exit") return false;
  try {
    dispatch(line, input);
  } catch (const ppl::source_error& e) {
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
  else if (is_command(line, "load")) load_command(words(line));
  else if (is_command(line, "read")) {
    if (words(line).size() != 2) throw std::invalid_argument("usage: read DATA");
    read_data(words(line)[1]);
    changed();
  } else if (is_command(line, "set")) set_command(trim(line.substr(3)));
  else if (line == "model") fmt::print("{}", program_.listing());
  else if (is_command(line, "drop")) drop_command(words(line));
  else if (is_command(line, "replace")) replace_command(trim(input));
  else if (is_command(line, "plan")) plan_command(words(line));
  else if (is_command(line, "sample")) sample_command(words(line));
  else if (is_command(line, "summary")) summary_command(words(line));
  else if (is_command(line, "describe")) {
    if (words(line).size() != 2) throw std::invalid_argument("usage: describe NAME");
    describe(model(), data_, words(line)[1]);
  } else if (is_statement(line)) add_statement(input);
  else query_command(line);
}

std::vector<std::string> session::completions() const {
  std::vector<std::string> out = {"load", "read", "set", "model", "drop", "replace", "plan", "sample", "summary", "describe",
                                  "help", "quit", "mean(", "sd(", "median(", "quantile("};
  if (model_)
    for (const auto& v : model_->variables) out.push_back(v.name);
  return out;
}

void session::fail(const std::string& message) {
  std::cerr << message;
  failed_ = true;
}

// Makes `p` the model if it checks, printing `done`; otherwise prints the error and leaves
// the model as it was. Errors name the text checked `source` (its lines are p's).
void session::commit(program p, const std::string& done, const std::string& source) {
  std::unique_ptr<lang::ir::model> m;
  try {
    if (!p.empty()) m = std::make_unique<lang::ir::model>(lang::compile({source, p.text()}, stdlib::library()));
  } catch (const ppl::source_error& e) {
    fail(std::string(e.what()) + "note: the model is as it was (`model` lists it)\n");
    return;
  }
  program_ = std::move(p);
  model_ = std::move(m);
  fmt::print("{} (model: {}, {})\n", done, count(model_ ? model_->variables.size() : 0, "variable"), count(program_.size(), "statement"));
  changed();
}

// The model or data changed: a sample made before is stale.
void session::changed() {
  if (last_.draws.columns.empty()) return;
  last_.stale = true;
  std::cerr << stale_note;
}

void session::add_statement(const std::string& input) {
  program p = program_;
  const int n = p.add(trim(input));
  commit(std::move(p), fmt::format("statement {} added", n), name_);
}

void session::drop_command(const std::vector<std::string>& w) {
  if (w.size() != 2) throw std::invalid_argument("usage: drop N (the statement's number, as `model` lists it)");
  program p = program_;
  const int n = p.drop(w[1]);
  commit(std::move(p), fmt::format("statement {} dropped", n), fmt::format("<model without statement {}>", n));
}

// replace N STATEMENT, the statement possibly spanning lines.
void session::replace_command(const std::string& line) {
  std::istringstream in(line.substr(std::strlen("replace")));
  std::string number;
  in >> number;
  std::string statement;
  std::getline(in, statement, '\0');
  statement = trim(statement);
  if (number.empty() || statement.empty()) throw std::invalid_argument("usage: replace N STATEMENT, e.g. replace 2 p ~ Beta(2, 2)");
  if (!is_statement(statement)) throw std::invalid_argument("replace: `" + statement + "` is not a statement of the language");
  program p = program_;
  const int n = p.replace(number, statement);
  commit(std::move(p), fmt::format("statement {} replaced", n), fmt::format("<model with statement {} replaced>", n));
}

void session::load_command(const std::vector<std::string>& w) {
  if (w.size() < 2 || w.size() > 3) throw std::invalid_argument("usage: load MODEL [DATA]");
  std::ifstream f(w[1], std::ios::binary);
  if (!f) throw std::invalid_argument("load: cannot open " + w[1] + ": " + std::strerror(errno));
  std::ostringstream text;
  text << f.rdbuf();
  if (lang::looks_like_bugs(w[1], text.str()))
    throw std::invalid_argument("load: " + w[1] + " is a BUGS model, and the REPL reads ppl's language; write it as ppl with `ppl translate " +
                                w[1] + " DATA -o MODEL.ppl` and load that");
  auto m = std::make_unique<lang::ir::model>(lang::compile({w[1], text.str()}, stdlib::library()));
  name_ = w[1];
  program_ = program::from_file(w[1], text.str());
  model_ = std::move(m);
  if (w.size() == 3) read_data(w[2]);
  fmt::print("model {}: {}, {}\n", name_, count(model_->variables.size(), "variable"), count(program_.size(), "statement"));
  changed();
}

void session::read_data(const std::string& path) {
  data_ = data::read_data_file(path);
  for (const auto& s : sets_) data::apply_set(data_, s);
  fmt::print("data {}: {}\n", path, count(data_.values().size(), "variable"));
}

void session::set_command(const std::string& assignment) {
  data::apply_set(data_, assignment);
  sets_.push_back(assignment);
  changed();
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
  const std::map<std::string, std::string> forced = parse_overrides(overrides, "theta");
  print_plan(model(), data_, forced);
}

void session::sample_command(const std::vector<std::string>& w) {
  infer_options o;
  o.quiet = !interactive_;
  CLI::App app{"sample: run the chains (the options of ppl infer)"};
  add_infer_options(&app, o);
  parse(app, w);
  model();
  const std::string text = program_.text();
  loaded l;
  l.model = std::make_unique<lang::ir::model>(lang::compile({name_, text}, stdlib::library()));
  l.data = data_;
  if (auto missing = model::missing_values(*l.model, l.data); !missing.partly_observed.empty())
    l.model = std::make_unique<lang::ir::model>(lang::compile({name_, text}, stdlib::library(), std::move(missing)));
  model_inputs in{name_, "", sets_};
  draws::table d;
  ppl::set_interrupted(false);  // a Ctrl-C typed before must not stop these chains
  infer_loaded(std::move(l), in, o, &d);
  ppl::set_interrupted(false);
  last_ = {std::move(d), text, data_, false};
}

const session::sample& session::last_sample() const {
  if (last_.draws.columns.empty()) throw std::invalid_argument("no draws yet: run `sample` first");
  for (std::size_t c = 0; c < last_.draws.chains.size(); ++c)
    if (last_.draws.rows(c) > 0) {
      if (last_.stale) std::cerr << stale_answer_note;
      return last_;
    }
  throw std::invalid_argument("the last sample has no draws (it was stopped before its first); run `sample` again");
}

void session::summary_command(const std::vector<std::string>& w) {
  std::vector<std::string> show;
  CLI::App app{"summary"};
  app.add_option("--show", show, "list every element of these arrays")->delimiter(',');
  parse(app, w);
  table_options table;
  table.show = show;
  table.histograms = want_histograms(false);
  const summary_messages messages = print_summary(draws::draws_source(last_sample().draws), table);
  for (const auto& note : messages.notes) fmt::print("note: {}\n", note);
  for (const auto& warning : messages.warnings) fmt::print("warning: {}\n", warning);
}

void session::query_command(const std::string& line) {
  const query q = parse_query(line);  // a malformed call is reported before a lack of draws
  const sample& s = last_sample();
  print_query(q, s.model_text, s.data, s.draws);
}

}  // namespace ppl::cli::repl
