// Bernoulli(p) against Boost.Math's bernoulli_distribution.
#include <boost/math/distributions/bernoulli.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_bernoulli {

using namespace ppl::testing;

namespace {

double log_pmf(double p, double k) { return std::log(boost::math::pdf(boost::math::bernoulli_distribution<>(p), k)); }

}  // namespace

TEST_CASE("Bernoulli: log masses, with and without constants") {
  const auto& d = dist("Bernoulli");
  std::vector<mass_case> cases;
  for (double p : {0.3, 0.999, 1e-9, 0.0, 1.0})
    for (double k : {0.0, 1.0}) cases.push_back({{scalar(p)}, scalar(k), log_pmf(p, k)});
  for (double k : {2.0, -1.0, 0.5}) cases.push_back({{scalar(0.3)}, scalar(k), -INFINITY});
  check_log_masses(d, cases);
}

TEST_CASE("Bernoulli: support and invalid parameters") {
  const auto& d = dist("Bernoulli");
  const auto s = d.value_support(views({scalar(0.3)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == 1);
  CHECK(d.value_kind() == ppl::stdlib::scalar_kind::integer);
  CHECK_NOTHROW(d.check(views({scalar(0)})));
  CHECK_NOTHROW(d.check(views({scalar(1)})));
  CHECK_THROWS_WITH_AS(d.check(views({scalar(1.5)})), "Bernoulli: probability p is 1.5; it must be in [0, 1]",
                       ppl::stdlib::parameter_error);
  check_invalid(d, {
                       {{scalar(-0.1)}, "Bernoulli: probability p is -0.1"},
                       {{scalar(NAN)}, "Bernoulli: probability p is nan"},
                       {{scalar(INFINITY)}, "Bernoulli: probability p is inf"},
                   });
}

TEST_CASE("Bernoulli: draws follow the pmf") {
  const auto& d = dist("Bernoulli");
  for (double p : {0.3, 0.02, 0.97}) {
    INFO("p = ", p);
    check_draws_pmf(d, {scalar(p)}, [p](long k) { return k == 1 ? p : 1 - p; }, 0, 1);
  }
  check_draws_constant(d, {scalar(0.0)}, 0);
  check_draws_constant(d, {scalar(1.0)}, 1);
  check_draws_reproducible(d, {scalar(0.5)});
}

TEST_CASE("Bernoulli: gradient in p matches finite differences") {
  const auto& d = dist("Bernoulli");
  for (double p : {0.3, 0.9})
    for (double k : {0.0, 1.0}) check_gradients(d, {scalar(p)}, scalar(k), false);
  check_no_integer_gradients(d, {scalar(0.3)}, scalar(1));
}

}  // namespace test_bernoulli
