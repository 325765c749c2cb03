#pragma once
// Unconstraining transforms for continuous scalars: samplers move y on the real line and
// the variable is x = f(y); the target density gains log |dx/dy| (the Jacobian). A chain's
// start jitters a typical value on this scale too (model/graph_start.cpp).
//   (-inf, inf): x = y          [a, inf): x = a + exp(y)
//   (-inf, b]:   x = b - exp(y) [a, b]:   x = a + (b - a) inv_logit(y)
#include <cmath>
#include <vector>

#include "stdlib/distribution.hpp"

namespace ppl::stdlib {

class transform {
 public:
  explicit transform(const stdlib::support& s) : lo_(s.lower), hi_(s.upper) {}

  double to_unconstrained(double x) const {
    if (has_lo() && has_hi()) return std::log((x - lo_) / (hi_ - x));
    if (has_lo()) return std::log(x - lo_);
    if (has_hi()) return std::log(hi_ - x);
    return x;
  }
  double to_constrained(double y) const {
    if (has_lo() && has_hi()) return lo_ + (hi_ - lo_) / (1 + std::exp(-y));
    if (has_lo()) return lo_ + std::exp(y);
    if (has_hi()) return hi_ - std::exp(y);
    return y;
  }
  double log_jacobian(double y) const {
    if (has_lo() && has_hi()) return std::log(hi_ - lo_) - std::log1p(std::exp(-y)) - std::log1p(std::exp(y));
    if (has_lo() || has_hi()) return y;
    return 0;
  }
  // dx/dy, and the derivative of log |dx/dy| in y (for gradient-based samplers).
  double derivative(double y) const {
    if (has_lo() && has_hi()) {
      const double z = 1 / (1 + std::exp(-y));
      return (hi_ - lo_) * z * (1 - z);
    }
    if (has_lo()) return std::exp(y);
    if (has_hi()) return -std::exp(y);
    return 1;
  }
  double log_jacobian_derivative(double y) const {
    if (has_lo() && has_hi()) return 1 - 2 / (1 + std::exp(-y));
    if (has_lo() || has_hi()) return 1;
    return 0;
  }
  // All four of the above at y, each exponential computed once (the same values as the
  // four calls): what a gradient-based sampler needs at every step.
  struct at_point {
    double x, log_jacobian, derivative, log_jacobian_derivative;
  };
  double lower() const { return lo_; }
  double upper() const { return hi_; }
  at_point evaluate(double y) const {
    if (has_lo() && has_hi()) {
      const double e = std::exp(-y), z = 1 / (1 + e);
      return {lo_ + (hi_ - lo_) / (1 + e), std::log(hi_ - lo_) - std::log1p(e) - std::log1p(std::exp(y)), (hi_ - lo_) * z * (1 - z),
              1 - 2 / (1 + e)};
    }
    if (has_lo()) {
      const double e = std::exp(y);
      return {lo_ + e, y, e, 1};
    }
    if (has_hi()) {
      const double e = std::exp(y);
      return {hi_ - e, y, -e, 1};
    }
    return {y, 0, 1, 0};
  }

 private:
  bool has_lo() const { return std::isfinite(lo_); }
  bool has_hi() const { return std::isfinite(hi_); }
  double lo_, hi_;
};

}  // namespace ppl::stdlib

