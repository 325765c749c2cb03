#pragma once
// One draw from Dirichlet(shape), for samplers that draw a simplex from a conditional they
// computed themselves (collapsed theta and phi given the counts): the Dirichlet
// distribution's own draw (stdlib/dirichlet.cpp: normalised gammas drawn in log space, so
// that the small concentrations of topic models do not underflow).
#include <cstddef>

#include "runtime/random.hpp"
#include "runtime/tensor.hpp"
#include "stdlib/registry.hpp"

namespace ppl::samplers {

inline void dirichlet_draw(const double* shape, std::size_t n, runtime::rng& rng, double* out) {
  static const stdlib::distribution* const dirichlet = stdlib::library().find_distribution("Dirichlet");
  const runtime::view concentration{shape, runtime::shape::vector(static_cast<runtime::index_t>(n))};
  dirichlet->draw(std::span<const runtime::view>(&concentration, 1), rng, out);
}

}  // namespace ppl::samplers
