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

// Which variables the marked ones reach through `=` definitions (themselves included).
// Statements come parents first, so one pass carries a mark down every chain.
std::vector<char> reaching(const lang::ir::model& m, std::vector<char> marked) {
  for (const statement& s : m.statements) {
    if (s.which != statement::kind::assign || marked[static_cast<std::size_t>(s.target)]) continue;
    for (int r : lang::ir::statement_reads(s))
      if (marked[static_cast<std::size_t>(r)]) marked[static_cast<std::size_t>(s.target)] = 1;
  }
  return marked;
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
  const std::size_t n = m.variables.size();
  std::vector<char> in_block(n, 0), candidate(n, 0), tied(n, 0);
  for (const auto& a : plan) {
    const auto v = static_cast<std::size_t>(a.variable);
    in_block[v] = is_kind(a, "nuts");
    candidate[v] = is_kind(a, "conjugate") && !forced(a) && !g.support_moves(a.variable);
  }
  const std::vector<char> reaches_block = reaching(m, in_block);
  // From each argument that reaches the block, back through the definitions it reads: the
  // candidates found there (other than the term's own variable) are tied to the block.
  std::vector<std::size_t> seen(n, 0);  // the argument that last visited each variable, counted from 1
  std::size_t visit = 0;
  std::vector<int> stack;
  for (const statement& s : m.statements) {
    if (s.which == statement::kind::assign) continue;
    for (const auto& arg : s.args) {
      stack.clear();
      lang::ir::collect_reads(arg.get(), stack);
      if (std::none_of(stack.begin(), stack.end(), [&](int r) { return reaches_block[static_cast<std::size_t>(r)]; })) continue;
      ++visit;
      while (!stack.empty()) {
        const auto u = static_cast<std::size_t>(stack.back());
        stack.pop_back();
        if (seen[u] == visit) continue;
        seen[u] = visit;
        if (candidate[u] && static_cast<int>(u) != s.target) tied[u] = 1;
        if (m.variables[u].role != role::derived) continue;
        for (int d : m.variables[u].statements)
          for (int r : lang::ir::statement_reads(m.statements[static_cast<std::size_t>(d)])) stack.push_back(r);
      }
    }
  }
  const factory* nuts = find_factory("nuts");
  for (auto& a : plan) {
    if (!tied[static_cast<std::size_t>(a.variable)] || !nuts->can_sample(g, a.variable).ok) continue;
    a = {a.variable, nuts,
         "joins the NUTS block: a term combines it with the block's unknowns in one argument, so they are correlated and "
         "move better together than by alternating with a conjugate draw"};
  }
}

}  // namespace ppl::samplers
