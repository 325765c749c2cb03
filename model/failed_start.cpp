// A start whose log density is not finite (model/failed_start.hpp): the first term that
// is not, with why; the unknowns such terms read; and the repair below.
//
// A start's discrete unknowns, settled where their terms are not finite
// (docs/samplers.md, "Starting points"). A discrete unknown starts as a draw from its
// prior, which knows nothing of the data: in a latent class model a state the
// observations rule out (a patient's true state below the worst grade of the patient's biopsies) gives them probability 0, and
// with many such states no draw of all of them from their priors is possible (OpenBUGS's
// Biopsies: 157 patients). Such an element is drawn instead from its full conditional
// given the rest, p(z = k | rest) proportional to the exp of its Markov blanket's log
// density at k, by enumerating its support: the Gibbs step a sampler's first sweep would
// take, as JAGS's samplers for discrete nodes of finite support enumerate it. Elements
// whose terms are finite keep their prior draws, so chains still start apart.
#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <optional>
#include <vector>

#include "model/failed_start.hpp"

#include "model/blanket.hpp"
#include "model/graph.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/transform.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

namespace {

// Supports with more values are left to the chain's later starts.
constexpr double max_enumerated = 1000;
// Passes over the unknowns, and draws of one continuous element, before a start is given up.
constexpr int settle_rounds = 5;
constexpr int continuous_draws = 50;
// Draws (and enumerated values) one settling may spend, over all its passes.
constexpr long settle_budget = 100000;

// The values of a finite discrete support, in order; empty for any other support.
std::vector<double> support_values(const stdlib::support& s) {
  if (s.kind == stdlib::support_kind::spin) return {-1.0, 1.0};
  std::vector<double> out;
  if (s.kind == stdlib::support_kind::integer_interval && std::isfinite(s.lower) && std::isfinite(s.upper) &&
      s.upper - s.lower < max_enumerated)
    for (double k = s.lower; k <= s.upper; ++k) out.push_back(k);
  return out;
}

// Element `e` of the blanket's variable drawn from its full conditional over `values`;
// left as it was when every value gives a term that is not finite.
void draw_conditional(blanket& b, double& x, index_t e, const std::vector<double>& values, rng& rng) {
  const double old = x;
  std::vector<double> lp(values.size());
  double best = -INFINITY;
  for (std::size_t k = 0; k < values.size(); ++k) {
    x = values[k];
    b.update(e);
    lp[k] = b.log_density(e);
    if (std::isnan(lp[k]) || lp[k] == INFINITY) lp[k] = -INFINITY;
    best = std::max(best, lp[k]);
  }
  std::size_t pick = 0;
  if (std::isfinite(best)) {
    double total = 0;
    for (double& l : lp) total += (l = std::exp(l - best));
    double u = boost::random::uniform_01<double>()(rng) * total;
    while (pick + 1 < values.size() && (u -= lp[pick]) >= 0) ++pick;
    while (lp[pick] == 0) --pick;  // rounding past the last value of positive weight
  }
  x = std::isfinite(best) ? values[pick] : old;
  b.update(e);
}

}  // namespace

// The first instance of a statement whose term is not finite, for an error message.
std::optional<failed_start::non_finite_term> failed_start::first_non_finite(const statement& s) {
  std::optional<non_finite_term> found;
  instances(g_).visit(s, [&](const index_t* loops) {
    if (found) return;
    const double lp = instances(g_).log_density(s, loops);
    if (std::isfinite(lp)) return;
    const std::string where = g_.loop_values(s);  // log_density(s, loops) set this instance's loops
    non_finite_term term;
    const std::string value = std::isnan(lp) ? "NaN" : "-inf";
    if (s.which == statement::kind::sample) {
      const tensor& t = g_.values_[static_cast<std::size_t>(s.target)];
      const auto& args = instances(g_).args_at(s, loops);
      const index_t offset = instances(g_).target(s, loops).first;
      term.what = "the log density of " + element_name(g_.model_.variables[static_cast<std::size_t>(s.target)].name, t.shape, offset) +
                  (where.empty() ? "" : " (" + where + ")") + " is " + value;
      try {
        s.dist->check(args);
        view x{t.data.data() + offset, g_.value_shape_of(s, args)};
        if (!s.dist->in_support(args, x)) term.reason = stdlib::format_number(x[0]) + " is outside the support of " + s.dist_name;
      } catch (const stdlib::parameter_error& e) {
        term.reason = e.what();
      }
    } else {
      term.what = "this factor" + (where.empty() ? std::string() : " at " + where) + " is " + value;
    }
    found = std::move(term);
  });
  return found;
}

