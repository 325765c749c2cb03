// Binomial(n, p): the number of successes in n independent trials of probability p.
#include <boost/random/binomial_distribution.hpp>

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
    if (with_constants) lp += log_gamma(n + 1) - log_gamma(k + 1) - log_gamma(n - k + 1);
    if (g && g->params[1]) g->params[1][0] += dp;
    return lp;
  }

  void draw(std::span<const view> p, runtime::rng& rng, double* out) const override {
    const auto n = static_cast<long long>(p[0][0]);
    out[0] = static_cast<double>(boost::random::binomial_distribution<long long, double>(n, p[1][0])(rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_binomial() { return std::make_unique<binomial>(); }

}  // namespace ppl::stdlib
