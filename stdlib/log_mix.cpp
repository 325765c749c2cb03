// log_mix: the log density of a mixture from its components' log densities, as Stan's
//   log_mix(theta, lp1, lp2) = log(theta e^lp1 + (1 - theta) e^lp2)        (three scalars)
//   log_mix(theta, lps)      = log sum_k theta_k e^lps_k                    (two vectors)
// computed as a log_sum_exp, so that neither e^lp underflows. Weights outside [0, 1] give
// NaN, which the samplers reject, as a log of a negative number would.
#include <algorithm>
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
      out[0] = log_sum_exp2(std::log(a[0][0]) + a[1][0], std::log1p(-a[0][0]) + a[2][0]);
      return;
    }
    double total = -INFINITY;
    for (index_t k = 0; k < a[0].size(); ++k) total = log_sum_exp2(total, std::log(a[0][k]) + a[1][k]);
    out[0] = total;
  }
  // d/d theta_k = e^(lp_k - out) and d/d lp_k = theta_k e^(lp_k - out); in the two-component
  // form theta's derivative is the difference of its two components'.
  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    const double total = out[0], g = d_out[0];
    if (a.size() == 3) {
      const double theta = a[0][0], w1 = share(a[1][0], total), w2 = share(a[2][0], total);
      if (d[0]) d[0][0] += g * (w1 - w2);
      if (d[1]) d[1][0] += g * theta * w1;
      if (d[2]) d[2][0] += g * (1 - theta) * w2;
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
