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
// 3. Normal or MultiNormal unknowns given a conjugate update or NUTS that a term combines
//    with each other in one argument (alpha + beta * x[n], x uncentred: alpha and beta
//    correlated almost -1 a posteriori), or a term's value with its mean (random effects
//    b[j] ~ Normal(mu, tau) with mu; a random walk x[t] ~ Normal(x[t - 1], s)), are drawn
//    together by gaussian_block when every term they enter is Normal or MultiNormal and
//    affine in them jointly: posteriordb's kilpisjarvi went from R-hat 4.2 by alternating
//    draws to exact joint ones, and BUGS Schools (MultiNormal random coefficients) from
//    420 s with NUTS to 20 s. The block is sparse (samplers/gaussian_block.cpp): random
//    effects with their mean cost three passes over their terms and a sparse factor per
//    sweep, whatever their number. Imputed values of a covariate, whose products with the
//    coefficients no block is affine in, are left out where they would refuse the block.
//    This rule runs first: what it leaves in the NUTS block
//    is what rules 1 and 2 look at (eight schools' tau alone goes to slice).
// 4. A hierarchical scale (theta in b[i] ~ Normal(m[i], g(theta))) keeps its sampler and
//    gets, after each sweep, the non-centred scale move (samplers/scale_move.cpp).
// 5. A scalar given `slice` that the block of rule 3 reads outside its Normal form (BUGS's
//    Stagnant change point, where alpha is the line's value at the change) also gets, after
//    each sweep, a move with the block integrated out, then the block drawn
//    (samplers/gaussian_block_companions.cpp), tried in warmup as the scale moves are.
//
// Only the planner's own choices change; a kind given with --sampler is kept.
#include <algorithm>

#include "samplers/factories.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::role;
using lang::ir::statement;

