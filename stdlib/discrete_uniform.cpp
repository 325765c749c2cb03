// DiscreteUniform(lower, upper): each integer in lower..upper with probability
// 1 / (upper - lower + 1); Stan's discrete_range.
#include <boost/random/uniform_int_distribution.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec discrete_uniform_params[] = {{"lower", scalar_kind::integer, 0}, {"upper", scalar_kind::integer, 0}};

// An integer that a draw can convert to long long: at most 2^53 in magnitude.
void check_integer_bound(std::string_view what, double x) {
  if (x != std::floor(x) || !(std::fabs(x) <= 0x1p53)) parameter_fail("DiscreteUniform", what, x, "an integer of at most 2^53 in magnitude");
}

class discrete_uniform final : public scalar_distribution {
 public:
  std::string_view name() const override { return "DiscreteUniform"; }
  std::span<const param_spec> params() const override { return discrete_uniform_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_integer_bound("lower bound", p[0][0]);
    check_integer_bound("upper bound", p[1][0]);
    if (!(p[0][0] <= p[1][0]))
      throw parameter_error("DiscreteUniform: lower bound " + format_number(p[0][0]) + " is above upper bound " +
                            format_number(p[1][0]));
  }

  bool support_moves() const override { return true; }
  support value_support(std::span<const view> p) const override {
    return {support_kind::integer_interval, p[0][0], p[1][0]};
  }

  // No constants: the mass depends on the bounds alone, which are integers without gradients.
  double log_density(std::span<const view> p, view x, bool, const gradient_out*) const override {
    const double lower = p[0][0], upper = p[1][0], k = x[0];
    if (!(k >= lower && k <= upper) || k != std::floor(k)) return -INFINITY;
    return -std::log(upper - lower + 1);
  }

  double log_density_sum(std::span<const view> p, const double* values, index_t n) const override {
    const double lower = p[0][0], upper = p[1][0];
    for (index_t i = 0; i < n; ++i)
      if (!(values[i] >= lower && values[i] <= upper) || values[i] != std::floor(values[i])) return -INFINITY;
    return -static_cast<double>(n) * std::log(upper - lower + 1);
  }

  bool has_cdf() const override { return true; }
  // P(X <= k) = (k - lower + 1) / (upper - lower + 1); integer bounds: no derivatives.
  cdf_parts cdf(std::span<const view> p, double x, bool) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double lower = p[0][0], upper = p[1][0], k = std::floor(x);
    if (k < lower) return cdf_below();
    if (k >= upper) return cdf_above();
    const double count = upper - lower + 1;
    return cdf_probabilities((k - lower + 1) / count, (upper - k) / count);
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const auto lower = static_cast<long long>(p[0][0]), upper = static_cast<long long>(p[1][0]);
    out[0] = static_cast<double>(boost::random::uniform_int_distribution<long long>(lower, upper)(rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_discrete_uniform() { return std::make_unique<discrete_uniform>(); }

}  // namespace ppl::stdlib
