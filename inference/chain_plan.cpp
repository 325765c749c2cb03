// The plan as a run reports it, the variables a run records and their columns, and the
// samplers made from the plan in the order of a sweep.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "draws/draws.hpp"
#include "inference/chain_internal.hpp"
#include "samplers/collapsed.hpp"
#include "samplers/structure.hpp"

namespace ppl::inference {

namespace {

using lang::ir::role;

std::string shape_label(const std::string& name, const ppl::shape& s) {
  if (s.rank == 0) return name;
  std::string out = name + "[";
  for (int d = 0; d < s.rank; ++d) out += (d ? ", 1:" : "1:") + std::to_string(s[d]);
  return out + "]";
}

// A variable's name in the plan: with its shape, or, partly observed, the missing elements
// it imputes ("y[3], y[5] (missing)", "y[2], y[4], y[7], ... (12 missing)").
std::string plan_label(const model::graph& g, int v) {
  const auto& name = g.model().variables[static_cast<std::size_t>(v)].name;
  const auto& shape = g.value(v).shape;
  if (!g.partly_observed(v)) return shape_label(name, shape);
  const auto& imputed = g.imputed_elements(v);
  std::string out;
  for (std::size_t i = 0; i < imputed.size() && i < 3; ++i) out += (i ? ", " : "") + element_name(name, shape, imputed[i]);
  return imputed.size() > 3 ? out + ", ... (" + std::to_string(imputed.size()) + " missing)" : out + " (missing)";
}

int first_statement(const lang::ir::model& m, int v) {
  const auto& s = m.variables[static_cast<std::size_t>(v)].statements;
  return s.empty() ? 0 : *std::min_element(s.begin(), s.end());
}

}  // namespace

std::vector<plan_line> plan_lines(model::graph& g, const std::map<std::string, std::string>& overrides, samplers::collapsed_record record) {
  std::vector<plan_line> out;
  for (const auto& a : samplers::plan(g, overrides)) {
    const auto& var = g.model().variables[static_cast<std::size_t>(a.variable)];
    std::string ignored;
    const auto collapsed = a.chosen->kind() == "collapsed" ? samplers::find_collapsed(g.model(), a.variable, ignored) : std::nullopt;
    const bool integrated = collapsed && collapsed->z != a.variable;
    out.push_back({plan_label(g, a.variable), std::string(a.chosen->kind()),
                   integrated ? a.reason + "; " + samplers::collapsed_recording(var.name, record) : a.reason, var.name,
                   integrated && record == samplers::collapsed_record::means});
  }
  return out;
}

std::vector<int> monitored_variables(const lang::ir::model& m, const model::graph& g, const std::vector<std::string>& names,
                                     std::vector<unrecorded>* left_out) {
  std::vector<int> out;
  if (!names.empty()) {
    for (const auto& n : names) {
      int v = m.find(n);
      if (v < 0) throw std::invalid_argument("--monitor: `" + n + "` is not a variable of the model");
      out.push_back(v);
    }
    return out;
  }
  // By default every unknown and derived variable small enough to list (1000 scalars);
  // larger ones (LDA's z) only on request.
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    auto r = m.variables[v].role;
    if (r != role::unknown && r != role::derived) continue;
    const auto size = static_cast<ppl::index_t>(g.recorded_elements(static_cast<int>(v)).size());
    if (size <= 1000) out.push_back(static_cast<int>(v));
    else if (left_out) left_out->push_back({m.variables[v].name, static_cast<long long>(size)});
  }
  return out;
}

std::vector<std::string> recorded_columns(const model::graph& g, const std::vector<int>& monitored) {
  std::vector<std::string> out;
  for (int v : monitored) {
    const auto& t = g.value(v);
    for (ppl::index_t i : g.recorded_elements(v))
      out.push_back(draws::element_column(g.model().variables[static_cast<std::size_t>(v)].name, t.shape, i));
  }
  return out;
}

void sweep_order(const lang::ir::model& m, std::vector<samplers::assignment>& assignments) {
  // Ancestral draws last: the predictions' variables leave them out of their updates.
  std::sort(assignments.begin(), assignments.end(), [&](const samplers::assignment& a, const samplers::assignment& b) {
    const bool last_a = a.chosen->kind() == "ancestral", last_b = b.chosen->kind() == "ancestral";
    if (last_a != last_b) return last_b;
    return first_statement(m, a.variable) < first_statement(m, b.variable);
  });
}

std::vector<made_sampler> make_samplers(model::graph& g, const std::vector<samplers::assignment>& assignments) {
  // A kind that joins its variables into one block (NUTS) gets one sampler for all of them,
  // at the place of the first. A variable whose support's bounds follow other unknowns
  // stays on its own: its transform is read again before each update, which is right for
  // an update given those unknowns, not for one that moves them too.
  const auto& m = g.model();
  std::vector<made_sampler> out;
  std::vector<char> done(assignments.size(), 0);
  std::vector<char> joins(assignments.size());
  for (std::size_t i = 0; i < assignments.size(); ++i)
    joins[i] = assignments[i].chosen->joins_block() && (!model::supports(g).moves(assignments[i].variable) || model::supports(g).follows_bounds(assignments[i].variable));
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    if (done[i]) continue;
    const samplers::factory* f = assignments[i].chosen;
    std::vector<int> block{assignments[i].variable};
    for (std::size_t j = i + 1; joins[i] && j < assignments.size(); ++j)
      if (assignments[j].chosen == f && joins[j]) {
        block.push_back(assignments[j].variable);
        done[j] = 1;
      }
    std::string names;
    for (int v : block) names += (names.empty() ? "" : ", ") + m.variables[static_cast<std::size_t>(v)].name;
    out.push_back({f->joins_block() ? f->make_block(g, block) : f->make(g, block.front()), names, block});
  }
  for (const auto& [theta, b] : samplers::find_scale_moves(g, assignments))
    out.push_back({samplers::make_scale_move(g, theta, b),
                   m.variables[static_cast<std::size_t>(theta)].name + " with " + m.variables[static_cast<std::size_t>(b)].name + " (scale move)",
                   {theta, b},
                   true});
  return out;
}

std::vector<plan_line> describe_plan(const lang::ir::model& m, const data::data_table& data,
                                     const std::map<std::string, std::string>& overrides) {
  ppl::rng rng(1);
  model::graph g(m, data, rng);
  return plan_lines(g, overrides, samplers::collapsed_record::draws);
}

}  // namespace ppl::inference
