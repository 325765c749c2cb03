// ChiSquare(nu): nu degrees of freedom on [0, inf), Gamma(nu / 2, rate 1 / 2); as Stan's
// chi_square and JAGS's dchisqr.
//   log p(x) = -(nu / 2) log 2 - log Gamma(nu / 2) + (nu / 2 - 1) log x - x / 2
#include <boost/math/special_functions/digamma.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec chi_square_params[] = {{"nu", scalar_kind::real, 0}};

class chi_square final : public scalar_distribution {
 public:
  std::string_view name() const override { return "ChiSquare"; }
  std::span<const param_spec> params() const override { return chi_square_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override { check_positive(name(), "degrees of freedom nu", p[0][0]); }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }

  // Every term involves nu or x: nothing to drop. At x = 0 the density is +inf, 1 / 2 or 0
  // as nu is below, at or above 2.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double half_nu = p[0][0] / 2, v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    if (g) {
      if (g->value) g->value[0] += xdivy(half_nu - 1, v) - 0.5;
      if (g->params[0])
        g->params[0][0] += 0.5 * (std::log(v) - std::numbers::ln2 - boost::math::digamma(half_nu));
    }
    return -half_nu * std::numbers::ln2 - log_gamma(half_nu) + xlogy(half_nu - 1, v) - v / 2;
  }

  // A typical value to start from: the mean, nu.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // Gamma(nu / 2, 1 / 2): P(nu / 2, x / 2) and Q(nu / 2, x / 2); nu by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double k = p[0][0] / 2;
    cdf_parts r = cdf_probabilities(gamma_p(k, x / 2), gamma_q(k, x / 2));
    if (gradient) {
      set_cdf_derivative(r, 0, 1, (k - 1) * std::log(x) - x / 2 - k * std::log(2.0) - log_gamma(k));
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  // Twice a Gamma(nu / 2, 1) draw, from its logarithm (see gamma_draw.hpp).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = 2 * std::exp(log_gamma_draw(p[0][0] / 2, rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_chi_square() { return std::make_unique<chi_square>(); }

}  // namespace ppl::stdlib
