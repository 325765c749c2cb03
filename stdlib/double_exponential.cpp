// DoubleExponential(mu, sigma): the Laplace distribution, location mu and scale sigma
// (standard deviation sigma sqrt(2)), as Stan's double_exponential. JAGS's ddexp(mu, tau)
// takes the rate tau = 1 / sigma instead.
//   log p(x) = -log(2 sigma) - |x - mu| / sigma
#include <boost/random/uniform_01.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec double_exponential_params[] = {{"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class double_exponential final : public scalar_distribution {
 public:
  std::string_view name() const override { return "DoubleExponential"; }
  std::span<const param_spec> params() const override { return double_exponential_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }

  // Not differentiable at x = mu, where the gradient taken is 0 (as for abs).
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double mu = p[0][0], sigma = p[1][0];
    if (!std::isfinite(x[0])) return -INFINITY;
    const double z = (x[0] - mu) / sigma;
    add_location_scale_gradient(g, z, z > 0 ? -1.0 : (z < 0 ? 1.0 : 0.0), sigma, 0, 1);
    return -std::fabs(z) - std::log(sigma) - (with_constants ? std::numbers::ln2 : 0.0);
  }

  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // Below mu F = e^z / 2, above it 1 - F = e^-z / 2; the other tail by log1p.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double sigma = p[1][0], z = (x - p[0][0]) / sigma, half = std::log(0.5);
    const double tail = half - std::fabs(z), rest = std::log1p(-0.5 * std::exp(-std::fabs(z)));
    cdf_parts r = z < 0 ? cdf_tails(tail, rest) : cdf_tails(rest, tail);
    if (gradient) set_location_scale_derivatives(r, tail, z, sigma, 1, 2);
    return r;
  }

  // An exponential of scale sigma with a random sign; -log(1 - u) with u in [0, 1) is
  // finite.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    boost::random::uniform_01<double> uniform;
    const double e = -std::log1p(-uniform(rng));
    out[0] = p[0][0] + (uniform(rng) < 0.5 ? -e : e) * p[1][0];
  }
};

}  // namespace

std::unique_ptr<distribution> make_double_exponential() { return std::make_unique<double_exponential>(); }

}  // namespace ppl::stdlib
