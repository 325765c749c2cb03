#pragma once
// Multinomial(n, p) draws by sequential conditional binomials: count i ~ Binomial(trials
// left, p_i / mass left), the last category taking whatever is left. Used by Multinomial
// and DirichletMultinomial.
#include <algorithm>
#include <boost/random/binomial_distribution.hpp>

#include "core/random.hpp"
#include "core/tensor.hpp"

namespace ppl::stdlib {

// Writes p.size() counts summing to n; p sums to one (rounding aside).
inline void multinomial_draw(double n, ppl::view p, ppl::rng& rng, double* out) {
  auto left = static_cast<long long>(n);
  double mass = 1;
  for (ppl::index_t i = 0; i < p.size(); ++i) {
    long long c = left;
    if (i + 1 < p.size() && left > 0) {
      const double share = mass > 0 ? std::clamp(p[i] / mass, 0.0, 1.0) : 1.0;
      c = boost::random::binomial_distribution<long long, double>(left, share)(rng);
    }
    out[i] = static_cast<double>(c);
    left -= c;
    mass -= p[i];
  }
}

}  // namespace ppl::stdlib
