// `ppl check MODEL [DATA]`: parse, check and (with data) build the graph, then describe it.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "core/source_error.hpp"
#include "model/graph.hpp"

namespace ppl::cli {

namespace {

const char* role_name(const lang::ir::variable& v) {
  switch (v.role) {
    case lang::ir::role::data: return v.observed ? "observed data" : "data";
    case lang::ir::role::transformed_data: return v.observed ? "observed data (computed)" : "computed from data";
    case lang::ir::role::unknown: return "unknown";
    case lang::ir::role::derived: return "derived from unknowns";
  }
  return "";
}

// A truncated or censored distribution with its bounds, `Normal T[0, ]`: each bound the
// number it is, or its name (`lower`, `upper`) when it is an expression.
std::string distribution_text(const lang::ir::statement& st) {
  const std::string& name = st.dist_name;
  if (!st.dist || !(name.ends_with(" T[]") || name.ends_with(" C[]"))) return name;
  const auto params = st.dist->params();
  std::string lower, upper;
  for (std::size_t k = 0; k < params.size() && k < st.args.size(); ++k) {
    const lang::ir::expr& a = *st.args[k];
    std::string text(params[k].name);
    if (a.which == lang::ir::expr::kind::int_const || a.which == lang::ir::expr::kind::real_const) text = fmt::format("{:g}", a.constant);
    if (params[k].name == "lower") lower = text;
    if (params[k].name == "upper") upper = text;
  }
  return name.substr(0, name.size() - 1) + lower + ", " + upper + "]";
}

std::string defined_by(const lang::ir::model& m, const lang::ir::variable& v) {
  std::string out;
  for (int s : v.statements) {
    const auto& st = m.statements[static_cast<std::size_t>(s)];
    std::string what = st.which == lang::ir::statement::kind::sample ? "~ " + distribution_text(st) : "=";
    out += (out.empty() ? "" : ", ") + what + " (line " + std::to_string(m.lines.locate(st.pos).line) + ")";
  }
  return out;
}

int run_check(const model_inputs& in) {
  return guarded([&] {
    loaded l = load(in);
    const auto& m = *l.model;
    std::unique_ptr<model::graph> g;
    ppl::rng rng(1);
    // With data, or for a model that reads none (its loops' sizes written out), the graph is
    // built as `infer` builds it, and what `infer` would refuse (a loop past the limits) is
    // refused here too.
    const bool reads_data = std::any_of(m.variables.begin(), m.variables.end(), [](const lang::ir::variable& v) {
      return v.role == lang::ir::role::data || v.observed;
    });
    if (!in.data_path.empty() || !in.sets.empty() || !reads_data) g = std::make_unique<model::graph>(m, std::move(l.data), rng);
    fmt::print("model {}: {} variables, {} statements\n", in.model_path, m.variables.size(), m.statements.size());
    for (std::size_t i = 0; i < m.variables.size(); ++i) {
      const auto& v = m.variables[i];
      std::string type = stdlib::to_string(v.type);
      if (g) type = std::string(v.type.kind == stdlib::scalar_kind::integer ? "int" : "real") +
                    g->value(static_cast<int>(i)).shape.str();
      std::string detail = defined_by(m, v);
      if (g && v.type.rank == 0 && v.role != lang::ir::role::unknown && v.role != lang::ir::role::derived)
        detail += (detail.empty() ? "= " : "; = ") + fmt::format("{}", g->value(static_cast<int>(i)).data[0]);
      fmt::print("  {:<14} {:<16} {:<26} {}\n", v.name, type, role_name(v), detail);
    }
    std::size_t factors = 0;
    long long terms = 0;
    for (const auto& s : m.statements)
      if (s.which == lang::ir::statement::kind::factor) {
        ++factors;
        if (g) terms += model::instances(*g).count(s);
      }
    if (factors) fmt::print("factors: {} statement{}{}\n", factors, factors == 1 ? "" : "s", g ? fmt::format(", {} terms", terms) : "");
    fmt::print("{}\n", g ? "graph built" : "checked (give data to build the graph)");
    if (!lang::ir::has_unknowns(m))
      fmt::print(stderr, "note: {}: the model has no unknowns: every variable is data or computed from data, so there is "
                         "nothing to infer\n", in.model_path);
    return 0;
  });
}

}  // namespace

command add_check_command(CLI::App& app) {
  auto in = std::make_shared<model_inputs>();
  auto* cmd = app.add_subcommand("check", "parse and check a model; with data, build its graph and describe it");
  add_model_inputs(cmd, *in);
  return {cmd, [in] { return run_check(*in); }};
}

}  // namespace ppl::cli
