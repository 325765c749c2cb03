// Weibull(alpha, sigma): shape alpha and scale sigma on [0, inf), as Stan's weibull. JAGS's
// dweib(v, lambda) has shape v and lambda = sigma^-alpha.
//   log p(x) = log alpha - log sigma + (alpha - 1) log z - z^alpha,  z = x / sigma
#include <boost/random/uniform_01.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec weibull_params[] = {{"alpha", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class weibull final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Weibull"; }
  std::span<const param_spec> params() const override { return weibull_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "shape alpha", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }

  // No constant to drop. At x = 0 the density is +inf, 1 / sigma or 0 as alpha is below,
  // at or above 1 (xlogy keeps 0 log 0 at 0).
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double alpha = p[0][0], sigma = p[1][0], v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    const double z = v / sigma, log_z = std::log(z), z_alpha = std::pow(z, alpha);
    if (g) {
      if (g->value) g->value[0] += xdivy(alpha - 1, v) - alpha / sigma * std::pow(z, alpha - 1);
      // z^alpha log z tends to 0 at z = 0.
      if (g->params[0]) g->params[0][0] += 1 / alpha + log_z - (z_alpha > 0 ? z_alpha * log_z : 0.0);
      if (g->params[1]) g->params[1][0] += alpha / sigma * (z_alpha - 1);
    }
    return std::log(alpha) - std::log(sigma) + xlogy(alpha - 1, z) - z_alpha;
  }

  // A typical value to start from: the mean, sigma Gamma(1 + 1 / alpha).
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[1][0] * std::exp(log_gamma(1 + 1 / p[0][0]));
    return true;
  }

  bool has_cdf() const override { return true; }
  // 1 - F = exp(-w), w = (x / sigma)^alpha; dF = e^-w dw.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double alpha = p[0][0], sigma = p[1][0], log_z = std::log(x / sigma), w = std::exp(alpha * log_z);
    cdf_parts r = cdf_tails(log1m_exp_neg(w, alpha * log_z), -w);
    if (gradient) {
      const double log_scale = alpha * log_z - w;
      set_cdf_derivative(r, 0, alpha / x, log_scale);
      set_cdf_derivative(r, 1, log_z, log_scale);
      set_cdf_derivative(r, 2, -alpha / sigma, log_scale);
    }
    return r;
  }

  // x = sigma w^(1 / alpha) for the cumulative hazard w = -log(1 - F) = -log S.
  double quantile(std::span<const view> p, double log_p, bool upper) const override {
    const double log_w = upper ? std::log(-log_p) : log_hazard_at(log_p);
    return p[1][0] * std::exp(log_w / p[0][0]);
  }

  // Inversion: sigma (-log(1 - u))^(1 / alpha), u in [0, 1).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double e = -std::log1p(-boost::random::uniform_01<double>()(rng));
    out[0] = p[1][0] * std::pow(e, 1 / p[0][0]);
  }
};

}  // namespace

std::unique_ptr<distribution> make_weibull() { return std::make_unique<weibull>(); }

}  // namespace ppl::stdlib
