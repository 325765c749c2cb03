// NegativeBinomial(alpha, beta): a Gamma(alpha, rate beta) mixture of Poissons, mean
// alpha / beta (Stan's neg_binomial).
#include <boost/math/special_functions/digamma.hpp>
#include "stdlib/gamma_draw.hpp"
#include <boost/random/poisson_distribution.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec negative_binomial_params[] = {{"alpha", scalar_kind::real, 0}, {"beta", scalar_kind::real, 0}};

class negative_binomial final : public scalar_distribution {
 public:
  std::string_view name() const override { return "NegativeBinomial"; }
  std::span<const param_spec> params() const override { return negative_binomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "shape alpha", p[0][0]);
    check_positive(name(), "inverse scale beta", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double a = p[0][0], b = p[1][0], k = x[0];
    if (k < 0 || k != std::floor(k) || std::isinf(k)) return -INFINITY;
    double lp = std::lgamma(k + a) - std::lgamma(a) + a * std::log(b) - (a + k) * std::log1p(b);
    if (with_constants) lp -= std::lgamma(k + 1);
    if (g) {
      using boost::math::digamma;
      if (g->params[0]) g->params[0][0] += digamma(k + a) - digamma(a) + std::log(b) - std::log1p(b);
      if (g->params[1]) g->params[1][0] += a / b - (a + k) / (1 + b);
    }
    return lp;
  }
  void draw(std::span<const view> p, runtime::rng& rng, double* out) const override {
    double rate = std::exp(log_gamma_draw(p[0][0], rng)) / p[1][0];
    out[0] = rate > 0 ? static_cast<double>(boost::random::poisson_distribution<long long, double>(rate)(rng)) : 0.0;
  }
};

}  // namespace

std::unique_ptr<distribution> make_negative_binomial() { return std::make_unique<negative_binomial>(); }

}  // namespace ppl::stdlib
