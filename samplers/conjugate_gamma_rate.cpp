// Gamma(shape, rate) prior on a rate r, with children that have r as a rate:
//   Poisson(r):        shape += y,     rate += 1
//   Exponential(r):    shape += 1,     rate += y
//   Gamma(alpha, r):   shape += alpha, rate += y
// and the same with the rate scaled by a known c (Poisson(r * t[i]), an exposure t[i]: the
// pumps model): shape as above, rate += c or c y.
// r | children ~ Gamma(shape + sum, rate + sum).
#include <cmath>

#include "samplers/conjugate.hpp"
#include "stdlib/gamma_draw.hpp"

namespace ppl::samplers {

namespace {

void add_rate_child(std::size_t which, double y, const double* const* args, std::size_t i, double* stats) {
  // A scaled child carries its factor c as the rate argument.
  const double c = which < 3 ? 1 : (which == 5 ? args[1][i] : args[0][i]);
  if (which % 3 == 0) {  // Poisson
    stats[0] += y;
    stats[1] += c;
  } else {
    stats[0] += which % 3 == 2 ? args[0][i] : 1;  // Gamma(alpha, .) or Exponential
    stats[1] += c * y;
  }
}

}  // namespace

conjugate_pair gamma_rate_pair() {
  conjugate_pair p{"gamma_rate",
          "Gamma",
          {{"Poisson", 0}, {"Exponential", 0}, {"Gamma", 1},
           {"Poisson", 0, link::scaled}, {"Exponential", 0, link::scaled}, {"Gamma", 1, link::scaled}},
          2,
          child_of<add_rate_child>,
          [](std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t) {
            out[0] = std::exp(stdlib::log_gamma_draw(prior[0][0] + stats[0], rng)) / (prior[1][0] + stats[1]);
          },
          // r^shape e^(-rate r)
          [](const double* stats, const double* r, ppl::index_t) { return stats[0] * std::log(r[0]) - stats[1] * r[0]; },
          nullptr,
          gamma_prior_kernel,
          rows_of<add_rate_child>};
  p.prior_stats = both_arguments;
  p.q = "Gamma";
  p.posterior = totals_as_arguments;
  return p;
}

}  // namespace ppl::samplers
