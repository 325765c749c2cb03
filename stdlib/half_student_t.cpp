// HalfStudentT(nu, sigma): |x| for x ~ StudentT(nu, 0, sigma), on [0, inf); the half-t prior
// for a scale (Gelman 2006), which Stan writes as a student_t on a variable bounded below
// by 0.
//   log p(x) = log 2 + log Gamma((nu + 1) / 2) - log Gamma(nu / 2) - log(nu pi) / 2 - log sigma
//              - (nu + 1) / 2 log(1 + z^2 / nu),  z = x / sigma
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec half_student_t_params[] = {{"nu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class half_student_t final : public scalar_distribution {
 public:
  std::string_view name() const override { return "HalfStudentT"; }
  std::span<const param_spec> params() const override { return half_student_t_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "degrees of freedom nu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, 0.0}; }

  // The constants dropped are log 2 - log(pi) / 2; the gradients are StudentT's at mu = 0.
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double nu = p[0][0], sigma = p[1][0], v = x[0];
    if (!(v >= 0) || std::isinf(v)) return -INFINITY;
    const double z = v / sigma, q = z * z / nu;
    double lp = log_gamma((nu + 1) / 2) - log_gamma(nu / 2) - 0.5 * std::log(nu) - std::log(sigma) -
                (nu + 1) / 2 * std::log1p(q);
    if (with_constants) lp += std::numbers::ln2 - 0.5 * std::log(std::numbers::pi);
    if (g) {
      const double dz = -(nu + 1) * z / (nu + z * z);
      if (g->value) g->value[0] += dz / sigma;
      if (g->params[1]) g->params[1][0] += -1 / sigma - dz * z / sigma;
      if (g->params[0]) {
        using boost::math::digamma;
        g->params[0][0] += 0.5 * (digamma((nu + 1) / 2) - digamma(nu / 2) - 1 / nu - std::log1p(q) +
                                  (nu + 1) * q / (nu * (1 + q)));
      }
    }
    return lp;
  }

  // A typical value to start from: the mean 2 sigma sqrt(nu / pi) Gamma((nu + 1) / 2) /
  // (Gamma(nu / 2) (nu - 1)) where nu > 1, else the median sigma t_nu^-1(3 / 4).
  bool typical(std::span<const view> p, double* out) const override {
    const double nu = p[0][0], sigma = p[1][0];
    if (nu > 1) {
      const double log_ratio = log_gamma((nu + 1) / 2) - log_gamma(nu / 2);
      out[0] = 2 * sigma * std::sqrt(nu / std::numbers::pi) * std::exp(log_ratio) / (nu - 1);
    } else {
      out[0] = sigma * boost::math::quantile(boost::math::students_t(nu), 0.75);
    }
    return true;
  }

  bool has_cdf() const override { return true; }
  // P(|T| <= z) = I_{z^2 / (nu + z^2)}(1/2, nu/2) and P(|T| > z) = I_{nu / (nu + z^2)}(nu/2, 1/2):
  // complementary arguments, each tail direct; nu by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    if (x <= 0) return cdf_below();
    const double nu = p[0][0], sigma = p[1][0], z = x / sigma, z2 = z * z;
    cdf_parts r = cdf_probabilities(ibeta(0.5, nu / 2, z2 / (nu + z2)), ibeta(nu / 2, 0.5, nu / (nu + z2)));
    if (gradient) {
      const double log_scale = std::log(2.0) + log_gamma((nu + 1) / 2) - log_gamma(nu / 2) -
                               0.5 * std::log(nu * std::numbers::pi) - (nu + 1) / 2 * std::log1p(z2 / nu) - std::log(sigma);
      set_cdf_derivative(r, 0, 1, log_scale);
      set_cdf_derivative(r, 2, -z, log_scale);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = p[1][0] * std::fabs(boost::random::student_t_distribution<double>(p[0][0])(rng));
  }
};

}  // namespace

std::unique_ptr<distribution> make_half_student_t() { return std::make_unique<half_student_t>(); }

}  // namespace ppl::stdlib
