#pragma once
// The unconstraining transform of a support whose elements move together (a simplex, an
// ordered vector, a covariance matrix, a correlation matrix or its Cholesky factor): one block of `size` values and its dimension()
// coordinates on the real line. What samplers (samplers/unconstrained.cpp) and a chain's
// start (model/graph_start.cpp) use for any such block; scalars have stdlib::transform.
#include <cmath>
#include <vector>

#include "stdlib/correlation_transform.hpp"
#include "stdlib/covariance_transform.hpp"
#include "stdlib/distribution.hpp"
#include "stdlib/transform.hpp"

namespace ppl::stdlib {

class block_transform {
 public:
  block_transform(const support& s, index_t size) : support_(s), size_(static_cast<std::size_t>(size)) {
    if (square(s)) side_ = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(size))));
  }

  // Whether a support is one of these (else its elements are scalars).
  static bool applies(const support& s) {
    return s.kind == support_kind::simplex || s.kind == support_kind::ordered || square(s);
  }

  index_t dimension() const {
    switch (support_.kind) {
      case support_kind::simplex: return size_ > 0 ? static_cast<index_t>(size_ - 1) : 0;
      case support_kind::covariance: return static_cast<index_t>(covariance_transform::dimension(side_));
      case support_kind::cholesky_corr:
      case support_kind::correlation: return static_cast<index_t>(cholesky_corr_transform::dimension(side_));
      default: return static_cast<index_t>(size_);
    }
  }

  void to_unconstrained(const double* x, double* y) const {
    switch (support_.kind) {
      case support_kind::simplex: return simplex_transform::to_unconstrained(x, size_, y);
      case support_kind::covariance: return covariance_transform::to_unconstrained(x, side_, y);
      case support_kind::cholesky_corr: return cholesky_corr_transform::to_unconstrained(x, side_, y);
      case support_kind::correlation: return correlation_transform::to_unconstrained(x, side_, y);
      default: return ordered_transform::to_unconstrained(x, size_, support_.lower, y);
    }
  }

  // Writes the block's values and returns log |dx/dy|.
  double to_constrained(const double* y, double* x) const {
    switch (support_.kind) {
      case support_kind::simplex: return simplex_transform::to_constrained(y, size_, x);
      case support_kind::covariance: return covariance_transform::to_constrained(y, side_, x);
      case support_kind::cholesky_corr: return cholesky_corr_transform::to_constrained(y, side_, x);
      case support_kind::correlation: return correlation_transform::to_constrained(y, side_, x);
      default: return ordered_transform::to_constrained(y, size_, support_.lower, x);
    }
  }

  // Adds to dy (dimension() values) the gradient in y of L(x(y)) + log |dx/dy|, given
  // dL/dx (size values); `work` is scratch kept by the caller.
  void backward(const double* y, const double* dx, double* dy, std::vector<double>& work) const {
    switch (support_.kind) {
      case support_kind::simplex: return simplex_transform::backward(y, size_, dx, dy, work);
      case support_kind::covariance: return covariance_transform::backward(y, side_, dx, dy);
      case support_kind::cholesky_corr: return cholesky_corr_transform::backward(y, side_, dx, dy);
      case support_kind::correlation: return correlation_transform::backward(y, side_, dx, dy);
      default: return ordered_transform::backward(y, size_, support_.lower, dx, dy);
    }
  }

  // The element (0-based, within the block) that coordinate i stands for in messages: the
  // i-th, or for a covariance matrix the i-th entry of its lower triangle read by rows,
  // for a correlation matrix or its factor the i-th entry below the diagonal.
  index_t coordinate_element(index_t i) const {
    if (support_.kind == support_kind::covariance) {
      index_t row = 0;
      while ((row + 1) * (row + 2) / 2 <= i) ++row;
      return row * static_cast<index_t>(side_) + (i - row * (row + 1) / 2);
    }
    if (!square(support_)) return i;
    index_t row = 1;  // row r holds r entries below the diagonal, r (r - 1) / 2 before it
    while ((row + 1) * row / 2 <= i) ++row;
    return row * static_cast<index_t>(side_) + (i - row * (row - 1) / 2);
  }

  const support& constraint() const { return support_; }

 private:
  // The supports of K x K matrices, whose size is K^2.
  static bool square(const support& s) {
    return s.kind == support_kind::covariance || s.kind == support_kind::cholesky_corr || s.kind == support_kind::correlation;
  }

  support support_;
  std::size_t size_, side_ = 0;
};

}  // namespace ppl::stdlib
