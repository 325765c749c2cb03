// Normal(mu, sigma): sigma is the standard deviation, as in Stan.
#include <boost/random/normal_distribution.hpp>
#include <numbers>
#include <type_traits>

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
  // Rows at once, the derivatives inline; rows that share a scale by shared_scale_rows.
  double log_density_rows(const rows_params& r, std::size_t, const double* x, double* dx, index_t n, bool check) const override {
    const double constant = 0.5 * std::log(2 * std::numbers::pi);
    const index_t sm = r.step[0], ss = r.step[1];
    if (ss == 0) return shared_scale_rows(r, x, dx, n, check) - static_cast<double>(n) * constant;
    double *dmu = r.dp[0], *dsigma = r.dp[1];
    double total = 0;
    for (index_t k = 0; k < n; ++k) {
      const double mu = r.p[0][k * sm], sigma = r.p[1][k * ss];
      if (check && (!std::isfinite(mu) || !(sigma > 0) || std::isinf(sigma))) return -INFINITY;
      if (!std::isfinite(x[k])) return -INFINITY;
      const double z = (x[k] - mu) / sigma;
      total += -0.5 * z * z - std::log(sigma) - constant;
      if (dx) dx[k] -= z / sigma;
      if (dmu) dmu[k * sm] += z / sigma;
      if (dsigma) dsigma[k * ss] += (z * z - 1) / sigma;
    }
    return total;
  }
  // Each row apart (a log_mix's components): the same arithmetic as the rows above, one
  // row at a time, the scale's log and reciprocal once where the rows share it.
  void log_density_each(const rows_params& r, std::size_t, const double* x, index_t sx, index_t n, double* out,
                        double* partials) const override {
    const double constant = 0.5 * std::log(2 * std::numbers::pi);
    const index_t sm = r.step[0], ss = r.step[1];
    const double* mu = r.p[0];
    if (ss == 0) {
      const double sigma = r.p[1][0], inv = 1 / sigma, log_sigma = std::log(sigma);
      for (index_t k = 0; k < n; ++k) {
        const double z = (x[k * sx] - mu[k * sm]) * inv;
        double* p = partials + 3 * k;
        p[0] = -(z * inv);
        p[1] = z * inv;
        p[2] = (z * z - 1.0) * inv;
        out[k] = (-0.5 * (z * z) - log_sigma) - constant;
      }
      return;
    }
    for (index_t k = 0; k < n; ++k) {
      const double sigma = r.p[1][k * ss], z = (x[k * sx] - mu[k * sm]) / sigma;
      double* p = partials + 3 * k;
      p[0] = -(z / sigma);
      p[1] = z / sigma;
      p[2] = (z * z - 1) / sigma;
      // A scale that is not positive, or not finite, gives a value that is not.
      out[k] = sigma > 0 && std::isfinite(sigma) ? 0 + (-0.5 * z * z - std::log(sigma) - constant) : NAN;
    }
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

 private:
  // Rows that share one scale (the regression's `y ~ Normal(X * b, sigma)`): one division
  // and one log for all of them, and the sum of squares in four lanes, so the loop has no
  // division and no branch. Within rounding of the row-by-row formula, not bit for bit.
  static double shared_scale_rows(const rows_params& r, const double* x, double* dx, index_t n, bool check) {
    const double sigma = r.p[1][0];
    const double* mu = r.p[0];
    const index_t sm = r.step[0];
    if (check && (!(sigma > 0) || std::isinf(sigma))) return -INFINITY;
    const double inv = 1 / sigma;
    double* dmu = r.dp[0];
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const auto rows = [&](auto with_dx, auto with_dmu) {
      const auto row = [&](index_t k) {
        const double z = (x[k] - mu[k * sm]) * inv;
        if constexpr (decltype(with_dx)::value) dx[k] -= z * inv;
        if constexpr (decltype(with_dmu)::value) dmu[k * sm] += z * inv;
        return z * z;
      };
      index_t k = 0;
      for (; k + 4 <= n; k += 4) {
        s0 += row(k);
        s1 += row(k + 1);
        s2 += row(k + 2);
        s3 += row(k + 3);
      }
      for (; k < n; ++k) s0 += row(k);
    };
    const std::true_type yes;
    const std::false_type no;
    if (dx && dmu) rows(yes, yes);
    else if (dx) rows(yes, no);
    else if (dmu) rows(no, yes);
    else rows(no, no);
    const double squares = (s0 + s1) + (s2 + s3);
    // A value (or a checked mean) that is not finite makes the sum so: only then are the
    // rows looked at again, to return -inf for it as the row-by-row formula does (the
    // derivatives added are then meaningless, as they are after its early return).
    if (!std::isfinite(squares))
      for (index_t k = 0; k < n; ++k)
        if (!std::isfinite(x[k]) || (check && !std::isfinite(mu[k * sm]))) return -INFINITY;
    if (r.dp[1]) r.dp[1][0] += (squares - static_cast<double>(n)) * inv;
    // Rows asked for one at a time with one scale (a log_mix's components, row by row):
    // the scale's log is kept from the call before.
    thread_local double last_sigma = NAN, log_sigma = NAN;
    if (sigma != last_sigma) last_sigma = sigma, log_sigma = std::log(sigma);
    return -0.5 * squares - static_cast<double>(n) * log_sigma;
  }
};

}  // namespace

std::unique_ptr<distribution> make_normal() { return std::make_unique<normal>(); }

}  // namespace ppl::stdlib