namespace {

bool is_kind(const assignment& a, std::string_view kind) { return a.chosen && a.chosen->kind() == kind; }

// The conjugate candidates read by one argument of a term, back through the derived
// variables it reads (the term's own variable left out): fn(candidate) for each.
template <class Candidate, class Fn>
void for_each_argument_reads(const lang::ir::model& m, const statement& s, const lang::ir::expr& arg, std::vector<std::size_t>& seen,
                             std::size_t visit, Candidate candidate, Fn fn) {
  std::vector<int> stack;
  lang::ir::collect_reads(&arg, stack);
  while (!stack.empty()) {
    const auto u = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    if (seen[u] == visit) continue;
    seen[u] = visit;
    if (candidate(u) && static_cast<int>(u) != s.target) fn(u);
    if (m.variables[u].role != role::derived) continue;
    for (int d : m.variables[u].statements)
      for (int r : lang::ir::statement_reads(m.statements[static_cast<std::size_t>(d)])) stack.push_back(r);
  }
}

template <class Forced>
void join_nuts_block(model::graph& g, Forced forced, std::vector<assignment>& plan) {
  const auto& m = g.model();
  const std::size_t n = m.variables.size();
  std::vector<char> in_block(n, 0), candidate(n, 0), tied(n, 0);
  for (const auto& a : plan) {
    const auto v = static_cast<std::size_t>(a.variable);
    in_block[v] = is_kind(a, "nuts");
    candidate[v] = is_kind(a, "conjugate") && !forced(a) && !model::supports(g).moves(a.variable);
  }
  const std::vector<char> reaches_block = reaching(m, in_block);
  // From each argument that reaches the block, back through the definitions it reads: the
  // candidates found there (other than the term's own variable) are tied to the block.
  std::vector<std::size_t> seen(n, 0);  // the argument that last visited each variable, counted from 1
  std::size_t visit = 0;
  std::vector<int> reads;
  for (const statement& s : m.statements) {
    if (s.which == statement::kind::assign) continue;
    for (const auto& arg : s.args) {
      reads.clear();
      lang::ir::collect_reads(arg.get(), reads);
      if (std::none_of(reads.begin(), reads.end(), [&](int r) { return reaches_block[static_cast<std::size_t>(r)]; })) continue;
      for_each_argument_reads(m, s, *arg, seen, ++visit, [&](std::size_t u) { return candidate[u] != 0; },
                              [&](std::size_t u) { tied[u] = 1; });
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

// The candidates (by variable) that a term combines with another candidate in one
// argument, or a `~` its value with its mean.
std::vector<char> tied_candidates(const lang::ir::model& m, const std::vector<char>& candidate) {
  const std::size_t n = m.variables.size();
  std::vector<char> tied(n, 0);
  std::vector<int> reads;
  std::vector<std::size_t> seen(n, 0);
  std::size_t visit = 0;
  for (const statement& s : m.statements) {
    if (s.which == statement::kind::assign) continue;
    // A `~` of a candidate is a term of its value too: b[j] ~ Normal(mu, tau) combines b[j]
    // with mu, and x[t] ~ Normal(x[t - 1], s) x[t] with x[t - 1].
    const bool own = s.which == statement::kind::sample && candidate[static_cast<std::size_t>(s.target)];
    for (const auto& arg : s.args) {
      std::vector<std::size_t> found;
      for_each_argument_reads(m, s, *arg, seen, ++visit, [&](std::size_t u) { return candidate[u] != 0; },
                              [&](std::size_t u) { found.push_back(u); });
      reads.clear();
      lang::ir::collect_reads(arg.get(), reads);
      const bool reads_own = own && std::find(reads.begin(), reads.end(), s.target) != reads.end();
      if (own && (!found.empty() || reads_own)) found.push_back(static_cast<std::size_t>(s.target));
      if (found.size() >= 2 || reads_own)
        for (std::size_t u : found) tied[u] = 1;
    }
  }
  return tied;
}

template <class Forced>
void form_gaussian_block(model::graph& g, Forced forced, std::vector<assignment>& plan) {
  const auto& m = g.model();
  const std::size_t n = m.variables.size();
  const factory* block = find_factory("gaussian_block");
  std::vector<char> candidate(n, 0);
  // Conjugate unknowns, and those NUTS would move (a random walk's path, random
  // coefficients no conjugate pair takes).
  for (const auto& a : plan) {
    const auto v = static_cast<std::size_t>(a.variable);
    candidate[v] = (is_kind(a, "conjugate") || is_kind(a, "nuts")) && !forced(a) && !model::supports(g).moves(a.variable) &&
                   block->can_sample(g, a.variable).ok;
  }
  if (std::count(candidate.begin(), candidate.end(), 1) == 0) return;
  std::vector<char> tied;
  std::vector<int> members;
  auto possible = [&] {
    tied = tied_candidates(m, candidate);
    members.clear();
    ppl::index_t elements = 0;
    for (std::size_t v = 0; v < n; ++v)
      if (tied[v]) members.push_back(static_cast<int>(v)), elements += g.value(static_cast<int>(v)).size();
    std::string why;
    return elements >= 2 && gaussian_block_possible(g, members, why);
  };
  // Missing values of a covariate (an unknown filled from data, `x[i]` in `a + b * x[i]`)
  // tie themselves to the coefficients in a product that no block is affine in: without
  // them the complete-data model's block stands, and the imputed values keep their own
  // updates.
  if (!possible()) {
    bool dropped = false;
    for (std::size_t v = 0; v < n; ++v)
      if (candidate[v] && m.variables[v].filled_from >= 0) candidate[v] = 0, dropped = true;
    if (!dropped || !possible()) return;
  }
  std::string names;
  for (int v : members) names += (names.empty() ? "" : ", ") + m.variables[static_cast<std::size_t>(v)].name;
  for (auto& a : plan)
    if (tied[static_cast<std::size_t>(a.variable)])
      a = {a.variable, block,
           "one block (" + names + ") drawn from its multivariate normal conditional: a term combines them in one argument (or "
           "its value with its mean), so they are correlated a posteriori, and one conjugate draw at a time would move by the "
           "conditional sd only"};
}

}  // namespace

void choose_by_efficiency(model::graph& g, const std::map<std::string, std::string>& overrides, std::vector<assignment>& plan) {
  const auto& m = g.model();
  auto forced = [&](const assignment& a) { return overrides.count(m.variables[static_cast<std::size_t>(a.variable)].name) != 0; };
  auto block_size = [&] {
    return std::count_if(plan.begin(), plan.end(), [&](const assignment& a) { return is_kind(a, "nuts"); });
  };
  // 3. Normal unknowns tied to each other inside one argument of a term, first: what they
  // leave in the NUTS block is what rules 1 and 2 look at.
  form_gaussian_block(g, forced, plan);
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
  if (block_size() > 0) join_nuts_block(g, forced, plan);

  // 4. Hierarchical scales also get the non-centred scale move after each sweep, which each
  //    chain tries during warmup and keeps only where it pays (inference/chain_trial.hpp).
  for (const auto& [theta, b] : find_scale_moves(g, plan))
    for (auto& a : plan)
      if (a.variable == theta)
        a.reason += "; after each sweep also a non-centred scale move with `" + m.variables[static_cast<std::size_t>(b)].name +
                    "` (slice on log " + m.variables[static_cast<std::size_t>(theta)].name + " with its standardised effects fixed; tried in warmup, kept only where it pays)";
  // 5. The Gaussian block's companions also get, after each sweep, a move with the block
  //    integrated out, tried as the scale moves are.
  for (const auto& c : find_companion_moves(g, plan))
    for (auto& a : plan)
      if (a.variable == c.companion) {
        std::string names;
        for (int v : c.block) names += (names.empty() ? "" : ", ") + m.variables[static_cast<std::size_t>(v)].name;
        a.reason += "; after each sweep also a move with the block (" + names + ") integrated out, the block then drawn at the "
                    "new value (tried in warmup, kept only where it pays)";
      }
}

}  // namespace ppl::samplers
