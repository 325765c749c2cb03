// ScaledInverseChiSquare(nu, s) against Boost.Math's inverse_chi_squared(nu, s^2): Boost's
// scale is the variance-like s^2.
#include <boost/math/distributions/inverse_chi_squared.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_scaled_inverse_chi_square {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Every term involves nu, s or x: nothing is dropped.
density_case at(double nu, double s, double x) {
  return {{scalar(nu), scalar(s)}, scalar(x), std::log(bm::pdf(bm::inverse_chi_squared(nu, s * s), x))};
}

}  // namespace

TEST_CASE("ScaledInverseChiSquare: log densities, with and without constants") {
  check_log_densities(dist("ScaledInverseChiSquare"), {
                                                          at(3, 2, 0.5), at(3, 2, 4), at(0.5, 0.1, 20), at(50, 3, 9.5),
                                                          at(1, 1, 1),
                                                          {{scalar(3), scalar(2)}, scalar(0), -INFINITY},
                                                          {{scalar(3), scalar(2)}, scalar(-2), -INFINITY},
                                                          {{scalar(3), scalar(2)}, scalar(INFINITY), -INFINITY},
                                                      });
}

TEST_CASE("ScaledInverseChiSquare: signature, support and invalid parameters") {
  const auto& d = dist("ScaledInverseChiSquare");
  check_real_signature(d, {{"nu", 0}, {"s", 0}}, 0);
  check_interval_support(d, {scalar(2), scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(-1), scalar(1)}, "ScaledInverseChiSquare: degrees of freedom nu is -1; it must be positive"},
                       {{scalar(2), scalar(0)}, "ScaledInverseChiSquare: scale s is 0; it must be positive and finite"},
                       {{scalar(2), scalar(NAN)}, "ScaledInverseChiSquare: scale s is nan"},
                   });
}

TEST_CASE("ScaledInverseChiSquare: draws follow the distribution") {
  const auto& d = dist("ScaledInverseChiSquare");
  for (auto [nu, s] : {std::pair{3.0, 0.7}, {0.4, 2.0}, {40.0, 0.05}}) {
    INFO("nu = ", nu, ", s = ", s);
    const bm::inverse_chi_squared reference(nu, s * s);
    check_draws_continuous(d, {scalar(nu), scalar(s)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(3), scalar(2)});
}

TEST_CASE("ScaledInverseChiSquare: gradients match finite differences") {
  const auto& d = dist("ScaledInverseChiSquare");
  for (double x : {0.3, 2.0, 9.0}) check_gradients(d, {scalar(3.5), scalar(1.3)}, scalar(x));
  check_gradients(d, {scalar(0.6), scalar(0.2)}, scalar(0.05));
}

}  // namespace test_scaled_inverse_chi_square
