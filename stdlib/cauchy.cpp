// Cauchy(mu, sigma): location mu, scale sigma.
#include <boost/random/cauchy_distribution.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec cauchy_params[] = {{"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class cauchy final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Cauchy"; }
  std::span<const param_spec> params() const override { return cauchy_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double mu = p[0][0], sigma = p[1][0];
    if (!std::isfinite(x[0])) return -INFINITY;
    double z = (x[0] - mu) / sigma;
    double lp = -std::log(sigma) - std::log1p(z * z);
    if (with_constants) lp -= std::log(std::numbers::pi);
    add_location_scale_gradient(g, z, -2 * z / (1 + z * z), sigma, 0, 1);
    return lp;
  }
  // A typical value to start from: the location (the median; there is no mean).
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // F = atan2(1, -z) / pi and 1 - F = atan2(1, z) / pi: each exact in its own tail.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double sigma = p[1][0], z = (x - p[0][0]) / sigma;
    cdf_parts r = cdf_probabilities(std::atan2(1.0, -z) / std::numbers::pi, std::atan2(1.0, z) / std::numbers::pi);
    if (gradient) set_location_scale_derivatives(r, log_cauchy_density(z), z, sigma, 1, 2);
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::cauchy_distribution<double>(p[0][0], p[1][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_cauchy() { return std::make_unique<cauchy>(); }

}  // namespace ppl::stdlib
