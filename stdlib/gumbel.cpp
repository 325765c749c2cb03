// Gumbel(mu, beta): the type I extreme value distribution, location mu and scale beta, as
// Stan's gumbel; mean mu + beta gamma (Euler's constant), standard deviation beta pi / sqrt(6).
//   log p(x) = -log beta - z - e^-z,  z = (x - mu) / beta
#include <boost/random/uniform_01.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec gumbel_params[] = {{"mu", scalar_kind::real, 0}, {"beta", scalar_kind::real, 0}};

class gumbel final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Gumbel"; }
  std::span<const param_spec> params() const override { return gumbel_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale beta", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }

  // No constant to drop; d/dz = e^-z - 1.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double mu = p[0][0], beta = p[1][0];
    if (!std::isfinite(x[0])) return -INFINITY;
    const double z = (x[0] - mu) / beta, e = std::exp(-z);
    add_location_scale_gradient(g, z, e - 1, beta, 0, 1);
    return -std::log(beta) - z - e;
  }

  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0] + p[1][0] * std::numbers::egamma;
    return true;
  }

  bool has_cdf() const override { return true; }
  // F = exp(-e^-z): log F = -e^-z, log(1 - F) = log(1 - exp(-e^-z)).
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double beta = p[1][0], z = (x - p[0][0]) / beta, w = std::exp(-z);
    cdf_parts r = cdf_tails(-w, log1m_exp_neg(w, -z));
    if (gradient) set_location_scale_derivatives(r, -z - w, z, beta, 1, 2);
    return r;
  }

  // Inversion: mu - beta log(-log u), with u in (0, 1).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    double u = 0;
    while (u == 0) u = boost::random::uniform_01<double>()(rng);
    out[0] = p[0][0] - p[1][0] * std::log(-std::log(u));
  }
};

}  // namespace

std::unique_ptr<distribution> make_gumbel() { return std::make_unique<gumbel>(); }

}  // namespace ppl::stdlib
