// Gamma(alpha, beta): shape alpha, rate beta (mean alpha / beta), as in Stan.
#include <boost/math/special_functions/digamma.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec gamma_params[] = {{"alpha", scalar_kind::real, 0}, {"beta", scalar_kind::real, 0}};

class gamma final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Gamma"; }
  std::span<const param_spec> params() const override { return gamma_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "shape alpha", p[0][0]);
    check_positive(name(), "rate beta", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    double a = p[0][0], b = p[1][0], v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    if (g) {
      if (g->value) g->value[0] += xdivy(a - 1, v) - b;
      if (g->params[0]) g->params[0][0] += std::log(b) - boost::math::digamma(a) + std::log(v);
      if (g->params[1]) g->params[1][0] += a / b - v;
    }
    return a * std::log(b) - log_gamma(a) + xlogy(a - 1, v) - b * v;
  }
  // A plate sharing alpha and beta (pumps' theta[i] ~ Gamma(alpha, beta)): the normalising
  // term once, then a log and a product per value.
  double log_density_sum(std::span<const view> p, const double* values, index_t n) const override {
    const double a = p[0][0], b = p[1][0];
    double logs = 0, sum = 0;
    for (index_t i = 0; i < n; ++i) {
      const double v = values[i];
      if (!(v >= 0) || std::isinf(v)) return -INFINITY;
      logs += xlogy(a - 1, v);
      sum += v;
    }
    return static_cast<double>(n) * (a * std::log(b) - log_gamma(a)) + logs - b * sum;
  }
  // A plate's rows with their gradients (pumps' theta[i] ~ Gamma(alpha, beta) under NUTS):
  // the shape's log-gamma and digamma and the rate's log once while they repeat, not once a
  // row; each row's terms as log_density has them, in its order.
  double log_density_rows(const rows_params& r, std::size_t, const double* x, double* dx, index_t n, bool check) const override {
    const index_t sa = r.step[0], sb = r.step[1];
    double *da = r.dp[0], *db = r.dp[1];
    double total = 0, last_a = NAN, last_b = NAN, log_gamma_a = 0, digamma_a = 0, log_b = 0;
    for (index_t k = 0; k < n; ++k) {
      const double a = r.p[0][k * sa], b = r.p[1][k * sb], v = x[k];
      if (check && (!(a > 0) || std::isinf(a) || !(b > 0) || std::isinf(b))) return -INFINITY;
      if (!(v >= 0) || std::isinf(v)) return -INFINITY;
      if (!(a == last_a)) {
        last_a = a;
        log_gamma_a = log_gamma(a);
        if (da) digamma_a = boost::math::digamma(a);
      }
      if (!(b == last_b)) {
        last_b = b;
        log_b = std::log(b);
      }
      if (dx) dx[k] += xdivy(a - 1, v) - b;
      if (da) da[k * sa] += log_b - digamma_a + std::log(v);
      if (db) db[k * sb] += a / b - v;
      total += a * log_b - log_gamma_a + xlogy(a - 1, v) - b * v;
    }
    return total;
  }
  // A typical value to start from: the mean: 1 for the vague Gamma(0.001, 0.001), whose draws underflow to 0.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0] / p[1][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // P(alpha, beta x) and Q(alpha, beta x), each computed directly by Boost; alpha by
  // central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double alpha = p[0][0], beta = p[1][0];
    cdf_parts r = cdf_probabilities(gamma_p(alpha, beta * x), gamma_q(alpha, beta * x));
    if (gradient) {
      const double log_f = alpha * std::log(beta) + (alpha - 1) * std::log(x) - beta * x - log_gamma(alpha);
      set_cdf_derivative(r, 0, 1, log_f);
      set_cdf_derivative(r, 2, x / beta, log_f);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = std::exp(log_gamma_draw(p[0][0], rng)) / p[1][0];
  }
};

}  // namespace

std::unique_ptr<distribution> make_gamma() { return std::make_unique<gamma>(); }

}  // namespace ppl::stdlib
