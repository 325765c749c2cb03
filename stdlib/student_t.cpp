// StudentT(nu, mu, sigma): location-scale Student's t with nu degrees of freedom.
#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <numbers>

#include "stdlib/cdf.hpp"
#include <boost/math/distributions/students_t.hpp>
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec student_t_params[] = {
    {"nu", scalar_kind::real, 0}, {"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class student_t final : public scalar_distribution {
 public:
  std::string_view name() const override { return "StudentT"; }
  std::span<const param_spec> params() const override { return student_t_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_positive(name(), "degrees of freedom nu", p[0][0]);
    check_finite(name(), "location mu", p[1][0]);
    check_positive(name(), "scale sigma", p[2][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double nu = p[0][0], mu = p[1][0], sigma = p[2][0];
    if (!std::isfinite(x[0])) return -INFINITY;
    double z = (x[0] - mu) / sigma, q = z * z / nu;
    double lp = log_gamma((nu + 1) / 2) - log_gamma(nu / 2) - 0.5 * std::log(nu) - std::log(sigma) -
                (nu + 1) / 2 * std::log1p(q);
    if (with_constants) lp -= 0.5 * std::log(std::numbers::pi);
    if (g) {
      add_location_scale_gradient(g, z, -(nu + 1) * z / (nu + z * z), sigma, 1, 2);
      if (g->params[0]) {
        using boost::math::digamma;
        g->params[0][0] += 0.5 * (digamma((nu + 1) / 2) - digamma(nu / 2) - 1 / nu - std::log1p(q) +
                                  (nu + 1) * q / (nu * (1 + q)));
      }
    }
    return lp;
  }
  // A typical value to start from: the location.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[1][0];
    return true;
  }

  bool has_cdf() const override { return true; }
  // Boost's Student's t, each tail on its own (complement); nu by central differences.
  cdf_parts cdf(std::span<const view> p, double x, bool gradient) const override {
    if (!std::isfinite(x)) return cdf_not_finite(x);
    const double nu = p[0][0], sigma = p[2][0], z = (x - p[1][0]) / sigma;
    const boost::math::students_t_distribution<double, cdf_detail::quiet> t(nu);
    cdf_parts r = cdf_probabilities(boost::math::cdf(t, z), boost::math::cdf(boost::math::complement(t, z)));
    if (gradient) {
      const double log_g = log_gamma((nu + 1) / 2) - log_gamma(nu / 2) - 0.5 * std::log(nu * std::numbers::pi) -
                           (nu + 1) / 2 * std::log1p(z * z / nu);
      set_location_scale_derivatives(r, log_g, z, sigma, 2, 3);
      cdf_shape_difference(*this, p, x, 0, r);
    }
    return r;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = p[1][0] + p[2][0] * boost::random::student_t_distribution<double>(p[0][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_student_t() { return std::make_unique<student_t>(); }

}  // namespace ppl::stdlib