namespace ppl::stdlib {

// The stick-breaking transform of a K-simplex to R^(K-1) (as in Stan's reference manual):
// z_k = inv_logit(y_k - log(K - k)), x_k = (1 - x_1 - ... - x_(k-1)) z_k, and x_K the
// remainder; y = 0 maps to the uniform simplex.
struct simplex_transform {
  static void to_unconstrained(const double* x, std::size_t k, double* y) {
    double rest = 1;
    for (std::size_t i = 0; i + 1 < k; ++i) {
      double z = rest > 0 ? x[i] / rest : 0.5;
      z = std::min(std::max(z, 1e-300), 1 - 1e-16);
      y[i] = std::log(z / (1 - z)) + std::log(static_cast<double>(k - i - 1));
      rest -= x[i];
    }
  }
  // Writes x and returns log |dx/dy|.
  static double to_constrained(const double* y, std::size_t k, double* x) {
    double rest = 1, log_jacobian = 0;
    for (std::size_t i = 0; i + 1 < k; ++i) {
      double u = y[i] - std::log(static_cast<double>(k - i - 1));
      double z = 1 / (1 + std::exp(-u));
      x[i] = rest * z;
      log_jacobian += std::log(rest) - std::log1p(std::exp(-u)) - std::log1p(std::exp(u));
      rest -= x[i];
    }
    x[k - 1] = rest;
    return log_jacobian;
  }
  // Reverse mode through to_constrained: given dL/dx (k values), adds to dy (k - 1 values)
  // the gradient in y of L(x(y)) + log |dx/dy|. With r_i the stick left before element i
  // (r_0 = 1), x_i = r_i z_i and r_(i+1) = r_i (1 - z_i), the adjoints run from the last
  // element back.
  static void backward(const double* y, std::size_t k, const double* dx, double* dy) {
    std::vector<double> work;
    backward(y, k, dx, dy, work);
  }
  // The same with the caller's working storage (2k values), kept between calls.
  static void backward(const double* y, std::size_t k, const double* dx, double* dy, std::vector<double>& work) {
    work.resize(2 * k);
    double* rest = work.data();
    double* z = rest + k;
    rest[0] = 1;
    for (std::size_t i = 0; i + 1 < k; ++i) {
      z[i] = 1 / (1 + std::exp(-(y[i] - std::log(static_cast<double>(k - i - 1)))));
      rest[i + 1] = rest[i] * (1 - z[i]);
    }
    double d_rest = dx[k - 1];  // adjoint of r_(i+1), starting with r_(k-1) = x_(k-1)
    for (std::size_t i = k - 1; i-- > 0;) {
      // d/dz_i of L and of log r_i + log z_i + log(1 - z_i), times dz/du = z (1 - z).
      dy[i] += (dx[i] - d_rest) * rest[i] * z[i] * (1 - z[i]) + 1 - 2 * z[i];
      d_rest = dx[i] * z[i] + d_rest * (1 - z[i]) + 1 / rest[i];
    }
  }
};

}  // namespace ppl::stdlib

namespace ppl::stdlib {

// The ordered transform of Stan's reference manual ("Ordered vector"): x_1 = y_1, or
// x_1 = lower + exp(y_1) above a finite bound (positive_ordered: lower = 0), and
// x_k = x_(k-1) + exp(y_k); log |dx/dy| is the sum of the exponentiated coordinates. y = 0
// is the vector 0, 1, 2, ... (lower + 1, lower + 2, ... above a bound).
struct ordered_transform {
  static void to_unconstrained(const double* x, std::size_t k, double lower, double* y) {
    for (std::size_t i = 0; i < k; ++i)
      y[i] = i > 0 ? std::log(x[i] - x[i - 1]) : std::isfinite(lower) ? std::log(x[0] - lower) : x[0];
  }
  // Writes x and returns log |dx/dy|.
  static double to_constrained(const double* y, std::size_t k, double lower, double* x) {
    if (k == 0) return 0;
    const bool bounded = std::isfinite(lower);
    x[0] = bounded ? lower + std::exp(y[0]) : y[0];
    double log_jacobian = bounded ? y[0] : 0;
    for (std::size_t i = 1; i < k; ++i) {
      x[i] = x[i - 1] + std::exp(y[i]);
      log_jacobian += y[i];
    }
    return log_jacobian;
  }
  // Adds to dy the gradient in y of L(x(y)) + log |dx/dy|, given dL/dx: every x_j with
  // j >= i moves with exp(y_i), so dy_i is the suffix sum of dx times exp(y_i), plus 1.
  static void backward(const double* y, std::size_t k, double lower, const double* dx, double* dy) {
    const bool bounded = std::isfinite(lower);
    double suffix = 0;
    for (std::size_t i = k; i-- > 0;) {
      suffix += dx[i];
      dy[i] += i == 0 && !bounded ? suffix : suffix * std::exp(y[i]) + 1;
    }
  }
};

}  // namespace ppl::stdlib
