// Dirichlet(alpha) prior on a simplex, Categorical or Multinomial children:
// theta | y ~ Dirichlet(alpha + counts).
#include <cmath>

#include "samplers/conjugate.hpp"
#include "stdlib/registry.hpp"

namespace ppl::samplers {

conjugate_pair dirichlet_categorical_pair() {
  conjugate_pair p{"dirichlet_categorical",
          "Dirichlet",
          {{"Categorical", 0}, {"Multinomial", 1}},
          1,  // one count per component of the simplex
          [](std::size_t which, ppl::view x, std::span<const ppl::view>, double* stats) {
            if (which == 0) {  // Categorical
              stats[static_cast<ppl::index_t>(x[0]) - 1] += 1;
            } else {
              for (ppl::index_t k = 0; k < x.size(); ++k) stats[k] += x[k];
            }
          },
          [](std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t size) {
            std::vector<double> alpha(static_cast<std::size_t>(size));
            for (ppl::index_t k = 0; k < size; ++k) alpha[static_cast<std::size_t>(k)] = prior[0][k] + stats[k];
            ppl::view posterior{alpha.data(), ppl::shape::vector(size)};
            stdlib::library().find_distribution("Dirichlet")->draw(std::span<const ppl::view>(&posterior, 1), rng, out);
          },
          // prod theta_k^count_k
          [](const double* stats, const double* theta, ppl::index_t size) {
            double total = 0;
            for (ppl::index_t k = 0; k < size; ++k)
              if (stats[k] != 0) total += stats[k] * std::log(theta[k]);
            return total;
          }};
  // Dirichlet(alpha + counts): the prior's alpha, component by component. Its q is a
  // Dirichlet over the block (inference/cavi.cpp), not a factor per element.
  p.prior_stats = [](std::span<const ppl::view> prior, double* stats) {
    for (ppl::index_t k = 0; k < prior[0].size(); ++k) stats[k] += prior[0][k];
  };
  p.q = "Dirichlet";
  return p;
}

}  // namespace ppl::samplers
