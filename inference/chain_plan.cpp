// The plan as a run reports it, the variables a run records and their columns, and the
// samplers made from the plan in the order of a sweep.
#include <algorithm>
#include <charconv>
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

// One --monitor name: the variable, and the element's offset when it names one (-1: all).
std::pair<int, ppl::index_t> monitor_of(const lang::ir::model& m, const model::graph& g, const std::string& n) {
  const auto open = n.find('[');
  std::string name = n.substr(0, open);
  int v = m.find(name);
  if (v < 0 && name.find('.') != std::string::npos) {  // BUGS's spelling of the name
    std::replace(name.begin(), name.end(), '.', '_');
    v = m.find(name);
  }
  if (v < 0) throw std::invalid_argument("--monitor: `" + n + "` is not a variable of the model");
  if (open == std::string::npos) return {v, -1};
  // Y[26,2]: one element, its indices from 1, as JAGS's monitor writes it.
  const ppl::shape& s = g.value(v).shape;
  const auto bad = [&](const std::string& why) { return std::invalid_argument("--monitor: `" + n + "`: " + why); };
  if (n.back() != ']') throw bad("expected `name` or one element, `name[i, j]`");
  std::vector<ppl::index_t> at;
  for (std::size_t p = open + 1; p < n.size();) {
    const std::size_t end = std::min(n.find(',', p), n.size() - 1);
    std::string part = n.substr(p, end - p);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    long long k = 0;
    const auto r = std::from_chars(part.data(), part.data() + part.size(), k);
    if (part.empty() || r.ec != std::errc() || r.ptr != part.data() + part.size())
      throw bad("an index must be a whole number (one element, as JAGS's monitor names it)");
    at.push_back(static_cast<ppl::index_t>(k));
    p = end + 1;
  }
  if (s.rank == 0) throw bad("`" + name + "` is a scalar: name it without indices");
  if (static_cast<int>(at.size()) != s.rank)
    throw bad("`" + name + "` has " + std::to_string(s.rank) + " dimension" + (s.rank == 1 ? "" : "s") + ", " + s.str());
  ppl::index_t offset = 0;
  for (int d = 0; d < s.rank; ++d) {
    if (at[static_cast<std::size_t>(d)] < 1 || at[static_cast<std::size_t>(d)] > s[d]) throw bad("outside `" + name + "`'s shape " + s.str());
    offset = offset * s[d] + at[static_cast<std::size_t>(d)] - 1;
  }
  const auto recorded = g.recorded_elements(v);
  if (std::find(recorded.begin(), recorded.end(), offset) == recorded.end())
    throw bad("that element is not recorded (data, or no statement gives it a value)");
  return {v, offset};
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

std::vector<int> monitored_variables(const lang::ir::model& m, model::graph& g, const std::vector<std::string>& names,
                                     std::vector<unrecorded>* left_out) {
  std::vector<int> out;
  if (!names.empty()) {
    std::vector<std::vector<ppl::index_t>> elements(m.variables.size());
    std::vector<char> whole(m.variables.size(), 0);
    for (const auto& n : names) {
      const auto [v, element] = monitor_of(m, g, n);
      if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
      if (element < 0) whole[static_cast<std::size_t>(v)] = 1;
      else if (auto& e = elements[static_cast<std::size_t>(v)]; std::find(e.begin(), e.end(), element) == e.end()) e.push_back(element);
    }
    for (int v : out) g.record_only(v, whole[static_cast<std::size_t>(v)] ? std::vector<ppl::index_t>{} : elements[static_cast<std::size_t>(v)]);
    return out;
  }
  // By default every unknown and derived variable small enough to list (1000 scalars);
  // larger ones (LDA's z) only on request; a print's values are printed, not recorded.
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    auto r = m.variables[v].role;
    if (r != role::unknown && r != role::derived) continue;
    if (std::any_of(m.prints.begin(), m.prints.end(), [&](const auto& p) { return p.variable == static_cast<int>(v); })) continue;
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
  for (const auto& move : samplers::find_companion_moves(g, assignments))
    out.push_back({samplers::make_companion_move(g, move),
                   m.variables[static_cast<std::size_t>(move.companion)].name + " with its block integrated out (companion move)",
                   {move.companion},
                   true,
                   false});
  return out;
}

std::vector<plan_line> describe_plan(const lang::ir::model& m, const data::data_table& data,
                                     const std::map<std::string, std::string>& overrides) {
  ppl::rng rng(1);
  model::graph g(m, data, rng);
  return plan_lines(g, overrides, samplers::collapsed_record::draws);
}

}  // namespace ppl::inference
