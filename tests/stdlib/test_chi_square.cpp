// ChiSquare(nu) against Boost.Math's chi_squared(nu).
#include <boost/math/distributions/chi_squared.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_chi_square {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Every term involves nu or x: nothing is dropped.
density_case at(double nu, double x) { return {{scalar(nu)}, scalar(x), std::log(bm::pdf(bm::chi_squared(nu), x))}; }

}  // namespace

TEST_CASE("ChiSquare: log densities, with and without constants") {
  check_log_densities(dist("ChiSquare"), {
                                             at(3, 0.5), at(3, 4), at(0.5, 1e-5), at(50, 60), at(2, 7),
                                             // x = 0: the density is +inf, 1 / 2 or 0 as nu is below, at or above 2
                                             {{scalar(2)}, scalar(0), -std::log(2.0)},
                                             {{scalar(1)}, scalar(0), INFINITY},
                                             {{scalar(3)}, scalar(0), -INFINITY},
                                             {{scalar(3)}, scalar(-1), -INFINITY},
                                             {{scalar(3)}, scalar(INFINITY), -INFINITY},
                                             {{scalar(3)}, scalar(NAN), -INFINITY},
                                         });
}

TEST_CASE("ChiSquare: signature, support and invalid parameters") {
  const auto& d = dist("ChiSquare");
  check_real_signature(d, {{"nu", 0}}, 0);
  check_interval_support(d, {scalar(2)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0)}, "ChiSquare: degrees of freedom nu is 0; it must be positive and finite"},
                       {{scalar(-3)}, "ChiSquare: degrees of freedom nu is -3"},
                       {{scalar(NAN)}, "ChiSquare: degrees of freedom nu is nan"},
                   });
}

TEST_CASE("ChiSquare: draws follow the distribution") {
  const auto& d = dist("ChiSquare");
  for (double nu : {3.0, 0.4, 40.0}) {
    INFO("nu = ", nu);
    const bm::chi_squared reference(nu);
    check_draws_continuous(d, {scalar(nu)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(3)});
}

TEST_CASE("ChiSquare: gradients match finite differences") {
  const auto& d = dist("ChiSquare");
  for (double x : {0.3, 2.0, 9.0}) check_gradients(d, {scalar(3.5)}, scalar(x));
  check_gradients(d, {scalar(0.6)}, scalar(0.05));
}

}  // namespace test_chi_square
