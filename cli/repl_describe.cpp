#include "cli/repl_describe.hpp"

#include <fmt/core.h>

#include <sstream>
#include <stdexcept>

#include "cli/repl_input.hpp"
#include "cli/session.hpp"
#include "lang/checker.hpp"
#include "model/graph.hpp"
#include "inference/chain.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli::repl {

namespace {

std::string line_of(const std::string& text, std::size_t line) {
  std::istringstream in(text);
  std::string l;
  for (std::size_t k = 0; k < line && std::getline(in, l); ++k) {
  }
  return l;
}

}  // namespace

void describe(const lang::ir::model& m, const data::data_table& data, const std::string& name) {
  const int v = m.find(name);
  if (v < 0) throw std::invalid_argument("describe: `" + name + "` is not a variable of the model");
  const auto& var = m.variables[static_cast<std::size_t>(v)];
  static const char* roles[] = {"data", "computed from data", "unknown", "derived from unknowns"};
  std::string role = roles[static_cast<int>(var.role)];
  if (var.observed) role = "observed " + role;
  fmt::print("{}: {} {}\n", var.name, stdlib::to_string(var.type), role);
  for (int s : var.statements) {
    const auto& st = m.statements[static_cast<std::size_t>(s)];
    const auto where = ppl::locate(m.source.text, st.pos);
    fmt::print("  line {}: {}\n", where.line, trim(line_of(m.source.text, where.line)));
  }
  try {
    ppl::rng rng(1);
    model::graph g(m, data, rng);
    fmt::print("  shape {}\n", g.value(v).shape.rank ? g.value(v).shape.str() : "scalar");
    if (var.role == lang::ir::role::unknown)
      for (const auto& p : inference::describe_plan(m, data, {}))
        if (p.name == var.name) fmt::print("  sampler {}: {}\n", p.kind, p.reason);
  } catch (const ppl::source_error&) {
    fmt::print("  (give data to see its shape and sampler)\n");
  }
}

void print_plan(const lang::ir::model& m, const data::data_table& data, const std::map<std::string, std::string>& forced) {
  cli::print_plan(inference::describe_plan(m, data, forced));
}

}  // namespace ppl::cli::repl
