// Uniform(lower, upper) on [lower, upper].
#include <boost/random/uniform_real_distribution.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec uniform_params[] = {{"lower", scalar_kind::real, 0}, {"upper", scalar_kind::real, 0}};

class uniform final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Uniform"; }
  std::span<const param_spec> params() const override { return uniform_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "lower bound", p[0][0]);
    check_finite(name(), "upper bound", p[1][0]);
    if (!(p[0][0] < p[1][0]))
      throw parameter_error("Uniform: lower bound " + format_number(p[0][0]) + " is not below upper bound " + format_number(p[1][0]));
  }
  bool support_moves() const override { return true; }
  support value_support(std::span<const view> p) const override {
    return {support_kind::real_interval, p[0][0], p[1][0]};
  }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    double lo = p[0][0], hi = p[1][0];
    if (!(x[0] >= lo && x[0] <= hi)) return -INFINITY;
    if (g) {
      if (g->params[0]) g->params[0][0] += 1 / (hi - lo);
      if (g->params[1]) g->params[1][0] -= 1 / (hi - lo);
    }
    return -std::log(hi - lo);
  }
  // A typical value to start from: the midpoint.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = 0.5 * (p[0][0] + p[1][0]);
    return true;
  }

  bool has_cdf() const override { return true; }
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double lower = p[0][0], upper = p[1][0], width = upper - lower;
    if (x <= lower) return cdf_below();
    if (x >= upper) return cdf_above();
    const double log_scale = -std::log(width);
    cdf_parts r = cdf_probabilities((x - lower) / width, (upper - x) / width);
    if (gradient) {
      set_cdf_derivative(r, 0, 1, log_scale);
      set_cdf_derivative(r, 1, (x - upper) / width, log_scale);
      set_cdf_derivative(r, 2, (lower - x) / width, log_scale);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::uniform_real_distribution<double>(p[0][0], p[1][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_uniform() { return std::make_unique<uniform>(); }

}  // namespace ppl::stdlib
