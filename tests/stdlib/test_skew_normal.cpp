// SkewNormal(xi, omega, alpha) against Boost.Math's skew_normal_distribution(location,
// scale, shape).
#include <boost/math/distributions/skew_normal.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_skew_normal {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Dropping constants removes log 2 - log(2 pi) / 2.
density_case at(double xi, double omega, double alpha, double x) {
  return {{scalar(xi), scalar(omega), scalar(alpha)}, scalar(x),
          std::log(bm::pdf(bm::skew_normal_distribution<>(xi, omega, alpha), x)),
          std::numbers::ln2 - 0.5 * std::log(2 * std::numbers::pi)};
}

}  // namespace

TEST_CASE("SkewNormal: log densities, with and without constants") {
  check_log_densities(dist("SkewNormal"), {
                                              at(0, 1, 0, 0.7), at(0, 1, 4, 0.7), at(0, 1, 4, -0.7), at(1, 2, -3, 0),
                                              at(1, 2, -3, 4), at(-2, 0.5, 20, -2.3), at(0, 1, 5, -4),
                                              {{scalar(0), scalar(1), scalar(1)}, scalar(INFINITY), -INFINITY},
                                              {{scalar(0), scalar(1), scalar(1)}, scalar(NAN), -INFINITY},
                                          });
}

TEST_CASE("SkewNormal: log Phi stays accurate deep in the lower tail") {
  // At alpha z = -50, Phi underflows far below the smallest double; by the asymptotic series
  // log Phi(-50) = log phi(50) - log 50 + log(1 - 1/2500 + 3/2500^2 - ...).
  const double r = 1.0 / 2500;
  const double log_phi = -1250 - 0.5 * std::log(2 * std::numbers::pi) - std::log(50.0) + std::log(1 - r + 3 * r * r);
  const double expected = std::numbers::ln2 - 0.5 * std::log(2 * std::numbers::pi) - 0.5 * 25 + log_phi;
  CHECK(log_density(dist("SkewNormal"), {scalar(0), scalar(1), scalar(10)}, scalar(-5)) ==
        doctest::Approx(expected).epsilon(1e-12));
}

TEST_CASE("SkewNormal: signature, support and invalid parameters") {
  const auto& d = dist("SkewNormal");
  check_real_signature(d, {{"xi", 0}, {"omega", 0}, {"alpha", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1), scalar(1)}, -INFINITY, INFINITY);
  check_invalid(d, {
                       {{scalar(NAN), scalar(1), scalar(1)}, "SkewNormal: location xi is nan; it must be finite"},
                       {{scalar(0), scalar(0), scalar(1)}, "SkewNormal: scale omega is 0; it must be positive and finite"},
                       {{scalar(0), scalar(1), scalar(INFINITY)}, "SkewNormal: shape alpha is inf; it must be finite"},
                   });
}

TEST_CASE("SkewNormal: draws follow the distribution") {
  const auto& d = dist("SkewNormal");
  for (auto [xi, omega, alpha] : {std::tuple{0.0, 1.0, 4.0}, {1.0, 2.0, -3.0}, {-2.0, 0.5, 0.0}, {5.0, 0.1, 30.0}}) {
    INFO("xi = ", xi, ", omega = ", omega, ", alpha = ", alpha);
    const bm::skew_normal_distribution<> reference(xi, omega, alpha);
    check_draws_continuous(d, {scalar(xi), scalar(omega), scalar(alpha)},
                           [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(0), scalar(1), scalar(4)});
}

TEST_CASE("SkewNormal: gradients match finite differences") {
  const auto& d = dist("SkewNormal");
  for (double x : {-2.0, 0.3, 2.5}) check_gradients(d, {scalar(0.2), scalar(1.4), scalar(3)}, scalar(x));
  check_gradients(d, {scalar(0), scalar(1), scalar(10)}, scalar(-4));  // log Phi's tail
  check_gradients(d, {scalar(0), scalar(1), scalar(-2)}, scalar(1));
}

}  // namespace test_skew_normal
