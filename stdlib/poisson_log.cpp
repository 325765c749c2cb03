// PoissonLog(alpha): Poisson(exp(alpha)) on the log-rate scale, whose density k alpha -
// exp(alpha) - log k! needs no log of a rate that may have underflowed to 0 or overflowed.
// The checker writes `Poisson(exp(e))` as this.
#include <limits>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/poisson_draw.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec poisson_log_params[] = {{"alpha", scalar_kind::real, 0}};

class poisson_log final : public scalar_distribution {
 public:
  std::string_view name() const override { return "PoissonLog"; }
  std::span<const param_spec> params() const override { return poisson_log_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  // A log rate of +inf is an infinite rate; -inf is the point mass at 0.
  void check(std::span<const view> p) const override {
    if (std::isnan(p[0][0]) || p[0][0] == INFINITY) parameter_fail(name(), "log rate alpha", p[0][0], "below +inf");
  }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0}; }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double a = p[0][0], k = x[0];
    if (!(k >= 0) || k != std::floor(k) || std::isinf(k)) return -INFINITY;
    const double rate = std::exp(a);
    double lp = (k > 0 ? k * a : 0) - rate;
    if (with_constants) lp -= log_factorial(k);
    if (g && g->params[0]) g->params[0][0] += k - rate;
    return lp;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = poisson_draw(std::min(std::exp(p[0][0]), std::numeric_limits<double>::max()), rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_poisson_log() { return std::make_unique<poisson_log>(); }

}  // namespace ppl::stdlib
