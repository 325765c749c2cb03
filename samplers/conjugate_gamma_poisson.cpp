// Gamma(shape, rate) prior on a rate, Poisson or Exponential children:
// Poisson counts add to the shape and their number to the rate; Exponential waiting
// times add their number to the shape and their sum to the rate.
#include <cmath>

#include "samplers/conjugate.hpp"
#include "stdlib/gamma_draw.hpp"

namespace ppl::samplers {

conjugate_pair gamma_poisson_pair() {
  return {"gamma_poisson",
          "Gamma",
          {{"Poisson", 0}, {"Exponential", 0}},
          2,
          [](std::string_view dist, runtime::view x, std::span<const runtime::view>, double* stats) {
            bool poisson = dist == "Poisson";
            stats[0] += poisson ? x[0] : 1;
            stats[1] += poisson ? 1 : x[0];
          },
          [](std::span<const runtime::view> prior, const double* stats, runtime::rng& rng, double* out, runtime::index_t) {
            out[0] = std::exp(stdlib::log_gamma_draw(prior[0][0] + stats[0], rng)) / (prior[1][0] + stats[1]);
          }};
}

}  // namespace ppl::samplers
