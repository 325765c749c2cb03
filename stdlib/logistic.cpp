// Logistic(mu, sigma): location mu, scale sigma (standard deviation sigma pi / sqrt(3)), as
// Stan's logistic. JAGS's dlogis(mu, tau) takes the rate tau = 1 / sigma instead.
//   log p(x) = -z - 2 log(1 + e^-z) - log sigma,  z = (x - mu) / sigma
#include <boost/random/uniform_01.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/link.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec logistic_params[] = {{"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class logistic final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Logistic"; }
  std::span<const param_spec> params() const override { return logistic_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }

  // No constant to drop. The density is symmetric in z, so it is computed at -|z|, where
  // e^-z cannot overflow; d/dz = 1 - 2 inv_logit(z), which is -tanh(z / 2).
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double mu = p[0][0], sigma = p[1][0];
    if (!std::isfinite(x[0])) return -INFINITY;
    const double z = (x[0] - mu) / sigma, a = -std::fabs(z);
    add_location_scale_gradient(g, z, -std::tanh(z / 2), sigma, 0, 1);
    return a - 2 * std::log1p(std::exp(a)) - std::log(sigma);
  }

  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // F = inv_logit(z), 1 - F = inv_logit(-z); the density is F (1 - F).
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double sigma = p[1][0], z = (x - p[0][0]) / sigma;
    cdf_parts r = cdf_tails(log_inv_logit(z), log_inv_logit(-z));
    if (gradient) set_location_scale_derivatives(r, r.log_cdf + r.log_ccdf, z, sigma, 1, 2);
    return r;
  }

  // Inversion: mu + sigma logit(u), with u in (0, 1).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    double u = 0;
    while (u == 0) u = boost::random::uniform_01<double>()(rng);
    out[0] = p[0][0] + p[1][0] * (std::log(u) - std::log1p(-u));
  }
};

}  // namespace

std::unique_ptr<distribution> make_logistic() { return std::make_unique<logistic>(); }

}  // namespace ppl::stdlib
