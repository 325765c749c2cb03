// Beta prior on a probability, Bernoulli or Binomial children, or NegativeBinomial
// children whose inverse scale is the odds p / (1 - p) (then the pmf is proportional to
// p^alpha (1 - p)^y): p | y ~ Beta(a + successes, b + failures).
#include <boost/random/beta_distribution.hpp>
#include <cmath>

#include "samplers/conjugate.hpp"

namespace ppl::samplers {

namespace {

void add_trials_child(std::size_t which, double y, const double* const* args, std::size_t i, double* stats) {
  if (which == 2) {  // NegativeBinomial(alpha, p / (1 - p)): alpha successes, y failures
    stats[0] += args[0][i];
    stats[1] += y;
    return;
  }
  const double trials = which == 0 ? 1 : args[0][i];  // Bernoulli, or Binomial(n, .)
  stats[0] += y;
  stats[1] += trials - y;
}

}  // namespace

conjugate_pair beta_binomial_pair() {
  conjugate_pair p{"beta_binomial",
          "Beta",
          {{"Bernoulli", 0}, {"Binomial", 1}, {"NegativeBinomial", 1, link::odds}},
          2,
          child_of<add_trials_child>,
          [](std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t) {
            out[0] = boost::random::beta_distribution<double>(prior[0][0] + stats[0], prior[1][0] + stats[1])(rng);
          },
          // p^successes (1 - p)^failures
          [](const double* stats, const double* p, ppl::index_t) {
            return stats[0] * std::log(p[0]) + stats[1] * std::log1p(-p[0]);
          },
          nullptr,
          beta_prior_kernel,
          rows_of<add_trials_child>};
  // Beta(a + successes, b + failures): the prior's a and b are its natural parameters.
  p.prior_stats = both_arguments;
  p.q = "Beta";
  p.posterior = totals_as_arguments;
  return p;
}

}  // namespace ppl::samplers
