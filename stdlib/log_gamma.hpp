#pragma once
// log |Gamma(x)| for code that runs on several threads (every density: chains run in
// parallel). std::lgamma also writes the sign of Gamma(x) to glibc's global `signgam`,
// and concurrent writes to one global are a data race even though nothing here reads it
// (ThreadSanitizer reports them); the re-entrant lgamma_r hands the sign back instead.
#include <array>
#include <cmath>
#include <cstddef>

namespace ppl::stdlib {

inline double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// log k! = log Gamma(k + 1): from a table for the counts most data hold (below 1,024,
// the same values log_gamma gives them), log_gamma for the rest. A count likelihood's
// constant is one per observation per evaluation (pumps' Poisson under NUTS: half the
// lgamma calls of a gradient).
inline double log_factorial(double k) {
  constexpr std::size_t size = 1024;
  static const std::array<double, size> table = [] {
    std::array<double, size> t{};
    for (std::size_t i = 0; i < size; ++i) t[i] = log_gamma(static_cast<double>(i) + 1);
    return t;
  }();
  if (k >= 0 && k < static_cast<double>(size)) {
    const auto i = static_cast<std::size_t>(k);
    if (static_cast<double>(i) == k) return table[i];
  }
  return log_gamma(k + 1);
}

}  // namespace ppl::stdlib
