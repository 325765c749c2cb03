#pragma once
// The standard normal distribution function Phi, its logarithm and its inverse, accurate in
// the tails: used by the functions Phi, inv_Phi and probit and by SkewNormal.
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <limits>
#include <numbers>

namespace ppl::stdlib {

// log of the standard normal density.
inline double log_normal_density(double x) { return -0.5 * x * x - 0.5 * std::log(2 * std::numbers::pi); }

// Phi(x) = erfc(-x / sqrt 2) / 2: erfc keeps its relative accuracy far into the lower
// tail, where 1 + erf(x / sqrt 2) would cancel.
inline double Phi(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

// log Phi(x). Below -30 erfc approaches underflow (at -38), so the asymptotic series
// Phi(x) = phi(x) / -x (1 - 1/x^2 + 3/x^4 - 15/x^6 + ...) is used (Abramowitz & Stegun
// 26.2.12); its first omitted term is below 2e-14 there.
inline double log_Phi(double x) {
  if (x > 0) return std::log1p(-0.5 * std::erfc(x / std::numbers::sqrt2));
  if (x > -30) return std::log(Phi(x));
  const double r = 1 / (x * x);
  const double series = 1 - r * (1 - 3 * r * (1 - 5 * r * (1 - 7 * r * (1 - 9 * r))));
  return log_normal_density(x) - std::log(-x) + std::log(series);
}

// phi(x) / Phi(x), the derivative of log Phi(x), from the logarithms so that neither
// underflows.
inline double normal_hazard_ratio(double x) { return std::exp(log_normal_density(x) - log_Phi(x)); }

// The inverse of Phi on [0, 1]: -sqrt 2 erfc^-1(2 p). The ends give -inf and +inf, where
// Boost would raise an overflow error; outside [0, 1] the result is NaN.
inline double inv_Phi(double p) {
  if (!(p >= 0 && p <= 1)) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  return -std::numbers::sqrt2 * boost::math::erfc_inv(2 * p);
}

}  // namespace ppl::stdlib
