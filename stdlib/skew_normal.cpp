// SkewNormal(xi, omega, alpha): location xi, scale omega and shape alpha (Azzalini 1985), as
// Stan's skew_normal; alpha = 0 is Normal(xi, omega).
//   log p(x) = log 2 - log omega + log phi(z) + log Phi(alpha z),  z = (x - xi) / omega
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/normal_cdf.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec skew_normal_params[] = {
    {"xi", scalar_kind::real, 0}, {"omega", scalar_kind::real, 0}, {"alpha", scalar_kind::real, 0}};

class skew_normal final : public scalar_distribution {
 public:
  std::string_view name() const override { return "SkewNormal"; }
  std::span<const param_spec> params() const override { return skew_normal_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location xi", p[0][0]);
    check_positive(name(), "scale omega", p[1][0]);
    check_finite(name(), "shape alpha", p[2][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }

  // The constant dropped is log 2 - log(2 pi) / 2. log Phi(alpha z) and its derivative,
  // phi / Phi, stay finite far into the lower tail (normal_cdf.hpp).
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double xi = p[0][0], omega = p[1][0], alpha = p[2][0];
    if (!std::isfinite(x[0])) return -INFINITY;
    const double z = (x[0] - xi) / omega;
    double lp = -0.5 * z * z - std::log(omega) + log_Phi(alpha * z);
    if (with_constants) lp += std::numbers::ln2 - 0.5 * std::log(2 * std::numbers::pi);
    if (g) {
      const double ratio = normal_hazard_ratio(alpha * z);
      add_location_scale_gradient(g, z, -z + alpha * ratio, omega, 0, 1);
      if (g->params[2]) g->params[2][0] += z * ratio;
    }
    return lp;
  }

  // A typical value to start from: the mean xi + omega delta sqrt(2 / pi), delta =
  // alpha / sqrt(1 + alpha^2).
  bool typical(std::span<const view> p, double* out) const override {
    const double delta = p[2][0] / std::sqrt(1 + p[2][0] * p[2][0]);
    out[0] = p[0][0] + p[1][0] * delta * std::sqrt(2 / std::numbers::pi);
    return true;
  }

  // delta |u| + sqrt(1 - delta^2) v for independent standard normals u and v has the
  // standard skew-normal distribution (Henze 1986, "A probabilistic representation of the
  // skew-normal distribution", Scand. J. Statist. 13).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double alpha = p[2][0], root = std::sqrt(1 + alpha * alpha);  // sqrt(1 - delta^2) = 1 / root
    boost::random::normal_distribution<double> normal;
    const double u = std::fabs(normal(rng)), v = normal(rng);
    out[0] = p[0][0] + p[1][0] * (alpha * u + v) / root;
  }
};

}  // namespace

std::unique_ptr<distribution> make_skew_normal() { return std::make_unique<skew_normal>(); }

}  // namespace ppl::stdlib
