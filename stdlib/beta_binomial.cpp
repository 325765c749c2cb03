// BetaBinomial(n, alpha, beta): Binomial(n, p) with p ~ Beta(alpha, beta) integrated out,
// as Stan's beta_binomial; mean n alpha / (alpha + beta).
//   log p(k) = log C(n, k) + log B(k + alpha, n - k + beta) - log B(alpha, beta)
#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/binomial_distribution.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec beta_binomial_params[] = {
    {"n", scalar_kind::integer, 0}, {"alpha", scalar_kind::real, 0}, {"beta", scalar_kind::real, 0}};

double log_beta(double a, double b) { return log_gamma(a) + log_gamma(b) - log_gamma(a + b); }

class beta_binomial final : public scalar_distribution {
 public:
  std::string_view name() const override { return "BetaBinomial"; }
  std::span<const param_spec> params() const override { return beta_binomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_count(name(), "number of trials n", p[0][0]);
    check_positive(name(), "prior successes alpha", p[1][0]);
    check_positive(name(), "prior failures beta", p[2][0]);
  }

  bool support_moves() const override { return true; }
  support value_support(std::span<const view> p) const override { return {support_kind::integer_interval, 0, p[0][0]}; }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double n = p[0][0], a = p[1][0], b = p[2][0], k = x[0];
    if (!(k >= 0 && k <= n) || k != std::floor(k)) return -INFINITY;
    double lp = log_beta(k + a, n - k + b) - log_beta(a, b);
    // The binomial coefficient depends only on the integers n and k.
    if (with_constants) lp += log_factorial(n) - log_factorial(k) - log_factorial(n - k);
    if (g && (g->params[1] || g->params[2])) {
      using boost::math::digamma;
      const double common = digamma(a + b) - digamma(n + a + b);
      if (g->params[1]) g->params[1][0] += common + digamma(k + a) - digamma(a);
      if (g->params[2]) g->params[2][0] += common + digamma(n - k + b) - digamma(b);
    }
    return lp;
  }

  // The mixture itself: p ~ Beta(alpha, beta) from two log gammas (as Beta's draw, which
  // stays exact for small shapes), then Binomial(n, p).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double d = log_gamma_draw(p[2][0], rng) - log_gamma_draw(p[1][0], rng);  // log(Y / X)
    const double q = d > 0 ? std::exp(-d) / (1 + std::exp(-d)) : 1 / (1 + std::exp(d));
    const auto n = static_cast<long long>(p[0][0]);
    out[0] = static_cast<double>(boost::random::binomial_distribution<long long, double>(n, q)(rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_beta_binomial() { return std::make_unique<beta_binomial>(); }

}  // namespace ppl::stdlib
