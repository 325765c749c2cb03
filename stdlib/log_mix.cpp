// log_mix: the log density of a mixture from its components' log densities, as Stan's
//   log_mix(theta, lp1, lp2) = log(theta e^lp1 + (1 - theta) e^lp2)        (three scalars)
//   log_mix(theta, lps)      = log sum_k theta_k e^lps_k                    (two vectors)
// computed as a log_sum_exp, so that neither e^lp underflows. Weights outside [0, 1] give
// NaN, which the samplers reject, as a log of a negative number would.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

// e^(x - total), 0 when the total is -inf (every component impossible): the weight a
// component's log density has in the mixture's.
double share(double x, double total) { return std::isinf(total) ? 0.0 : std::exp(x - total); }

double log_sum_exp2(double a, double b) {
  const double m = std::max(a, b);
  if (std::isinf(m)) return m;
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// The two-component form's value and, where `partials` is given, its partial derivatives
// in theta, lp1 and lp2, from one pass: with a = log(theta) + lp1 and b = log1p(-theta) +
// lp2, the value is max(a, b) + log1p(e^-|a - b|), the components' shares of it
// pi1 = e^(a - value) and pi2 = e^(b - value) are 1 / (1 + e^-|a - b|) and its complement's
// numerator over the same, and d/dlp_k = pi_k, d/dtheta = pi1 / theta - pi2 / (1 - theta).
// Four transcendental calls where a log_sum_exp and its backward took seven. At theta 0 or 1
// the shares over theta are 0 / 0, and e^(lp_k - value) is taken as before.
double mix2(double theta, double lp1, double lp2, double* partials) {
  // A plate's rows share one theta: its two logarithms are kept from the row before.
  thread_local double last_theta = NAN, log_theta = NAN, log_other = NAN;
  if (theta != last_theta) last_theta = theta, log_theta = std::log(theta), log_other = std::log1p(-theta);
  const double a = log_theta + lp1, b = log_other + lp2, m = std::max(a, b);
  if (std::isinf(m)) {  // both components impossible, or one certain
    if (partials) partials[0] = partials[1] = partials[2] = 0;
    return m;
  }
  // log(1 + d) for d in (0, 1], added to m: its rounding, below 2.2e-16, is within the
  // sum's own for |m| >= 1, and log costs a third of log1p.
  const double d = std::exp(-std::fabs(a - b)), total = m + std::log(1 + d);
  if (!partials) return total;
  const double top = 1 / (1 + d), other = d / (1 + d);
  const double pi1 = a >= b ? top : other, pi2 = a >= b ? other : top;
  partials[0] = theta > 0 && theta < 1 ? pi1 / theta - pi2 / (1 - theta) : share(lp1, total) - share(lp2, total);
  partials[1] = pi1;
  partials[2] = pi2;
  return total;
}

class log_mix final : public function {
 public:
  std::string_view name() const override { return "log_mix"; }
  type_result result_type(std::span<const type_sig> a) const override {
    const bool scalars = a.size() == 3 && a[0].rank == 0 && a[1].rank == 0 && a[2].rank == 0;
    const bool vectors = a.size() == 2 && a[0].rank == 1 && a[1].rank == 1;
    if (!scalars && !vectors)
      return "log_mix expects three scalars, log_mix(theta, lp1, lp2), or two vectors, log_mix(theta, lps), got " +
             describe_types(a);
    return type_sig{scalar_kind::real, 0};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a.size() == 2) {
      if (a[0].size() != a[1].size())
        throw argument_error("log_mix: theta has size " + std::to_string(a[0].size()) + " but lps has size " +
                             std::to_string(a[1].size()));
      if (a[0].size() == 0) throw argument_error("log_mix needs at least 1 component, got 0");
    }
    return shape::scalar();
  }
  void eval(std::span<const view> a, double* out) const override {
    if (a.size() == 3) {
      out[0] = mix2(a[0][0], a[1][0], a[2][0], nullptr);
      return;
    }
    double total = -INFINITY;
    for (index_t k = 0; k < a[0].size(); ++k) total = log_sum_exp2(total, std::log(a[0][k]) + a[1][k]);
    out[0] = total;
  }
  // The two-component form's partials with its value (mix2), for a batch or a tape to keep.
  bool eval_partials(std::span<const view> a, double* out, double* partials) const override {
    if (a.size() != 3) return function::eval_partials(a, out, partials);
    out[0] = mix2(a[0][0], a[1][0], a[2][0], partials);
    return true;
  }
  // The two-component form's rows in one call: the same mix2 per row, without a call
  // through the interface for each. (Eigen's SIMD exp and log in two lanes, tried on
  // low_dim_gauss_mix's rows, ran no faster than glibc's scalar calls.)
  bool eval_partials_rows(std::span<const view> a, std::size_t n, double* out, double* partials) const override {
    if (a.size() != 3) return false;
    const std::size_t s0 = a[0].shape.rank != 0, s1 = a[1].shape.rank != 0, s2 = a[2].shape.rank != 0;
    for (std::size_t r = 0; r < n; ++r) out[r] = mix2(a[0].data[r * s0], a[1].data[r * s1], a[2].data[r * s2], partials + 3 * r);
    return true;
  }
  // d/d theta_k = e^(lp_k - out) and d/d lp_k = theta_k e^(lp_k - out); the two-component
  // form's from mix2 again, so that a caller adding d_out times eval_partials' partials
  // adds exactly this.
  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    const double total = out[0], g = d_out[0];
    if (a.size() == 3) {
      std::array<double, 3> p{};
      mix2(a[0][0], a[1][0], a[2][0], p.data());
      for (std::size_t i = 0; i < 3; ++i)
        if (d[i]) d[i][0] += g * p[i];
      return;
    }
    for (index_t k = 0; k < a[0].size(); ++k) {
      const double w = share(a[1][k], total);
      if (d[0]) d[0][k] += g * w;
      if (d[1]) d[1][k] += g * a[0][k] * w;
    }
  }
};

}  // namespace

std::unique_ptr<function> make_log_mix(std::string_view name) {
  expect_name(name, "log_mix");
  return std::make_unique<log_mix>();
}

}  // namespace ppl::stdlib
