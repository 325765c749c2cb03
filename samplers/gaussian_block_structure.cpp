// The structure of a `gaussian_block` (samplers/gaussian_block_structure.hpp).
#include "samplers/gaussian_block_structure.hpp"

#include <algorithm>

#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::role;
using lang::ir::statement;

// 0 Normal(m, s), 1 MultiNormal(m, Sigma), 2 MultiNormalPrec(m, P); -1 none of them.
int term_form(const statement& s) {
  if (s.args.size() != 2) return -1;
  if (s.dist_name == "Normal") return 0;
  if (s.dist_name == "MultiNormal") return 1;
  return s.dist_name == "MultiNormalPrec" ? 2 : -1;
}

// Why `variables` cannot form a block, or empty when their terms have the form above
// (structurally: Normal everywhere, scales and indices free of the block).
std::string structure_of(model::graph& g, const std::vector<int>& variables, block_structure& out) {
  const auto& m = g.model();
  const std::size_t n = m.variables.size();
  std::vector<char> marked(n, 0);
  for (int v : variables) marked[static_cast<std::size_t>(v)] = 1;
  const std::vector<char> reaches = reaching(m, marked);
  out.variables = variables;
  out.derived.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (!reaches[v] || marked[v]) continue;
    if (m.variables[v].role != role::derived) return "it reaches `" + m.variables[v].name + "`, which is not a derived variable";
    out.derived[v] = 1;
  }
  auto reads_block = [&](const lang::ir::expr* e) { return reads_marked(e, reaches); };
  for (const statement& s : m.statements) {
    if (s.which == statement::kind::assign || g.predictive(s)) continue;
    const bool own = s.target >= 0 && std::find(variables.begin(), variables.end(), s.target) != variables.end();
    const auto reads = lang::ir::statement_reads(s);
    const bool touches = own || std::any_of(reads.begin(), reads.end(), [&](int r) { return reaches[static_cast<std::size_t>(r)] != 0; });
    if (!touches) continue;
    const std::string where = " (line " + std::to_string(m.lines.locate(s.pos).line) + ")";
    if (s.which == statement::kind::factor) return "a factor reads it" + where;
    if (own && s.dist_name == "Flat" && s.args.empty()) continue;  // an improper flat prior on the reals: nothing in Q or c
    if (term_form(s) < 0) return "a term is " + s.dist_name + ", not Normal or MultiNormal" + where;
    if (reads_block(s.args[1].get())) return "the scale of a Normal term depends on it" + where;
    for (const auto& l : s.loops)
      if (reads_block(l.lo.get()) || reads_block(l.hi.get())) return "a loop bound depends on it" + where;
    for (const auto& ix : s.target_indices)
      if (reads_block(ix.get())) return "an index depends on it" + where;
    if (!own && reaches[static_cast<std::size_t>(s.target)]) return "a term's value is derived from it" + where;
    out.terms.push_back(&s);
  }
  return {};
}

void list_elements(model::graph& g, block_structure& b) {
  b.elements.clear();
  for (int v : b.variables)
    for (ppl::index_t e = 0; e < g.value(v).size(); ++e) b.elements.emplace_back(v, e);
}

std::vector<char> fixed_terms(const lang::ir::model& m, const block_structure& b) {
  std::vector<char> outside(m.variables.size(), 0);
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    outside[v] = m.variables[v].role == role::unknown && std::find(b.variables.begin(), b.variables.end(), static_cast<int>(v)) == b.variables.end();
  outside = reaching(m, outside);
  auto free_of_outside = [&](const statement& s) {
    if (outside[static_cast<std::size_t>(s.target)] || reads_marked(s.args[0].get(), outside)) return false;
    for (const auto& l : s.loops)
      if (reads_marked(l.lo.get(), outside) || reads_marked(l.hi.get(), outside)) return false;
    for (const auto& ix : s.target_indices)
      if (reads_marked(ix.get(), outside)) return false;
    return true;
  };
  std::vector<char> fixed;
  // A MultiNormal's only where its covariance (precision) is one for all its instances.
  for (const statement* s : b.terms)
    fixed.push_back((term_form(*s) == 0 || !lang::ir::uses_loop_variable(*s->args[1])) && free_of_outside(*s));
  return fixed;
}

}  // namespace ppl::samplers
