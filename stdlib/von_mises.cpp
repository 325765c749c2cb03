// VonMises(mu, kappa): an angle in [-pi, pi] with mean direction mu and concentration kappa
// (kappa = 0 is uniform), as Stan's von_mises. The density is periodic in x - mu, so mu may
// be any real; draws are wrapped into [-pi, pi].
//   log p(x) = kappa cos(x - mu) - log(2 pi) - log I0(kappa)
#include <algorithm>
#include <boost/math/special_functions/bessel.hpp>
#include <boost/random/uniform_01.hpp>
#include <numbers>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr double pi = std::numbers::pi;
constexpr param_spec von_mises_params[] = {{"mu", scalar_kind::real, 0}, {"kappa", scalar_kind::real, 0}};

// Beyond this concentration I0 overflows soon (near 713), so the scaled Bessel functions
// come from their asymptotic series instead.
constexpr double large_kappa = 500;

// e^-x I_nu(x) sqrt(2 pi x) for large x: sum_k (-1)^k prod_{j <= k} (4 nu^2 - (2j - 1)^2) /
// (k! (8x)^k) (Abramowitz & Stegun 9.7.1). At x >= 500 the twelfth term is below 1e-30.
double scaled_bessel_series(int nu, double x) {
  double term = 1, sum = 1;
  for (int k = 1; k <= 12; ++k) {
    const double odd = 2.0 * k - 1;
    term *= -(4.0 * nu * nu - odd * odd) / (8.0 * k * x);
    sum += term;
  }
  return sum;
}

// log(e^-kappa I0(kappa)): without the kappa, which the density's kappa cos(x - mu) would
// otherwise have to cancel (losing 1e-10 at kappa = 1e6).
double log_scaled_bessel_i0(double kappa) {
  if (kappa < large_kappa) return std::log(boost::math::cyl_bessel_i(0, kappa)) - kappa;
  return -0.5 * std::log(2 * pi * kappa) + std::log(scaled_bessel_series(0, kappa));
}

// I1(kappa) / I0(kappa), the derivative of log I0.
double bessel_ratio(double kappa) {
  if (kappa < large_kappa) return boost::math::cyl_bessel_i(1, kappa) / boost::math::cyl_bessel_i(0, kappa);
  return scaled_bessel_series(1, kappa) / scaled_bessel_series(0, kappa);
}

// x - 2 pi n for the nearest integer n: into [-pi, pi].
double wrap_angle(double x) { return std::remainder(x, 2 * pi); }

class von_mises final : public scalar_distribution {
 public:
  std::string_view name() const override { return "VonMises"; }
  std::span<const param_spec> params() const override { return von_mises_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_non_negative(name(), "concentration kappa", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_interval, -pi, pi}; }

  // The constant dropped is -log(2 pi). kappa (cos(x - mu) - 1) is written
  // -2 kappa sin^2((x - mu) / 2), which keeps its accuracy near the mode.
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double mu = p[0][0], kappa = p[1][0], v = x[0];
    if (!(v >= -pi && v <= pi)) return -INFINITY;
    const double half_sin = std::sin((v - mu) / 2);
    if (g) {
      const double s = kappa * std::sin(v - mu);
      if (g->value) g->value[0] -= s;
      if (g->params[0]) g->params[0][0] += s;
      if (g->params[1]) g->params[1][0] += std::cos(v - mu) - bessel_ratio(kappa);
    }
    return -2 * kappa * half_sin * half_sin - log_scaled_bessel_i0(kappa) - (with_constants ? std::log(2 * pi) : 0.0);
  }

  // A typical value to start from: the mean direction, as an angle in [-pi, pi].
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = wrap_angle(p[0][0]);
    return true;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = wrap_angle(p[0][0] + deviation(p[1][0], rng));
  }

 private:
  // The angle from the mean direction, by Best & Fisher (1979), "Efficient simulation of
  // the von Mises distribution", Appl. Statist. 28(2): rejection from a wrapped Cauchy
  // envelope with a squeeze. rho = (tau - sqrt(2 tau)) / (2 kappa) is computed as
  // 2 kappa / (tau + sqrt(2 tau)), which does not cancel for small kappa.
  static double deviation(double kappa, ppl::rng& rng) {
    boost::random::uniform_01<double> uniform;
    if (kappa == 0) return pi * (2 * uniform(rng) - 1);
    const double tau = 1 + std::sqrt(1 + 4 * kappa * kappa), rho = 2 * kappa / (tau + std::sqrt(2 * tau));
    const double r = (1 + rho * rho) / (2 * rho);
    double f = 0;
    while (true) {
      const double z = std::cos(pi * uniform(rng)), u = uniform(rng);
      f = std::clamp((1 + r * z) / (r + z), -1.0, 1.0);
      const double c = kappa * (r - f);
      if (c * (2 - c) > u || std::log(c / u) + 1 - c >= 0) break;
    }
    return uniform(rng) < 0.5 ? -std::acos(f) : std::acos(f);
  }
};

}  // namespace

std::unique_ptr<distribution> make_von_mises() { return std::make_unique<von_mises>(); }

}  // namespace ppl::stdlib
