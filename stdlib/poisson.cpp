// Poisson(lambda): counts with mean lambda. A rate of 0 is allowed (the point mass at 0).
#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/poisson_draw.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec poisson_params[] = {{"lambda", scalar_kind::real, 0}};

class poisson final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Poisson"; }
  std::span<const param_spec> params() const override { return poisson_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override { check_non_negative(name(), "rate lambda", p[0][0]); }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0}; }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double lambda = p[0][0], k = x[0];
    if (!(k >= 0) || k != std::floor(k) || std::isinf(k)) return -INFINITY;
    // k log lambda is left out at k = 0 so that lambda = 0 gives log 1, not NaN.
    double lp = (k > 0 ? k * std::log(lambda) : 0) - lambda;
    // -log k! depends on the value only: a constant when the count is data.
    if (with_constants) lp -= log_factorial(k);
    if (g && g->params[0]) g->params[0][0] += (k > 0 ? k / lambda : 0) - 1;
    return lp;
  }

  // A plate's rows at once (a Poisson regression's counts, a survival model's jumps): the
  // same arithmetic as log_density row by row, without a check's call, a view and a virtual
  // call a row; the same values bit for bit.
  double log_density_rows(const rows_params& r, std::size_t, const double* x, double*, index_t n, bool check) const override {
    const index_t step = r.step[0];
    double* dl = r.dp[0];
    double total = 0;
    for (index_t i = 0; i < n; ++i) {
      const double lambda = r.p[0][i * step], k = x[i];
      if (check && (!(lambda >= 0) || std::isinf(lambda))) return -INFINITY;
      if (!(k >= 0) || k != std::floor(k) || std::isinf(k)) return -INFINITY;
      double lp = (k > 0 ? k * std::log(lambda) : 0) - lambda;
      lp -= log_factorial(k);
      if (dl) dl[i * step] += (k > 0 ? k / lambda : 0) - 1;
      total += lp;
    }
    return total;
  }

  bool has_cdf() const override { return true; }
  // P(X <= k) = Q(k + 1, lambda), P(X > k) = P(k + 1, lambda); dF/dlambda = -p(k).
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double k = std::floor(x), lambda = p[0][0];
    if (k < 0) return cdf_below();
    if (lambda == 0) return cdf_above();
    cdf_parts r = cdf_probabilities(gamma_q(k + 1, lambda), gamma_p(k + 1, lambda));
    if (gradient) set_cdf_derivative(r, 1, -1, k * std::log(lambda) - lambda - log_factorial(k));
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = poisson_draw(p[0][0], rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_poisson() { return std::make_unique<poisson>(); }

}  // namespace ppl::stdlib
