// Second thoughts on the plan, for efficiency per CPU second rather than for what each
// unknown could take on its own (samplers/plan.cpp makes the first choice):
//
// 1. A NUTS block of one scalar goes to the slice sampler. NUTS on a line builds a tree of
//    gradient evaluations to cross a distribution that stepping out and shrinking
//    (Neal 2003; seeds/slice notes) crosses in a handful of density evaluations, with no
//    gradient; pumps' alpha gives about twice the ESS per second this way, as JAGS's
//    slice sampler does.
// 2. An unknown given a conjugate update joins the NUTS block when one argument of a term
//    combines it with a member of the block (eight schools' theta[j] = mu + tau * eta[j]
//    inside y[j] ~ Normal(theta[j], sigma[j])): such a term makes them correlated a
//    posteriori, and alternating an exact draw of mu given tau and eta with NUTS moves of
//    the others mixes more slowly than moving them together (mu's ESS per draw rises from
//    0.8 to Stan's figure). An unknown that only sits beside the block in separate
//    arguments (mu and sigma in y ~ Normal(mu, sigma)) keeps its conjugate draw.
//
// Only the planner's own choices change; a kind given with --sampler is kept.
#include <algorithm>

#include "samplers/factories.hpp"

namespace ppl::samplers {

using lang::ir::role;
using lang::ir::statement;

namespace {

// For every variable, the unknowns it depends on through `=` definitions (itself, for an
// unknown), as a bit set per variable.
std::vector<std::vector<char>> unknown_inputs(const lang::ir::model& m) {
  const std::size_t n = m.variables.size();
  std::vector<std::vector<char>> in(n, std::vector<char>(n, 0));
  for (std::size_t v = 0; v < n; ++v)
    if (m.variables[v].role == role::unknown) in[v][v] = 1;
  // Definitions may chain in any order of statements: repeat until nothing is added.
  for (bool changed = true; changed;) {
    changed = false;
    for (const statement& s : m.statements) {
      if (s.which != statement::kind::assign) continue;
      auto& to = in[static_cast<std::size_t>(s.target)];
      for (int r : lang::ir::statement_reads(s))
        for (std::size_t u = 0; u < n; ++u)
          if (in[static_cast<std::size_t>(r)][u] && !to[u]) to[u] = changed = 1;
    }
  }
  return in;
}

bool is_kind(const assignment& a, std::string_view kind) { return a.chosen && a.chosen->kind() == kind; }

}  // namespace

void choose_by_efficiency(runtime::graph& g, const std::map<std::string, std::string>& overrides, std::vector<assignment>& plan) {
  const auto& m = g.model();
  auto forced = [&](const assignment& a) { return overrides.count(m.variables[static_cast<std::size_t>(a.variable)].name) != 0; };
  auto block_size = [&] {
    return std::count_if(plan.begin(), plan.end(), [&](const assignment& a) { return is_kind(a, "nuts"); });
  };
  // 1. A lone scalar in the NUTS block.
  if (block_size() == 1) {
    auto& a = *std::find_if(plan.begin(), plan.end(), [&](const assignment& x) { return is_kind(x, "nuts"); });
    const factory* slice = find_factory("slice");
    if (!forced(a) && g.value(a.variable).data.size() == 1 && slice) {
      const claim c = slice->can_sample(g, a.variable);
      if (c.ok) a = {a.variable, slice, "a lone scalar: slice sampling crosses a line in a few density evaluations, NUTS with a tree of gradients"};
    }
  }
  // 2. Conjugate unknowns tied to the block inside one argument of a term.
  if (block_size() == 0) return;
  std::vector<char> in_block(m.variables.size(), 0);
  for (const auto& a : plan)
    if (is_kind(a, "nuts")) in_block[static_cast<std::size_t>(a.variable)] = 1;
  const auto inputs = unknown_inputs(m);
  const factory* nuts = find_factory("nuts");
  for (auto& a : plan) {
    if (!is_kind(a, "conjugate") || forced(a) || g.support_moves(a.variable)) continue;
    const auto v = static_cast<std::size_t>(a.variable);
    bool tied = false;
    for (const statement& s : m.statements) {
      if (s.which == statement::kind::assign || s.target == a.variable) continue;
      for (const auto& arg : s.args) {
        std::vector<int> reads;
        lang::ir::collect_reads(arg.get(), reads);
        bool reads_v = false, reads_block = false;
        for (int r : reads) {
          const auto& from = inputs[static_cast<std::size_t>(r)];
          reads_v = reads_v || from[v];
          for (std::size_t u = 0; u < from.size() && !reads_block; ++u) reads_block = from[u] && in_block[u];
        }
        tied = tied || (reads_v && reads_block);
      }
    }
    if (!tied) continue;
    const claim c = nuts->can_sample(g, a.variable);
    if (c.ok)
      a = {a.variable, nuts,
           "joins the NUTS block: a term combines it with the block's unknowns in one argument, so they are correlated and "
           "move better together than by alternating with a conjugate draw"};
  }
}

}  // namespace ppl::samplers
