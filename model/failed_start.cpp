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
#include <cmath>
#include <optional>
#include <vector>

#include "model/failed_start.hpp"

#include "model/blanket.hpp"
#include "model/graph.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

namespace {

// Supports with more values are left to the chain's later starts.
constexpr double max_enumerated = 1000;

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

bool failed_start::settle_discrete(rng& rng) {
  // Only discrete unknowns can be settled; a model without them is not evaluated here.
  std::vector<int> candidates;
  std::vector<char> seen(g_.model_.variables.size(), 0);
  const data::data_table* init = g_.options_.start.init;
  for (const statement& s : g_.model_.statements) {
    const auto v = static_cast<std::size_t>(s.target);
    if (s.which != statement::kind::sample || seen[v] || g_.model_.variables[v].role != role::unknown) continue;
    if (init && init->values().contains(g_.model_.variables[v].name)) continue;
    seen[v] = 1;
    if (s.dist->value_kind() == stdlib::scalar_kind::integer && s.dist->value_rank() == 0) candidates.push_back(s.target);
  }
  std::vector<char> marks;
  if (candidates.empty() || !mark_non_finite_inputs(marks)) return false;
  bool changed = false;
  for (int v : candidates) {
    if (!marks[static_cast<std::size_t>(v)]) continue;
    std::vector<stdlib::support> element_supports(static_cast<std::size_t>(g_.values_[static_cast<std::size_t>(v)].size()));
    supports(g_).visit(v, [&](index_t offset, index_t size, const stdlib::support& s) {
      if (size == 1) element_supports[static_cast<std::size_t>(offset)] = s;
    });
    std::optional<blanket> b;  // indexed only when some element needs it
    for (index_t e : g_.recorded_elements(v)) {
      const std::vector<double> values = support_values(element_supports[static_cast<std::size_t>(e)]);
      if (values.empty()) continue;
      if (!b) b.emplace(g_, v);
      if (std::isfinite(b->log_density(e))) continue;
      draw_conditional(*b, g_.values_[static_cast<std::size_t>(v)].data[static_cast<std::size_t>(e)], e, values, rng);
      changed = true;
    }
  }
  if (changed) g_.update_derived();
  return changed;
}

}  // namespace ppl::model
