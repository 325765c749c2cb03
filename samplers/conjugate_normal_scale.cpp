// Conjugate priors for the scale of Normal children y ~ Normal(mu, s), any mu:
//   Gamma(a, b) on a precision tau, with s = 1 / sqrt(tau) (or tau ^ -0.5), or with
//   s = 1 / sqrt(tau * c), c a known weight (a precision scaled per observation):
//     tau | y ~ Gamma(a + n/2, b + sum c (y - mu)^2 / 2)
//   InverseGamma(a, b) on a variance v, with s = sqrt(v), or s = sqrt(v * c):
//     v | y ~ InverseGamma(a + n/2, b + sum (y - mu)^2 / (2 c))
#include <cmath>

#include "samplers/conjugate.hpp"
#include "stdlib/gamma_draw.hpp"

namespace ppl::samplers {

namespace {

// which 0: the scale is 1 / sqrt(tau) (or sqrt(v)); which 1: 1 / sqrt(tau * c) (or
// sqrt(v * c)), c passed as the scale argument, weighting the square by c (or 1 / c).
template <bool variance>
void add_square(std::size_t which, double y, const double* const* args, std::size_t i, double* stats) {
  const double r = y - args[0][i];
  const double weight = which == 0 ? 1.0 : (variance ? 1 / args[1][i] : args[1][i]);
  stats[0] += 0.5;
  stats[1] += 0.5 * weight * r * r;
}

}  // namespace

conjugate_pair gamma_precision_pair() {
  conjugate_pair p{"gamma_precision", "Gamma", {{"Normal", 1, link::inverse_sqrt_of}, {"Normal", 1, link::inverse_sqrt_scaled}}, 2, child_of<add_square<false>>,
          [](std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t) {
            out[0] = std::exp(stdlib::log_gamma_draw(prior[0][0] + stats[0], rng)) / (prior[1][0] + stats[1]);
          },
          // tau^(n/2) e^(-tau sum(r^2) / 2)
          [](const double* stats, const double* tau, ppl::index_t) { return stats[0] * std::log(tau[0]) - stats[1] * tau[0]; },
          nullptr, gamma_prior_kernel, rows_of<add_square<false>>};
  p.prior_stats = both_arguments;
  p.q = "Gamma";
  p.posterior = totals_as_arguments;
  return p;
}

conjugate_pair inverse_gamma_variance_pair() {
  conjugate_pair p{"inverse_gamma_variance", "InverseGamma", {{"Normal", 1, link::sqrt_of}, {"Normal", 1, link::sqrt_scaled}}, 2, child_of<add_square<true>>,
          [](std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t) {
            out[0] = (prior[1][0] + stats[1]) * std::exp(-stdlib::log_gamma_draw(prior[0][0] + stats[0], rng));
          },
          // v^(-n/2) e^(-sum(r^2) / (2 v))
          [](const double* stats, const double* v, ppl::index_t) { return -stats[0] * std::log(v[0]) - stats[1] / v[0]; },
          nullptr, inverse_gamma_prior_kernel, rows_of<add_square<true>>};
  p.prior_stats = both_arguments;  // InverseGamma(shape, scale): the same two numbers
  p.q = "InverseGamma";
  p.posterior = totals_as_arguments;
  return p;
}

}  // namespace ppl::samplers
