// VonMises(mu, kappa): log densities against the closed form with Boost.Math's I0, draws
// against cell probabilities from Gauss-Kronrod quadrature of the unnormalised density, gradients
// against finite differences (kappa across the switch to the asymptotic series at 500).
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <numbers>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_von_mises {

using namespace ppl::testing;

namespace {

const double pi = std::numbers::pi;

double density(double mu, double kappa, double x) {
  return std::exp(kappa * std::cos(x - mu)) / (2 * pi * boost::math::cyl_bessel_i(0, kappa));
}

// Dropping constants removes -log(2 pi).
density_case at(double mu, double kappa, double x) {
  return {{scalar(mu), scalar(kappa)}, scalar(x), std::log(density(mu, kappa, x)), -std::log(2 * pi)};
}

}  // namespace

TEST_CASE("VonMises: log densities, with and without constants") {
  check_log_densities(dist("VonMises"), {
                                            at(0, 1, 0), at(0, 1, 3), at(1, 0.01, -2), at(-3, 4, 3.1), at(10, 2, 0.5),
                                            at(0, 0, 1.0), at(0.5, 650, 0.5), at(0.5, 650, 0.45),
                                            {{scalar(0), scalar(1)}, scalar(3.2), -INFINITY},
                                            {{scalar(0), scalar(1)}, scalar(-3.2), -INFINITY},
                                            {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                        });
  // Beyond I0's overflow (near kappa = 713) the series carries on: the density at the
  // mode grows as sqrt(kappa / (2 pi)).
  const double mode = log_density(dist("VonMises"), {scalar(0), scalar(1e6)}, scalar(0));
  CHECK(mode == doctest::Approx(0.5 * std::log(1e6 / (2 * pi)) - std::log1p(1 / 8e6)).epsilon(1e-12));
}

TEST_CASE("VonMises: signature, support and invalid parameters") {
  const auto& d = dist("VonMises");
  check_real_signature(d, {{"mu", 0}, {"kappa", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, -pi, pi);
  check_invalid(d, {
                       {{scalar(NAN), scalar(1)}, "VonMises: location mu is nan; it must be finite"},
                       {{scalar(0), scalar(-1)}, "VonMises: concentration kappa is -1; it must be non-negative and finite"},
                       {{scalar(0), scalar(INFINITY)}, "VonMises: concentration kappa is inf"},
                   });
}

TEST_CASE("VonMises: draws follow the distribution") {
  const auto& d = dist("VonMises");
  constexpr int cells = 24;
  for (auto [mu, kappa] : {std::pair{0.0, 1.0}, {2.5, 8.0}, {-3.0, 0.2}, {7.0, 0.0}, {1.0, 1e-7}, {0.0, 900.0}}) {
    INFO("mu = ", mu, ", kappa = ", kappa);
    // Cell masses by quadrature of the unnormalised density e^(kappa (cos(x - mu) - 1)),
    // normalised by its integral over the circle: no Bessel function involved.
    const auto unnormalised = [=](double x) { return std::exp(kappa * (std::cos(x - mu) - 1)); };
    using quadrature = boost::math::quadrature::gauss_kronrod<double, 61>;
    std::vector<double> probs;
    double total = 0;
    for (int c = 0; c < cells; ++c) {
      const double lo = -pi + 2 * pi * c / cells, hi = lo + 2 * pi / cells;
      total += probs.emplace_back(quadrature::integrate(unnormalised, lo, hi, 10, 1e-13));
    }
    for (double& p : probs) p /= total;
    auto cell_of = [](const double* x) { return std::min(cells - 1L, static_cast<long>((*x + pi) / (2 * pi) * cells)); };
    check_draws_cells(d, {scalar(mu), scalar(kappa)}, probs, cell_of);
  }
  check_draws_reproducible(d, {scalar(0), scalar(2)});
}

TEST_CASE("VonMises: gradients match finite differences") {
  const auto& d = dist("VonMises");
  for (double x : {-2.0, 0.3, 3.0}) check_gradients(d, {scalar(0.5), scalar(2)}, scalar(x));
  check_gradients(d, {scalar(0.5), scalar(499)}, scalar(0.52));
  check_gradients(d, {scalar(0.5), scalar(800)}, scalar(0.52));
}

}  // namespace test_von_mises
