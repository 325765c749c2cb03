// Binomial(n, p): the number of successes in n independent trials of probability p.
#include <boost/random/binomial_distribution.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec binomial_params[] = {{"n", scalar_kind::integer, 0}, {"p", scalar_kind::real, 0}};

class binomial final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Binomial"; }
  std::span<const param_spec> params() const override { return binomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_count(name(), "number of trials n", p[0][0]);
    check_probability(name(), "probability p", p[1][0]);
  }

  bool support_moves() const override { return true; }
  bool support_reads(std::size_t param) const override { return param == 0; }  // n
  support value_support(std::span<const view> p) const override {
    return {support_kind::integer_interval, 0, p[0][0]};
  }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double n = p[0][0], q = p[1][0], k = x[0];
    if (!(k >= 0 && k <= n) || k != std::floor(k)) return -INFINITY;
    // Terms with a zero count are left out rather than computed as 0 * log 0 (NaN), so
    // that p = 0 and p = 1 give the point masses at 0 and n, with finite gradients.
    double lp = 0, dp = 0;
    if (k > 0) lp += k * std::log(q), dp += k / q;
    if (n - k > 0) lp += (n - k) * std::log1p(-q), dp -= (n - k) / (1 - q);
    // The binomial coefficient depends only on the integers n and k.
    if (with_constants) lp += log_factorial(n) - log_factorial(k) - log_factorial(n - k);
    if (g && g->params[1]) g->params[1][0] += dp;
    return lp;
  }

  bool has_cdf() const override { return true; }
  // P(X <= k) = 1 - I_p(k + 1, n - k), P(X > k) = I_p(k + 1, n - k); dF/dp is minus
  // that Beta density at p. n is an integer: no derivative.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double n = p[0][0], prob = p[1][0], k = std::floor(x);
    if (k < 0) return cdf_below();
    if (k >= n || prob == 0) return cdf_above();
    if (prob == 1) return cdf_below();
    cdf_parts r = cdf_probabilities(ibetac(k + 1, n - k, prob), ibeta(k + 1, n - k, prob));
    if (gradient)
      set_cdf_derivative(r, 2, -1, k * std::log(prob) + (n - k - 1) * std::log1p(-prob) - log_beta_function(k + 1, n - k));
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const auto n = static_cast<long long>(p[0][0]);
    out[0] = static_cast<double>(boost::random::binomial_distribution<long long, double>(n, p[1][0])(rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_binomial() { return std::make_unique<binomial>(); }

}  // namespace ppl::stdlib
