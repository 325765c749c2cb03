// HalfCauchy(sigma): |x| for x ~ Cauchy(0, sigma), on [0, inf); the weakly informative
// prior for a scale (Gelman 2006), as in the eight-schools model.
#include <boost/random/uniform_01.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec half_cauchy_params[] = {{"sigma", scalar_kind::real, 0}};

class half_cauchy final : public scalar_distribution {
 public:
  std::string_view name() const override { return "HalfCauchy"; }
  std::span<const param_spec> params() const override { return half_cauchy_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override { check_positive(name(), "scale sigma", p[0][0]); }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double sigma = p[0][0], v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    const double z = v / sigma, q = 1 + z * z;
    double lp = -std::log(sigma) - std::log1p(z * z);
    if (with_constants) lp += std::log(2 / std::numbers::pi);
    if (g) {
      if (g->value) g->value[0] += -2 * z / (sigma * q);
      if (g->params[0]) g->params[0][0] += (-1 + 2 * z * z / q) / sigma;
    }
    return lp;
  }
  // A typical value to start from: the median (there is no mean).
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // F = 2 atan(z) / pi, 1 - F = 2 atan2(1, z) / pi: each exact in its own tail.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double sigma = p[0][0], z = x / sigma;
    cdf_parts r = cdf_probabilities(2 * std::atan(z) / std::numbers::pi, 2 * std::atan2(1.0, z) / std::numbers::pi);
    if (gradient) {
      const double log_scale = std::log(2.0) + log_cauchy_density(z) - std::log(sigma);
      set_cdf_derivative(r, 0, 1, log_scale);
      set_cdf_derivative(r, 1, -z, log_scale);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    // The quantile of a uniform on (0, 1): sigma tan(pi u / 2).
    const double u = boost::random::uniform_01<double>()(rng);
    out[0] = p[0][0] * std::tan(std::numbers::pi * u / 2);
  }
};

}  // namespace

std::unique_ptr<distribution> make_half_cauchy() { return std::make_unique<half_cauchy>(); }

}  // namespace ppl::stdlib
