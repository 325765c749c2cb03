// Geometric(p): the number of failures before the first success in trials of probability p,
// 0, 1, 2, ...; mean (1 - p) / p. As R's dgeom and Boost's geometric_distribution; Stan and
// JAGS have none (JAGS users write dnegbin(p, 1), which is the same).
//   log p(k) = log p + k log(1 - p)
#include <boost/random/uniform_01.hpp>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec geometric_params[] = {{"p", scalar_kind::real, 0}};

class geometric final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Geometric"; }
  std::span<const param_spec> params() const override { return geometric_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  // p = 0 would never succeed: no distribution.
  void check(std::span<const view> p) const override {
    if (!(p[0][0] > 0 && p[0][0] <= 1)) parameter_fail(name(), "probability p", p[0][0], "in (0, 1]");
  }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0}; }

  // No constants. The failures' term is left out at k = 0, so that p = 1 gives the point
  // mass at 0 with a finite gradient.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double q = p[0][0], k = x[0];
    if (!(k >= 0) || k != std::floor(k) || std::isinf(k)) return -INFINITY;
    if (g && g->params[0]) g->params[0][0] += 1 / q - (k > 0 ? k / (1 - q) : 0.0);
    return std::log(q) + (k > 0 ? k * std::log1p(-q) : 0.0);
  }

  // Counts and one sum: n log p + (sum k) log(1 - p).
  double log_density_sum(std::span<const view> p, const double* values, index_t n) const override {
    double total = 0;
    for (index_t i = 0; i < n; ++i) {
      if (!(values[i] >= 0) || values[i] != std::floor(values[i]) || std::isinf(values[i])) return -INFINITY;
      total += values[i];
    }
    const double q = p[0][0];
    return static_cast<double>(n) * std::log(q) + (total > 0 ? total * std::log1p(-q) : 0.0);
  }

  bool has_cdf() const override { return true; }
  // P(X > k) = (1 - p)^(k + 1); dF/dp = (k + 1) (1 - p)^k.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double k = std::floor(x), prob = p[0][0];
    if (k < 0 || prob == 0) return cdf_below();
    if (prob == 1) return cdf_above();
    const double log_fail = std::log1p(-prob), w = -(k + 1) * log_fail;
    cdf_parts r = cdf_tails(log1m_exp_neg(w, std::log(k + 1) + std::log(-log_fail)), -w);
    if (gradient) set_cdf_derivative(r, 1, k + 1, k * log_fail);
    return r;
  }

  // Inversion: floor(log u / log(1 - p)) for u in (0, 1]; p = 1 gives 0.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double q = p[0][0];
    if (q == 1) {
      out[0] = 0;
      return;
    }
    const double u = 1 - boost::random::uniform_01<double>()(rng);
    out[0] = std::floor(std::log(u) / std::log1p(-q)) + 0.0;  // + 0.0: u = 1 gives -0
  }
};

}  // namespace

std::unique_ptr<distribution> make_geometric() { return std::make_unique<geometric>(); }

}  // namespace ppl::stdlib
