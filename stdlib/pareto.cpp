// Pareto(y_min, alpha): on [y_min, inf) with shape alpha, as Stan's pareto. JAGS's
// dpar(alpha, c) takes the same two in the other order.
//   log p(x) = log alpha + alpha log y_min - (alpha + 1) log x
#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <limits>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec pareto_params[] = {{"y_min", scalar_kind::real, 0}, {"alpha", scalar_kind::real, 0}};

class pareto final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Pareto"; }
  std::span<const param_spec> params() const override { return pareto_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "lower bound y_min", p[0][0]);
    check_positive(name(), "shape alpha", p[1][0]);
  }
  // The lower bound is y_min: an unknown y_min moves the support.
  bool support_moves() const override { return true; }
  support value_support(std::span<const view> p) const override { return {support_kind::real_interval, p[0][0]}; }

  // No constant to drop.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double y_min = p[0][0], alpha = p[1][0], v = x[0];
    if (!(v >= y_min) || std::isinf(v)) return -INFINITY;
    const double log_x = std::log(v), log_min = std::log(y_min);
    if (g) {
      if (g->value) g->value[0] -= (alpha + 1) / v;
      if (g->params[0]) g->params[0][0] += alpha / y_min;
      if (g->params[1]) g->params[1][0] += 1 / alpha + log_min - log_x;
    }
    return std::log(alpha) + alpha * log_min - (alpha + 1) * log_x;
  }

  // A typical value to start from: the mean alpha y_min / (alpha - 1) where alpha > 1,
  // else the median y_min 2^(1 / alpha).
  bool typical(std::span<const view> p, double* out) const override {
    const double y_min = p[0][0], alpha = p[1][0];
    out[0] = alpha > 1 ? alpha * y_min / (alpha - 1) : y_min * std::exp2(1 / alpha);
    return true;
  }

  bool has_cdf() const override { return true; }
  // 1 - F = (y_min / x)^alpha = exp(-w), w = alpha log(x / y_min).
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double y_min = p[0][0], alpha = p[1][0];
    if (x <= y_min) return cdf_below();
    const double log_ratio = std::log1p((x - y_min) / y_min), w = alpha * log_ratio;
    cdf_parts r = cdf_tails(log1m_exp_neg(w, std::log(alpha) + std::log(log_ratio)), -w);
    if (gradient) {
      set_cdf_derivative(r, 0, alpha / x, -w);
      set_cdf_derivative(r, 1, -alpha / y_min, -w);
      set_cdf_derivative(r, 2, log_ratio, -w);
    }
    return r;
  }

  // Inversion: y_min (1 - u)^(-1 / alpha), u in [0, 1). Draws beyond the largest double
  // (alpha near 0) become that double: inf is outside the support.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double e = -std::log1p(-boost::random::uniform_01<double>()(rng));
    const double x = p[0][0] * std::exp(e / p[1][0]);
    out[0] = std::min(x, std::numeric_limits<double>::max());
  }
};

}  // namespace

std::unique_ptr<distribution> make_pareto() { return std::make_unique<pareto>(); }

}  // namespace ppl::stdlib