bool failed_start::mark_non_finite_inputs(std::vector<char>& marks) {
  std::vector<char> reached(g_.model_.variables.size(), 0);
  bool any = false;
  for (const statement& s : g_.model_.statements) {
    if (s.which == statement::kind::assign || std::isfinite(instances(g_).log_density(s))) continue;
    any = true;
    for (int r : lang::ir::statement_reads(s)) reached[static_cast<std::size_t>(r)] = 1;
    if (s.which == statement::kind::sample) reached[static_cast<std::size_t>(s.target)] = 1;
  }
  // Back through the definitions, last to first: statements are in dependency order.
  for (auto it = g_.model_.statements.rbegin(); it != g_.model_.statements.rend(); ++it)
    if (it->which == statement::kind::assign && reached[static_cast<std::size_t>(it->target)])
      for (int r : lang::ir::statement_reads(*it)) reached[static_cast<std::size_t>(r)] = 1;
  marks.resize(g_.model_.variables.size(), 0);
  for (std::size_t v = 0; v < reached.size(); ++v)
    if (reached[v] && g_.model_.variables[v].role == role::unknown) marks[v] = 1;
  return any;
}

bool failed_start::covered_by_init() const {
  const data::data_table* init = g_.options_.start.init;
  for (const auto& var : g_.model_.variables)
    if (var.role == role::unknown && (!init || !init->values().contains(var.name))) return false;
  return true;
}

bool failed_start::settle(rng& rng, bool continuous) {
  // Only unknowns that --init leaves free are settled; a model without them is not
  // evaluated here.
  std::vector<int> candidates;
  std::vector<char> seen(g_.model_.variables.size(), 0);
  const data::data_table* init = g_.options_.start.init;
  for (const statement& s : g_.model_.statements) {
    const auto v = static_cast<std::size_t>(s.target);
    if (s.which != statement::kind::sample || seen[v] || g_.model_.variables[v].role != role::unknown) continue;
    if (init && init->values().contains(g_.model_.variables[v].name)) continue;
    seen[v] = 1;
    candidates.push_back(s.target);
  }
  // Passes go on while one makes some element's terms finite, within a budget of draws
  // (a start the data rule out, whatever the unknowns, costs little before it is given up).
  bool changed = false;
  long budget = settle_budget;
  for (int round = 0; round < settle_rounds && budget > 0; ++round) {
    std::vector<char> marks;
    if (candidates.empty() || !mark_non_finite_inputs(marks)) break;
    settled outcome;
    for (int v : candidates)
      if (marks[static_cast<std::size_t>(v)]) settle_variable(v, rng, continuous, outcome, budget);
    if (outcome.moved) changed = true, g_.update_derived();
    if (outcome.finite == 0) break;
  }
  return changed;
}

// The scalar elements of `v` whose blanket is not finite: a discrete one drawn from its
// full conditional by enumeration, a continuous one drawn again, uniform(-2, 2) on its
// unconstrained scale as Stan starts it, until its blanket is finite (at most
// continuous_draws draws; else it keeps the last, no worse than where it was, and the
// next element or round starts from there).
void failed_start::settle_variable(int v, rng& rng, bool with_continuous, settled& outcome, long& budget) {
  std::vector<stdlib::support> element_supports(static_cast<std::size_t>(g_.values_[static_cast<std::size_t>(v)].size()));
  std::vector<char> scalar(element_supports.size(), 0);
  supports(g_).visit(v, [&](index_t offset, index_t size, const stdlib::support& s) {
    if (size == 1) element_supports[static_cast<std::size_t>(offset)] = s, scalar[static_cast<std::size_t>(offset)] = 1;
  });
  std::optional<blanket> b;  // indexed only when some element needs it
  boost::random::uniform_real_distribution<double> u(-2, 2);
  for (index_t e : g_.recorded_elements(v)) {
    if (budget <= 0) return;
    const auto k = static_cast<std::size_t>(e);
    if (!scalar[k]) continue;
    const stdlib::support& support = element_supports[k];
    const bool continuous = with_continuous && support.kind == stdlib::support_kind::real_interval;
    const std::vector<double> values = support_values(support);
    if (!continuous && values.empty()) continue;
    if (!b) b.emplace(g_, v);
    if (std::isfinite(b->log_density(e))) continue;
    double& x = g_.values_[static_cast<std::size_t>(v)].data[k];
    outcome.moved = true;
    if (!continuous) {
      budget -= static_cast<long>(values.size());
      draw_conditional(*b, x, e, values, rng);
    } else {
      const stdlib::transform t(support);
      for (int draw = 0; draw < continuous_draws && budget > 0; ++draw, --budget) {
        x = t.to_constrained(u(rng));
        b->update(e);
        if (std::isfinite(b->log_density(e))) break;
      }
    }
    if (std::isfinite(b->log_density(e))) ++outcome.finite;
  }
}

}  // namespace ppl::model
