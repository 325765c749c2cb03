#pragma once
// One draw from Dirichlet(shape), for samplers that draw a simplex from a conditional they
// computed themselves (collapsed theta and phi given the counts): the Dirichlet
// distribution's own draw (stdlib/dirichlet.cpp: normalised gammas drawn in log space, so
// that the small concentrations of topic models do not underflow).
#include <cstddef>

#include "core/random.hpp"
#include "core/tensor.hpp"
#include "stdlib/registry.hpp"

namespace ppl::samplers {

inline void dirichlet_draw(const double* shape, std::size_t n, ppl::rng& rng, double* out) {
  static const stdlib::distribution* const dirichlet = stdlib::library().find_distribution("Dirichlet");
  const ppl::view concentration{shape, ppl::shape::vector(static_cast<ppl::index_t>(n))};
  dirichlet->draw(std::span<const ppl::view>(&concentration, 1), rng, out);
}

}  // namespace ppl::samplers
