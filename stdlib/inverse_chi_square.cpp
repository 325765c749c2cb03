// InverseChiSquare(nu): 1 / x ~ ChiSquare(nu); InverseGamma(nu / 2, scale 1 / 2), as Stan's
// inv_chi_square.
//   log p(x) = -(nu / 2) log 2 - log Gamma(nu / 2) - (nu / 2 + 1) log x - 1 / (2 x)
#include <algorithm>
#include <boost/math/special_functions/digamma.hpp>
#include <limits>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec inverse_chi_square_params[] = {{"nu", scalar_kind::real, 0}};

class inverse_chi_square final : public scalar_distribution {
 public:
  std::string_view name() const override { return "InverseChiSquare"; }
  std::span<const param_spec> params() const override { return inverse_chi_square_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override { check_positive(name(), "degrees of freedom nu", p[0][0]); }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }

  // Every term involves nu or x: nothing to drop. The density tends to 0 at x = 0.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double half_nu = p[0][0] / 2, v = x[0];
    if (!(v > 0) || std::isinf(v)) return -INFINITY;
    const double log_x = std::log(v);
    if (g) {
      if (g->value) g->value[0] += -(half_nu + 1) / v + 0.5 / (v * v);
      if (g->params[0]) g->params[0][0] -= 0.5 * (log_x + std::numbers::ln2 + boost::math::digamma(half_nu));
    }
    return -half_nu * std::numbers::ln2 - log_gamma(half_nu) - (half_nu + 1) * log_x - 0.5 / v;
  }

  // A typical value to start from: the mean 1 / (nu - 2), or the mode 1 / (nu + 2) where
  // nu <= 2 leaves no mean.
  bool typical(std::span<const view> p, double* out) const override {
    const double nu = p[0][0];
    out[0] = nu > 2 ? 1 / (nu - 2) : 1 / (nu + 2);
    return true;
  }

  bool has_cdf() const override { return true; }
  // 1 / x ~ Gamma(nu / 2, 1 / 2): F = Q(nu / 2, 1 / (2 x)), 1 - F = P(nu / 2, 1 / (2 x)); nu
  // by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double a = p[0][0] / 2, u = 1 / (2 * x);
    cdf_parts r = cdf_probabilities(gamma_q(a, u), gamma_p(a, u));
    if (gradient) {
      set_cdf_derivative(r, 0, 1, -a * std::log(2.0) - log_gamma(a) - (a + 1) * std::log(x) - u);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  // 1 / (2 G) for G ~ Gamma(nu / 2, 1), from log G; draws beyond the largest double become
  // that double (inf is outside the support).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double x = std::exp(-std::numbers::ln2 - log_gamma_draw(p[0][0] / 2, rng));
    out[0] = std::min(x, std::numeric_limits<double>::max());
  }
};

}  // namespace

std::unique_ptr<distribution> make_inverse_chi_square() { return std::make_unique<inverse_chi_square>(); }

}  // namespace ppl::stdlib
