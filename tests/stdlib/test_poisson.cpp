// Poisson(lambda) against Boost.Math's poisson_distribution.
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>

#include "stdlib/log_gamma.hpp"
#include "tests/stdlib/discrete_checks.hpp"

namespace test_poisson {

using namespace ppl::testing;

namespace {

double pmf(double lambda, double k) { return boost::math::pdf(boost::math::poisson_distribution<>(lambda), k); }

// Dropping constants removes -log k!.
mass_case at(double lambda, double k) {
  return {{scalar(lambda)}, scalar(k), std::log(pmf(lambda, k)), -std::lgamma(k + 1)};
}

}  // namespace

TEST_CASE("Poisson: log masses, with and without constants") {
  check_log_masses(dist("Poisson"), {
                                        at(3.7, 0), at(3.7, 2), at(3.7, 9), at(0.01, 0), at(0.01, 1),
                                        at(250, 250), at(250, 200), at(1e-6, 3),
                                        // lambda = 0 is the point mass at 0
                                        {{scalar(0)}, scalar(0), 0.0},
                                        {{scalar(0)}, scalar(1), -INFINITY},
                                        {{scalar(3.7)}, scalar(-1), -INFINITY},
                                        {{scalar(3.7)}, scalar(1.5), -INFINITY},
                                        {{scalar(3.7)}, scalar(INFINITY), -INFINITY},
                                    });
}

TEST_CASE("Poisson: support and invalid parameters") {
  const auto& d = dist("Poisson");
  const auto s = d.value_support(views({scalar(2)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == INFINITY);
  CHECK_NOTHROW(d.check(views({scalar(0)})));
  check_invalid(d, {
                       {{scalar(-2)}, "Poisson: rate lambda is -2; it must be non-negative and finite"},
                       {{scalar(INFINITY)}, "Poisson: rate lambda is inf"},
                       {{scalar(NAN)}, "Poisson: rate lambda is nan"},
                   });
}

TEST_CASE("Poisson: draws follow the pmf") {
  const auto& d = dist("Poisson");
  // Boost.Random inverts the cdf below a mean of 10 and uses PTRS above.
  for (double lambda : {3.7, 0.05, 40.0, 1000.0}) {
    INFO("lambda = ", lambda);
    const auto hi = static_cast<long>(lambda + 8 * std::sqrt(lambda) + 8);
    check_draws_pmf(d, {scalar(lambda)}, [lambda](long k) { return pmf(lambda, static_cast<double>(k)); }, 0, hi);
  }
  check_draws_constant(d, {scalar(0)}, 0);
  check_draws_reproducible(d, {scalar(12.5)});
}

TEST_CASE("Poisson: draws at rates beyond the integers") {
  // Above 2^40 the normal approximation: Boost.Random's PTRD converts intermediate values
  // to integers, undefined past 2^63 (a rate of exp(300) from a prior draw).
  const auto& d = dist("Poisson");
  const double lambda = 1e13;
  check_draws_continuous(d, {scalar(lambda)}, [lambda](double p) {
    return boost::math::quantile(boost::math::normal_distribution<>(lambda, std::sqrt(lambda)), p);
  });
  ppl::rng rng(3);
  double x = 0;
  d.draw(views({scalar(1e300)}), rng, &x);
  CHECK(std::isfinite(x));
  CHECK(x == doctest::Approx(1e300));
}

TEST_CASE("Poisson: gradient in lambda matches finite differences") {
  const auto& d = dist("Poisson");
  check_gradients(d, {scalar(3.7)}, scalar(4), false);
  check_gradients(d, {scalar(3.7)}, scalar(0), false);
  check_gradients(d, {scalar(250)}, scalar(240), false);
  check_no_integer_gradients(d, {scalar(3.7)}, scalar(4));
}

}  // namespace test_poisson

namespace test_poisson_factorial {

TEST_CASE("log k! from its table is log_gamma(k + 1) bit for bit, and log_gamma beyond it") {
  for (const double k : {0.0, 1.0, 2.0, 7.0, 170.0, 1023.0, 1024.0, 5000.0, 2.5, 1e7})
    CHECK(ppl::stdlib::log_factorial(k) == ppl::stdlib::log_gamma(k + 1));
  CHECK(ppl::stdlib::log_factorial(3) == doctest::Approx(std::log(6.0)).epsilon(1e-15));
}

}  // namespace test_poisson_factorial
