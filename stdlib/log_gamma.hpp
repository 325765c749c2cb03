#pragma once
// log |Gamma(x)| for code that runs on several threads (every density: chains run in
// parallel). std::lgamma also writes the sign of Gamma(x) to glibc's global `signgam`,
// and concurrent writes to one global are a data race even though nothing here reads it
// (ThreadSanitizer reports them); the re-entrant lgamma_r hands the sign back instead.
#include <cmath>

namespace ppl::stdlib {

inline double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

}  // namespace ppl::stdlib
