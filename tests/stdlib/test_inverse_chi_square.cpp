// InverseChiSquare(nu) against Boost.Math's inverse_chi_squared(nu), its unscaled form
// (scale 1 / nu).
#include <boost/math/distributions/inverse_chi_squared.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_inverse_chi_square {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Every term involves nu or x: nothing is dropped.
density_case at(double nu, double x) {
  return {{scalar(nu)}, scalar(x), std::log(bm::pdf(bm::inverse_chi_squared(nu), x))};
}

}  // namespace

TEST_CASE("InverseChiSquare: log densities, with and without constants") {
  check_log_densities(dist("InverseChiSquare"), {
                                                    at(3, 0.5), at(3, 4), at(0.5, 20), at(50, 0.02), at(1, 1e-3),
                                                    {{scalar(3)}, scalar(0), -INFINITY},
                                                    {{scalar(3)}, scalar(-1), -INFINITY},
                                                    {{scalar(3)}, scalar(INFINITY), -INFINITY},
                                                    {{scalar(3)}, scalar(NAN), -INFINITY},
                                                });
}

TEST_CASE("InverseChiSquare: signature, support and invalid parameters") {
  const auto& d = dist("InverseChiSquare");
  check_real_signature(d, {{"nu", 0}}, 0);
  check_interval_support(d, {scalar(2)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0)}, "InverseChiSquare: degrees of freedom nu is 0; it must be positive and finite"},
                       {{scalar(INFINITY)}, "InverseChiSquare: degrees of freedom nu is inf"},
                   });
}

TEST_CASE("InverseChiSquare: draws follow the distribution") {
  const auto& d = dist("InverseChiSquare");
  for (double nu : {3.0, 0.4, 40.0}) {
    INFO("nu = ", nu);
    const bm::inverse_chi_squared reference(nu);
    check_draws_continuous(d, {scalar(nu)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(3)});
}

TEST_CASE("InverseChiSquare: gradients match finite differences") {
  const auto& d = dist("InverseChiSquare");
  for (double x : {0.05, 0.3, 2.0, 9.0}) check_gradients(d, {scalar(3.5)}, scalar(x));
  check_gradients(d, {scalar(0.6)}, scalar(4));
}

}  // namespace test_inverse_chi_square
