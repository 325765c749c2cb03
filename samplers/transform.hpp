#pragma once
// Unconstraining transforms for continuous scalars: samplers move y on the real line and
// the variable is x = f(y); the target density gains log |dx/dy| (the Jacobian).
//   (-inf, inf): x = y          [a, inf): x = a + exp(y)
//   (-inf, b]:   x = b - exp(y) [a, b]:   x = a + (b - a) inv_logit(y)
#include <cmath>

#include "stdlib/distribution.hpp"

namespace ppl::samplers {

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

 private:
  bool has_lo() const { return std::isfinite(lo_); }
  bool has_hi() const { return std::isfinite(hi_); }
  double lo_, hi_;
};

}  // namespace ppl::samplers
