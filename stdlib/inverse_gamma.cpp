// InverseGamma(alpha, beta): 1 / x ~ Gamma(alpha, rate beta); beta is a scale.
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

constexpr param_spec inverse_gamma_params[] = {{"alpha", scalar_kind::real, 0}, {"beta", scalar_kind::real, 0}};

class inverse_gamma final : public scalar_distribution {
 public:
  std::string_view name() const override { return "InverseGamma"; }
  std::span<const param_spec> params() const override { return inverse_gamma_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "shape alpha", p[0][0]);
    check_positive(name(), "scale beta", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    double a = p[0][0], b = p[1][0], v = x[0];
    if (!(v > 0) || std::isinf(v)) return -INFINITY;  // the density tends to 0 at 0
    if (g) {
      if (g->value) g->value[0] += -(a + 1) / v + b / (v * v);
      if (g->params[0]) g->params[0][0] += std::log(b) - boost::math::digamma(a) - std::log(v);
      if (g->params[1]) g->params[1][0] += a / b - 1 / v;
    }
    return a * std::log(b) - log_gamma(a) - (a + 1) * std::log(v) - b / v;
  }
  // beta / Gamma(alpha, 1), from the log of the gamma. Draws beyond the largest double
  // (half the mass of the vague InverseGamma(0.001, 0.001)) become that double: inf is
  // outside the support.
  // A typical value to start from: the mean, or the mode where there is no mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0] > 1 ? p[1][0] / (p[0][0] - 1) : p[1][0] / (p[0][0] + 1);
    return true;
  }

  bool has_cdf() const override { return true; }
  // 1 / x ~ Gamma(alpha, beta): F = Q(alpha, beta / x), 1 - F = P(alpha, beta / x); alpha
  // by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double alpha = p[0][0], beta = p[1][0];
    cdf_parts r = cdf_probabilities(gamma_q(alpha, beta / x), gamma_p(alpha, beta / x));
    if (gradient) {
      const double log_f = alpha * std::log(beta) - (alpha + 1) * std::log(x) - beta / x - log_gamma(alpha);
      set_cdf_derivative(r, 0, 1, log_f);
      set_cdf_derivative(r, 2, -x / beta, log_f);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double x = std::exp(std::log(p[1][0]) - log_gamma_draw(p[0][0], rng));
    out[0] = std::min(x, std::numeric_limits<double>::max());
  }
};

}  // namespace

std::unique_ptr<distribution> make_inverse_gamma() { return std::make_unique<inverse_gamma>(); }

}  // namespace ppl::stdlib
