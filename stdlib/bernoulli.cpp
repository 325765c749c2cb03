// Bernoulli(p): 1 with probability p, else 0.
#include <boost/random/bernoulli_distribution.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec bernoulli_params[] = {{"p", scalar_kind::real, 0}};

class bernoulli final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Bernoulli"; }
  std::span<const param_spec> params() const override { return bernoulli_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override { check_probability(name(), "probability p", p[0][0]); }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0, 1}; }

  // No constants to drop: the mass is p or 1 - p.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double q = p[0][0], k = x[0];
    if (k != 0 && k != 1) return -INFINITY;
    const bool one = k == 1;
    if (g && g->params[0]) g->params[0][0] += one ? 1 / q : -1 / (1 - q);
    return one ? std::log(q) : std::log1p(-q);
  }

  // A plate of outcomes: the number of ones and of zeros, and two logs.
  double log_density_sum(std::span<const view> p, const double* values, index_t n) const override {
    double ones = 0, zeros = 0;
    if (!count_binary(values, n, ones, zeros)) return -INFINITY;
    return (ones > 0 ? ones * std::log(p[0][0]) : 0) + (zeros > 0 ? zeros * std::log1p(-p[0][0]) : 0);
  }

  bool has_cdf() const override { return true; }
  // P(X <= 0) = 1 - p.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double k = std::floor(x), prob = p[0][0];
    if (k < 0) return cdf_below();
    if (k >= 1) return cdf_above();
    cdf_parts r = cdf_tails(std::log1p(-prob), std::log(prob));
    if (gradient) set_cdf_derivative(r, 1, -1, 0);
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::bernoulli_distribution<double>(p[0][0])(rng) ? 1.0 : 0.0;
  }
};

}  // namespace

std::unique_ptr<distribution> make_bernoulli() { return std::make_unique<bernoulli>(); }

}  // namespace ppl::stdlib
