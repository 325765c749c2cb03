// A sum of many values at the adder's throughput: four partial sums over interleaved
// elements, added pairwise at the end. A single running total makes every add wait for
// the one before (about four cycles each); four independent ones do not. The result is
// within rounding of the sequential sum, not bit for bit.
#pragma once

#include "core/tensor.hpp"

namespace ppl {

inline double sum_in_lanes(const double* d, index_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  index_t k = 0;
  for (; k + 4 <= n; k += 4) {
    s0 += d[k];
    s1 += d[k + 1];
    s2 += d[k + 2];
    s3 += d[k + 3];
  }
  for (; k < n; ++k) s0 += d[k];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace ppl
