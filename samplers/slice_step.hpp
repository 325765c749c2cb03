#pragma once
// One univariate slice-sampling update with stepping out and shrinkage (Neal 2003, "Slice
// sampling", Annals of Statistics 31(3), §4, Fig. 3 and 5), on a scale the caller chooses:
// `slice` (samplers/slice.cpp) and the moves of scalars with a Gaussian block integrated
// out (samplers/gaussian_block_companions.cpp).
#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_01.hpp>

#include "core/random.hpp"

namespace ppl::samplers {

constexpr int slice_max_steps_out = 32;
constexpr int slice_max_shrinks = 200;

// From y0, whose log density is `at_start`, with intervals of `width`: the accepted point
// (y0 when no point inside the slice is found). `log_f(y)` is the log density at y; it
// may leave the model at y, so the caller evaluates the accepted point last.
template <class LogDensity>
double slice_step(double y0, double at_start, double width, LogDensity&& log_f, ppl::rng& rng) {
  boost::random::uniform_01<double> uniform;
  const double level = at_start - boost::random::exponential_distribution<double>(1.0)(rng);
  double left = y0 - width * uniform(rng), right = left + width;
  int j = static_cast<int>(slice_max_steps_out * uniform(rng)), k = slice_max_steps_out - 1 - j;
  while (j-- > 0 && log_f(left) > level) left -= width;
  while (k-- > 0 && log_f(right) > level) right += width;
  for (int s = 0; s < slice_max_shrinks; ++s) {
    const double y = left + uniform(rng) * (right - left);
    if (log_f(y) > level) return y;
    (y < y0 ? left : right) = y;
  }
  return y0;
}

}  // namespace ppl::samplers
