#pragma once
// Parameter checks shared by the distributions, and the few density terms they share.
// Messages name the distribution and the argument: "Normal: scale sigma is -1; it must be
// positive".
#include <cmath>
#include <sstream>
#include <string>

#include "stdlib/distribution.hpp"

namespace ppl::stdlib {

inline std::string format_number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

[[noreturn]] inline void parameter_fail(std::string_view dist, std::string_view what, double x, std::string_view rule) {
  throw parameter_error(std::string(dist) + ": " + std::string(what) + " is " + format_number(x) + "; it must be " +
                        std::string(rule));
}

inline void check_not_nan(std::string_view dist, std::string_view what, double x) {
  if (std::isnan(x)) parameter_fail(dist, what, x, "a number");
}
inline void check_finite(std::string_view dist, std::string_view what, double x) {
  if (!std::isfinite(x)) parameter_fail(dist, what, x, "finite");
}
inline void check_positive(std::string_view dist, std::string_view what, double x) {
  if (!(x > 0) || std::isinf(x)) parameter_fail(dist, what, x, "positive and finite");
}
inline void check_probability(std::string_view dist, std::string_view what, double x) {
  if (!(x >= 0 && x <= 1)) parameter_fail(dist, what, x, "in [0, 1]");
}
// Whether check_count accepts x, for kernels that refuse rows without an exception.
inline bool valid_count(double x) { return x >= 0 && x == std::floor(x) && !std::isinf(x) && x <= 0x1p53; }
inline void check_count(std::string_view dist, std::string_view what, double x) {
  if (valid_count(x)) return;
  if (!(x >= 0) || x != std::floor(x) || std::isinf(x)) parameter_fail(dist, what, x, "a non-negative integer");
  // Doubles are exact integers up to 2^53, and a draw converts the count to an integer.
  if (x > 0x1p53) parameter_fail(dist, what, x, "at most 2^53");
}
// Non-negative entries summing to one within a relative 1e-8.
inline void check_simplex(std::string_view dist, std::string_view what, const view& p) {
  double sum = 0;
  for (double x : p) {
    if (!(x >= 0) || std::isinf(x))
      throw parameter_error(std::string(dist) + ": " + std::string(what) + " has an entry " + format_number(x) +
                            "; entries must be non-negative");
    sum += x;
  }
  if (p.size() == 0) throw parameter_error(std::string(dist) + ": " + std::string(what) + " is empty");
  if (std::fabs(sum - 1) > 1e-8)
    throw parameter_error(std::string(dist) + ": " + std::string(what) + " does not sum to 1 (sum " + format_number(sum) + ")");
}

// The ones and zeros among n outcomes of a Bernoulli plate; false if any is neither.
// Whether x holds `size` whole non-negative counts summing to `total` (a Multinomial's or a
// Dirichlet-Multinomial's value).
inline bool counts_summing_to(view x, index_t size, double total) {
  if (x.size() != size) return false;
  double sum = 0;
  for (double v : x) {
    if (!(v >= 0) || v != std::floor(v)) return false;
    sum += v;
  }
  return sum == total;
}

inline bool count_binary(const double* values, index_t n, double& ones, double& zeros) {
  ones = zeros = 0;
  for (index_t i = 0; i < n; ++i) {
    ones += values[i] == 1;
    zeros += values[i] == 0;
  }
  return ones + zeros == static_cast<double>(n);
}

// Gradients of a location-scale density lp(x) = f(z) - log sigma with z = (x - mu) / sigma,
// given dz = f'(z): the value, the location (slot mu_slot) and the scale (sigma_slot).
inline void add_location_scale_gradient(const gradient_out* g, double z, double dz, double sigma, std::size_t mu_slot,
                                        std::size_t sigma_slot) {
  if (!g) return;
  if (g->value) g->value[0] += dz / sigma;
  if (g->params[mu_slot]) g->params[mu_slot][0] -= dz / sigma;
  if (g->params[sigma_slot]) g->params[sigma_slot][0] += -1 / sigma - dz * z / sigma;
}

// c * log(x) and c * log1p(x), taken as 0 when c is 0: the density of a value on the edge
// of its support (Beta(1, b) at 0, Gamma(1, beta) at 0, a Dirichlet entry 0 with alpha 1)
// is finite, where 0 * log(0) would make it NaN.
inline double xlogy(double c, double x) { return c == 0 ? 0.0 : c * std::log(x); }
inline double xlog1py(double c, double x) { return c == 0 ? 0.0 : c * std::log1p(x); }
// c / x, 0 when c is 0: the derivative of xlogy(c, x) in x, finite on the same edges.
inline double xdivy(double c, double x) { return c == 0 ? 0.0 : c / x; }

// Zero allowed: a Poisson rate of 0 is the point mass at 0, which a model reaches with
// rates such as `exposure * mu` when an exposure is 0.
inline void check_non_negative(std::string_view dist, std::string_view what, double x) {
  if (!(x >= 0) || std::isinf(x)) parameter_fail(dist, what, x, "non-negative and finite");
}

// Base for distributions of one real or integer scalar.
class scalar_distribution : public distribution {
 public:
  int value_rank() const override { return 0; }
};

}  // namespace ppl::stdlib
