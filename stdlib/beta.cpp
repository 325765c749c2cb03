// Beta(a, b) on [0, 1].
#include <boost/math/special_functions/digamma.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec beta_params[] = {{"a", scalar_kind::real, 0}, {"b", scalar_kind::real, 0}};

class beta final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Beta"; }
  std::span<const param_spec> params() const override { return beta_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "shape a", p[0][0]);
    check_positive(name(), "shape b", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0, 1.0}; }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    double a = p[0][0], b = p[1][0], v = x[0];
    if (!(v >= 0 && v <= 1)) return -INFINITY;
    if (g) {
      using boost::math::digamma;
      if (g->value) g->value[0] += xdivy(a - 1, v) - xdivy(b - 1, 1 - v);
      if (g->params[0]) g->params[0][0] += digamma(a + b) - digamma(a) + std::log(v);
      if (g->params[1]) g->params[1][0] += digamma(a + b) - digamma(b) + std::log1p(-v);
    }
    return log_gamma(a + b) - log_gamma(a) - log_gamma(b) + xlogy(a - 1, v) + xlog1py(b - 1, -v);
  }
  // X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b), from the log gammas: Boost.Random's beta
  // divides gammas that underflow to 0 when both shapes are near 0.01, giving 0 / 0.
  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0] / (p[0][0] + p[1][0]);
    return true;
  }

  bool has_cdf() const override { return true; }
  // I_x(a, b) and 1 - I_x(a, b), each computed directly by Boost; a and b by central
  // differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    if (x >= 1) return cdf_above();
    const double a = p[0][0], b = p[1][0];
    cdf_parts r = cdf_probabilities(ibeta(a, b, x), ibetac(a, b, x));
    if (gradient) {
      set_cdf_derivative(r, 0, 1, (a - 1) * std::log(x) + (b - 1) * std::log1p(-x) - log_beta_function(a, b));
      cdf_shape_difference(*this, p, x, 0, r);
      cdf_shape_difference(*this, p, x, 1, r);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double log_x = log_gamma_draw(p[0][0], rng);
    const double d = log_gamma_draw(p[1][0], rng) - log_x;  // log(Y / X)
    out[0] = d > 0 ? std::exp(-d) / (1 + std::exp(-d)) : 1 / (1 + std::exp(d));
  }
};

}  // namespace

std::unique_ptr<distribution> make_beta() { return std::make_unique<beta>(); }

}  // namespace ppl::stdlib
