#include "stdlib/distribution.hpp"

#include <cmath>

namespace ppl::stdlib {

shape distribution::value_shape(std::span<const shape>) const { return shape::scalar(); }

double distribution::log_density_sum(std::span<const view> params, const double* values, index_t n) const {
  double total = 0;
  for (index_t i = 0; i < n; ++i) total += log_density(params, view{values + i, shape::scalar()}, true);
  return total;
}

bool distribution::in_support(std::span<const view> params, view x) const {
  const support s = value_support(params);
  for (double v : x) {
    switch (s.kind) {
      case support_kind::real_interval:
        if (!std::isfinite(v) || v < s.lower || v > s.upper) return false;
        break;
      case support_kind::integer_interval:
        if (v != std::floor(v) || v < s.lower || v > s.upper) return false;
        break;
      case support_kind::spin:
        if (v != 1.0 && v != -1.0) return false;
        break;
      case support_kind::real_vector:
        if (!std::isfinite(v)) return false;
        break;
      case support_kind::simplex:
      case support_kind::count_vector:
        return true;  // vector supports are checked by the distribution's own override
    }
  }
  return true;
}

}  // namespace ppl::stdlib
