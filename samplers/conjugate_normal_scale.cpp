// Conjugate priors for the scale of Normal children y ~ Normal(mu, s), any mu:
//   Gamma(a, b) on a precision tau, with s = 1 / sqrt(tau) (or tau ^ -0.5):
//     tau | y ~ Gamma(a + n/2, b + sum (y - mu)^2 / 2)
//   InverseGamma(a, b) on a variance v, with s = sqrt(v):
//     v | y ~ InverseGamma(a + n/2, b + sum (y - mu)^2 / 2)
#include <cmath>

#include "samplers/conjugate.hpp"
#include "stdlib/gamma_draw.hpp"

namespace ppl::samplers {

namespace {

void add_square(std::size_t, runtime::view x, std::span<const runtime::view> args, double* stats) {
  double r = x[0] - args[0][0];
  stats[0] += 0.5;
  stats[1] += 0.5 * r * r;
}

}  // namespace

conjugate_pair gamma_precision_pair() {
  return {"gamma_precision", "Gamma", {{"Normal", 1, link::inverse_sqrt_of}}, 2, add_square,
          [](std::span<const runtime::view> prior, const double* stats, runtime::rng& rng, double* out, runtime::index_t) {
            out[0] = std::exp(stdlib::log_gamma_draw(prior[0][0] + stats[0], rng)) / (prior[1][0] + stats[1]);
          },
          // tau^(n/2) e^(-tau sum(r^2) / 2)
          [](const double* stats, const double* tau, runtime::index_t) { return stats[0] * std::log(tau[0]) - stats[1] * tau[0]; }};
}

conjugate_pair inverse_gamma_variance_pair() {
  return {"inverse_gamma_variance", "InverseGamma", {{"Normal", 1, link::sqrt_of}}, 2, add_square,
          [](std::span<const runtime::view> prior, const double* stats, runtime::rng& rng, double* out, runtime::index_t) {
            out[0] = (prior[1][0] + stats[1]) * std::exp(-stdlib::log_gamma_draw(prior[0][0] + stats[0], rng));
          },
          // v^(-n/2) e^(-sum(r^2) / (2 v))
          [](const double* stats, const double* v, runtime::index_t) { return -stats[0] * std::log(v[0]) - stats[1] / v[0]; }};
}

}  // namespace ppl::samplers
