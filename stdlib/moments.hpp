#pragma once
// A sample's mean, variance and standard deviation: the reductions `mean`, `variance` and
// `sd` (stdlib/reductions.cpp), and wherever else a sample is summarised the same way.
#include <cmath>
#include <numeric>

#include "core/tensor.hpp"

namespace ppl::stdlib {

inline double sample_mean(const double* x, index_t n) { return std::accumulate(x, x + n, 0.0) / static_cast<double>(n); }

// The sample variance (denominator n - 1), from deviations about the mean.
inline double sample_variance(const double* x, index_t n) {
  const double m = sample_mean(x, n);
  double squares = 0;
  for (index_t i = 0; i < n; ++i) squares += (x[i] - m) * (x[i] - m);
  return squares / static_cast<double>(n - 1);
}

inline double sample_sd(const double* x, index_t n) { return std::sqrt(sample_variance(x, n)); }

}  // namespace ppl::stdlib
