#pragma once
// Poisson(lambda) draws for any finite rate. Boost.Random's PTRD converts intermediate
// values to the integer type, which is undefined once they pass 2^63 (a rate such as
// exp(300) from a prior draw does); above 2^40 the count is drawn from the normal
// approximation N(lambda, lambda), rounded, whose error there (skewness 1 / sqrt(lambda)
// < 1e-6) is far below what any sample could show.
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <cmath>

#include "core/random.hpp"

namespace ppl::stdlib {

inline double poisson_draw(double lambda, ppl::rng& rng) {
  if (!(lambda > 0)) return 0;  // Boost.Random requires a positive mean; a rate of 0 gives 0
  if (lambda < 0x1p40) return static_cast<double>(boost::random::poisson_distribution<long long, double>(lambda)(rng));
  return std::max(0.0, std::round(boost::random::normal_distribution<double>(lambda, std::sqrt(lambda))(rng)));
}

}  // namespace ppl::stdlib
