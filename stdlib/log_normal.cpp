// LogNormal(mu, sigma): log x ~ Normal(mu, sigma).
#include <boost/random/lognormal_distribution.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/normal_cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec log_normal_params[] = {{"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class log_normal final : public scalar_distribution {
 public:
  std::string_view name() const override { return "LogNormal"; }
  std::span<const param_spec> params() const override { return log_normal_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double mu = p[0][0], sigma = p[1][0], v = x[0];
    if (!(v > 0) || std::isinf(v)) return -INFINITY;
    double z = (std::log(v) - mu) / sigma;
    double lp = -0.5 * z * z - std::log(sigma) - std::log(v);
    if (with_constants) lp -= 0.5 * std::log(2 * std::numbers::pi);
    if (g) {
      if (g->value) g->value[0] += -1 / v - z / (sigma * v);
      if (g->params[0]) g->params[0][0] += z / sigma;
      if (g->params[1]) g->params[1][0] += (z * z - 1) / sigma;
    }
    return lp;
  }
  // A typical value to start from: the median.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = std::exp(p[0][0]);
    return true;
  }

  bool has_cdf() const override { return true; }
  // Phi(z) and Phi(-z) of z = (log x - mu) / sigma; dF/dx has the extra 1 / x.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double sigma = p[1][0], z = (std::log(x) - p[0][0]) / sigma;
    cdf_parts r = cdf_tails(log_Phi(z), log_Phi(-z));
    if (gradient) {
      const double log_scale = log_normal_density(z) - std::log(sigma);
      set_cdf_derivative(r, 0, 1 / x, log_scale);
      set_cdf_derivative(r, 1, -1, log_scale);
      set_cdf_derivative(r, 2, -z, log_scale);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::lognormal_distribution<double>(p[0][0], p[1][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_log_normal() { return std::make_unique<log_normal>(); }

}  // namespace ppl::stdlib
