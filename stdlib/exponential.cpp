// Exponential(lambda): rate lambda, mean 1 / lambda.
#include <boost/random/exponential_distribution.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec exponential_params[] = {{"lambda", scalar_kind::real, 0}};

class exponential final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Exponential"; }
  std::span<const param_spec> params() const override { return exponential_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override { check_positive(name(), "rate lambda", p[0][0]); }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    double lambda = p[0][0], v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    if (g) {
      if (g->value) g->value[0] -= lambda;
      if (g->params[0]) g->params[0][0] += 1 / lambda - v;
    }
    return std::log(lambda) - lambda * v;
  }
  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = 1 / p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // 1 - F = e^(-lambda x).
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double lambda = p[0][0], w = lambda * x;
    cdf_parts r = cdf_tails(log1m_exp_neg(w, std::log(lambda) + std::log(x)), -w);
    if (gradient) {
      set_cdf_derivative(r, 0, lambda, -w);
      set_cdf_derivative(r, 1, x, -w);
    }
    return r;
  }

  // x = w / lambda for the cumulative hazard w = -log S.
  double quantile(std::span<const view> p, double log_p, bool upper) const override {
    return (upper ? -log_p : std::exp(log_hazard_at(log_p))) / p[0][0];
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::exponential_distribution<double>(p[0][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_exponential() { return std::make_unique<exponential>(); }

}  // namespace ppl::stdlib
