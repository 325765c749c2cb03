// ScaledInverseChiSquare(nu, s): nu s^2 / x ~ ChiSquare(nu); InverseGamma(nu / 2, scale
// nu s^2 / 2), as Stan's scaled_inv_chi_square (s is a scale, not a variance).
//   log p(x) = (nu / 2) log(nu / 2) - log Gamma(nu / 2) + nu log s - (nu / 2 + 1) log x
//              - nu s^2 / (2 x)
#include <algorithm>
#include <boost/math/special_functions/digamma.hpp>
#include <limits>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec scaled_inverse_chi_square_params[] = {{"nu", scalar_kind::real, 0}, {"s", scalar_kind::real, 0}};

class scaled_inverse_chi_square final : public scalar_distribution {
 public:
  std::string_view name() const override { return "ScaledInverseChiSquare"; }
  std::span<const param_spec> params() const override { return scaled_inverse_chi_square_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "degrees of freedom nu", p[0][0]);
    check_positive(name(), "scale s", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }

  // Every term involves nu, s or x: nothing to drop. The density tends to 0 at x = 0.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double nu = p[0][0], s = p[1][0], v = x[0], half_nu = nu / 2;
    if (!(v > 0) || std::isinf(v)) return -INFINITY;
    const double log_x = std::log(v), log_s = std::log(s), s2_over_x = s * s / v;
    if (g) {
      if (g->value) g->value[0] += (-(half_nu + 1) + half_nu * s2_over_x) / v;
      if (g->params[0])
        g->params[0][0] += 0.5 * (std::log(half_nu) + 1 - boost::math::digamma(half_nu) - log_x - s2_over_x) + log_s;
      if (g->params[1]) g->params[1][0] += nu / s - nu * s / v;
    }
    return half_nu * std::log(half_nu) - log_gamma(half_nu) + nu * log_s - (half_nu + 1) * log_x - half_nu * s2_over_x;
  }

  // A typical value to start from: the mean nu s^2 / (nu - 2), or the mode nu s^2 / (nu + 2)
  // where nu <= 2 leaves no mean.
  bool typical(std::span<const view> p, double* out) const override {
    const double nu = p[0][0], s = p[1][0];
    out[0] = nu * s * s / (nu > 2 ? nu - 2 : nu + 2);
    return true;
  }

  bool has_cdf() const override { return true; }
  // InverseGamma(nu / 2, b), b = nu s^2 / 2: F = Q(nu / 2, b / x); dF/ds = dF/db nu s with
  // dF/db = -f(x) x / b; nu by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double nu = p[0][0], s = p[1][0], a = nu / 2, b = nu * s * s / 2;
    cdf_parts r = cdf_probabilities(gamma_q(a, b / x), gamma_p(a, b / x));
    if (gradient) {
      const double log_f = a * std::log(b) - log_gamma(a) - (a + 1) * std::log(x) - b / x;
      set_cdf_derivative(r, 0, 1, log_f);
      set_cdf_derivative(r, 2, -2 * x / s, log_f);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  // (nu s^2 / 2) / G for G ~ Gamma(nu / 2, 1), from log G; draws beyond the largest double
  // become that double.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double nu = p[0][0], s = p[1][0];
    const double x = std::exp(std::log(nu / 2) + 2 * std::log(s) - log_gamma_draw(nu / 2, rng));
    out[0] = std::min(x, std::numeric_limits<double>::max());
  }
};

}  // namespace

std::unique_ptr<distribution> make_scaled_inverse_chi_square() { return std::make_unique<scaled_inverse_chi_square>(); }

}  // namespace ppl::stdlib
