// NegativeBinomial2(mu, phi): Stan's neg_binomial_2, the mean-dispersion form: mean mu,
// variance mu + mu^2 / phi; NegativeBinomial(phi, phi / mu). JAGS's dnegbin(p, r) is this
// with r = phi and p = phi / (mu + phi).
//   log p(k) = log Gamma(k + phi) - log Gamma(phi) - log k! + k log(mu / (mu + phi))
//              + phi log(phi / (mu + phi))
#include <boost/math/special_functions/digamma.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/poisson_draw.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec negative_binomial_2_params[] = {{"mu", scalar_kind::real, 0}, {"phi", scalar_kind::real, 0}};

// Below this count, log Gamma(k + phi) - log Gamma(phi) and its derivative in phi are sums
// over 0 <= j < k: the difference of two large log gammas cancels when phi is large (an
// error near 1e-9 at phi = 1e6, where the distribution is nearly Poisson).
constexpr double short_sum = 64;

double log_rising(double phi, double k) {
  if (k >= short_sum) return log_gamma(k + phi) - log_gamma(phi);
  double total = 0;
  for (double j = 0; j < k; ++j) total += std::log(phi + j);
  return total;
}

double d_log_rising(double phi, double k) {
  if (k >= short_sum) return boost::math::digamma(k + phi) - boost::math::digamma(phi);
  double total = 0;
  for (double j = 0; j < k; ++j) total += 1 / (phi + j);
  return total;
}

class negative_binomial_2 final : public scalar_distribution {
 public:
  std::string_view name() const override { return "NegativeBinomial2"; }
  std::span<const param_spec> params() const override { return negative_binomial_2_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_positive(name(), "mean mu", p[0][0]);
    check_positive(name(), "dispersion phi", p[1][0]);
  }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0}; }

  // phi log(phi / (mu + phi)) is written -phi log1p(mu / phi), which keeps its accuracy as
  // phi grows and the distribution approaches Poisson(mu).
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double mu = p[0][0], phi = p[1][0], k = x[0];
    if (!(k >= 0) || k != std::floor(k) || std::isinf(k)) return -INFINITY;
    const double log_total = std::log(mu + phi), log1p_ratio = std::log1p(mu / phi);
    double lp = log_rising(phi, k) + (k > 0 ? k * (std::log(mu) - log_total) : 0.0) - phi * log1p_ratio;
    // -log k! depends on the value only: a constant when the count is data.
    if (with_constants) lp -= log_factorial(k);
    if (g && g->params[0]) g->params[0][0] += k / mu - (k + phi) / (mu + phi);
    if (g && g->params[1])
      g->params[1][0] += d_log_rising(phi, k) - log1p_ratio + (mu - k) / (mu + phi);
    return lp;
  }

  bool has_cdf() const override { return true; }
  // P(X <= k) = I_q(phi, k + 1), q = phi / (mu + phi); dF/dmu is that Beta density at q
  // times dq/dmu = -phi / (mu + phi)^2; phi by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double mu = p[0][0], phi = p[1][0], k = std::floor(x);
    if (k < 0) return cdf_below();
    const double q = phi / (mu + phi);
    cdf_parts r = cdf_probabilities(ibeta(phi, k + 1, q), ibetac(phi, k + 1, q));
    if (gradient) {
      const double log_total = std::log(mu + phi);
      const double log_density = (phi - 1) * std::log(q) + k * (std::log(mu) - log_total) - log_beta_function(phi, k + 1);
      set_cdf_derivative(r, 1, -1, log_density + std::log(phi) - 2 * log_total);
      cdf_shape_difference(*this, p, x, 1, r);
    }
    return r;
  }

  // The mixture itself: a Gamma(phi, rate phi / mu) rate, then a Poisson count at that rate.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double mu = p[0][0], phi = p[1][0];
    out[0] = poisson_draw(std::exp(log_gamma_draw(phi, rng) + std::log(mu / phi)), rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_negative_binomial_2() { return std::make_unique<negative_binomial_2>(); }

}  // namespace ppl::stdlib
