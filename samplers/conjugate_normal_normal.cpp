// Normal(m, s) prior on a mean, Normal(mean, sigma) children with any sigma, the mean
// being the variable or linear in it (a + b * x[n]; the sampler rewrites such a child as
// an observation of the variable itself, see conjugate.cpp): precisions add, and the
// posterior mean is the precision-weighted average.
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "samplers/conjugate.hpp"

namespace ppl::samplers {

namespace {

void add_mean_child(std::size_t, double y, const double* const* args, std::size_t i, double* stats) {
  const double precision = 1 / (args[1][i] * args[1][i]);
  stats[0] += y * precision;
  stats[1] += precision;
}

}  // namespace

conjugate_pair normal_normal_pair() {
  conjugate_pair p{"normal_normal",
          "Normal",
          {{"Normal", 0, link::linear}},
          2,
          child_of<add_mean_child>,
          [](std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t) {
            double prior_precision = 1 / (prior[1][0] * prior[1][0]);
            double precision = prior_precision + stats[1];
            double mean = (prior[0][0] * prior_precision + stats[0]) / precision;
            out[0] = boost::random::normal_distribution<double>(mean, 1 / std::sqrt(precision))(rng);
          },
          // exp(m sum(x p) - m^2 sum(p) / 2)
          [](const double* stats, const double* m, ppl::index_t) { return m[0] * stats[0] - 0.5 * stats[1] * m[0] * m[0]; },
          nullptr,
          normal_prior_kernel,
          rows_of<add_mean_child>};
  // Precision-weighted mean and precision: the prior's m / s^2 and 1 / s^2.
  p.prior_stats = [](std::span<const ppl::view> prior, double* stats) {
    const double precision = 1 / (prior[1][0] * prior[1][0]);
    stats[0] += prior[0][0] * precision;
    stats[1] += precision;
  };
  p.q = "Normal";
  p.posterior = [](const double* total, double* q) { q[0] = total[0] / total[1], q[1] = 1 / std::sqrt(total[1]); };
  return p;
}

}  // namespace ppl::samplers
