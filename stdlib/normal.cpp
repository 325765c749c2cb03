// Normal(mu, sigma): sigma is the standard deviation, as in Stan.
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/normal_cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec normal_params[] = {{"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class normal final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Normal"; }
  std::span<const param_spec> params() const override { return normal_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double mu = p[0][0], sigma = p[1][0], z = (x[0] - mu) / sigma;
    if (!std::isfinite(x[0])) return -INFINITY;
    double lp = -0.5 * z * z - std::log(sigma);
    if (with_constants) lp -= 0.5 * std::log(2 * std::numbers::pi);
    add_location_scale_gradient(g, z, -z, sigma, 0, 1);
    return lp;
  }
  // Rows at once: the scale's log once when the rows share it, the derivatives inline.
  double log_density_rows(const rows_params& r, std::size_t, const double* x, double* dx, index_t n, bool check) const override {
    const double constant = 0.5 * std::log(2 * std::numbers::pi);
    const index_t sm = r.step[0], ss = r.step[1];
    double* dmu = r.dp[0];
    double* dsigma = r.dp[1];
    const double shared_log = ss == 0 ? std::log(r.p[1][0]) : 0.0;
    double total = 0, dsigma_shared = 0;
    for (index_t k = 0; k < n; ++k) {
      const double mu = r.p[0][k * sm], sigma = r.p[1][k * ss];
      if (check && (!std::isfinite(mu) || !(sigma > 0) || std::isinf(sigma))) return -INFINITY;
      if (!std::isfinite(x[k])) return -INFINITY;
      const double z = (x[k] - mu) / sigma;
      total += -0.5 * z * z - (ss == 0 ? shared_log : std::log(sigma)) - constant;
      if (dx) dx[k] -= z / sigma;
      if (dmu) dmu[k * sm] += z / sigma;
      if (dsigma) {
        const double d = (z * z - 1) / sigma;
        if (ss == 0) dsigma_shared += d;
        else dsigma[k * ss] += d;
      }
    }
    if (dsigma && ss == 0) dsigma[0] += dsigma_shared;
    return total;
  }
  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // Phi(z) and Phi(-z), each by log_Phi, accurate far into its tail.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double sigma = p[1][0], z = (x - p[0][0]) / sigma;
    cdf_parts r = cdf_tails(log_Phi(z), log_Phi(-z));
    if (gradient) set_location_scale_derivatives(r, log_normal_density(z), z, sigma, 1, 2);
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::normal_distribution<double>(p[0][0], p[1][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_normal() { return std::make_unique<normal>(); }

}  // namespace ppl::stdlib
