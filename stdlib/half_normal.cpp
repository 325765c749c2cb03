// HalfNormal(sigma): |x| for x ~ Normal(0, sigma), on [0, inf).
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/normal_cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec half_normal_params[] = {{"sigma", scalar_kind::real, 0}};

class half_normal final : public scalar_distribution {
 public:
  std::string_view name() const override { return "HalfNormal"; }
  std::span<const param_spec> params() const override { return half_normal_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override { check_positive(name(), "scale sigma", p[0][0]); }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double sigma = p[0][0], v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    double z = v / sigma;
    double lp = -0.5 * z * z - std::log(sigma);
    if (with_constants) lp += 0.5 * std::log(2 / std::numbers::pi);
    if (g) {
      if (g->value) g->value[0] += -z / sigma;
      if (g->params[0]) g->params[0][0] += (z * z - 1) / sigma;
    }
    return lp;
  }
  // A typical value to start from: the median.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = 0.6744897501960817 * p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // F = erf(z / sqrt 2) and 1 - F = 1 - erf below z = 1; above it 1 - erfc and 2 Phi(-z).
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double sigma = p[0][0], z = x / sigma, u = z / std::numbers::sqrt2;
    cdf_parts r = z < 1 ? cdf_tails(std::log(std::erf(u)), std::log1p(-std::erf(u)))
                        : cdf_tails(std::log1p(-std::erfc(u)), std::log(2.0) + log_Phi(-z));
    if (gradient) {
      const double log_scale = std::log(2.0) + log_normal_density(z) - std::log(sigma);
      set_cdf_derivative(r, 0, 1, log_scale);
      set_cdf_derivative(r, 1, -z, log_scale);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = std::fabs(boost::random::normal_distribution<double>(0, p[0][0])(rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_half_normal() { return std::make_unique<half_normal>(); }

}  // namespace ppl::stdlib
