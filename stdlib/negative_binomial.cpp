// NegativeBinomial(alpha, beta): Stan's neg_binomial, the Poisson whose rate is drawn from
// Gamma(shape alpha, rate beta); mean alpha / beta, variance alpha / beta^2 (beta + 1).
//   log p(k) = log Gamma(k + alpha) - log Gamma(alpha) - log k!
//              + alpha log(beta / (1 + beta)) - k log(1 + beta)
#include <boost/math/special_functions/digamma.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/poisson_draw.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec negative_binomial_params[] = {{"alpha", scalar_kind::real, 0}, {"beta", scalar_kind::real, 0}};

class negative_binomial final : public scalar_distribution {
 public:
  std::string_view name() const override { return "NegativeBinomial"; }
  std::span<const param_spec> params() const override { return negative_binomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_positive(name(), "shape alpha", p[0][0]);
    check_positive(name(), "inverse scale beta", p[1][0]);
  }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0}; }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double a = p[0][0], b = p[1][0], k = x[0];
    if (!(k >= 0) || k != std::floor(k) || std::isinf(k)) return -INFINITY;
    const double log_odds = std::log(b) - std::log1p(b);  // log(beta / (1 + beta))
    double lp = log_gamma(k + a) - log_gamma(a) + a * log_odds - k * std::log1p(b);
    // -log k! depends on the value only: a constant when the count is data.
    if (with_constants) lp -= log_factorial(k);
    if (g && g->params[0]) g->params[0][0] += boost::math::digamma(k + a) - boost::math::digamma(a) + log_odds;
    if (g && g->params[1]) g->params[1][0] += a / b - (a + k) / (1 + b);
    return lp;
  }

  bool has_cdf() const override { return true; }
  // P(X <= k) = I_q(alpha, k + 1), q = beta / (1 + beta); dF/dbeta is that Beta density
  // at q times dq/dbeta = 1 / (1 + beta)^2; alpha by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double alpha = p[0][0], beta = p[1][0], k = std::floor(x);
    if (k < 0) return cdf_below();
    const double q = beta / (1 + beta), log1p_beta = std::log1p(beta);
    cdf_parts r = cdf_probabilities(ibeta(alpha, k + 1, q), ibetac(alpha, k + 1, q));
    if (gradient) {
      const double log_density = (alpha - 1) * std::log(q) - k * log1p_beta - log_beta_function(alpha, k + 1);
      set_cdf_derivative(r, 2, 1, log_density - 2 * log1p_beta);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  // The mixture itself: a Gamma(alpha, beta) rate, then a Poisson count at that rate.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double rate = std::exp(log_gamma_draw(p[0][0], rng)) / p[1][0];
    out[0] = poisson_draw(rate, rng);  // a tiny shape can give a rate that underflows to 0; its count is 0
  }
};

}  // namespace

std::unique_ptr<distribution> make_negative_binomial() { return std::make_unique<negative_binomial>(); }

}  // namespace ppl::stdlib
