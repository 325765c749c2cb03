// BetaBinomial(n, alpha, beta) against C(n, k) B(k + alpha, n - k + beta) / B(alpha, beta)
// from Boost.Math's binomial_coefficient and beta, and for alpha = beta = 1 the uniform
// 1 / (n + 1).
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/binomial.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_beta_binomial {

using namespace ppl::testing;

namespace {

double pmf(double n, double a, double b, double k) {
  const auto un = static_cast<unsigned>(n), uk = static_cast<unsigned>(k);
  return boost::math::binomial_coefficient<double>(un, uk) * boost::math::beta(k + a, n - k + b) / boost::math::beta(a, b);
}

// Dropping constants removes log C(n, k).
mass_case at(double n, double a, double b, double k) {
  return {{scalar(n), scalar(a), scalar(b)}, scalar(k), std::log(pmf(n, a, b, k)),
          std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1)};
}

}  // namespace

TEST_CASE("BetaBinomial: log masses, with and without constants") {
  check_log_masses(dist("BetaBinomial"), {
                                             at(10, 2, 3, 0), at(10, 2, 3, 4), at(10, 2, 3, 10), at(1, 0.5, 0.5, 1),
                                             at(0, 2, 2, 0), at(40, 0.2, 0.3, 1), at(40, 30, 15, 27),
                                             {{scalar(12), scalar(1), scalar(1)}, scalar(5), -std::log(13.0), std::lgamma(13.0) - std::lgamma(6.0) - std::lgamma(8.0)},
                                             {{scalar(10), scalar(2), scalar(3)}, scalar(11), -INFINITY},
                                             {{scalar(10), scalar(2), scalar(3)}, scalar(-1), -INFINITY},
                                             {{scalar(10), scalar(2), scalar(3)}, scalar(2.5), -INFINITY},
                                         });
}

TEST_CASE("BetaBinomial: support and invalid parameters") {
  const auto& d = dist("BetaBinomial");
  const auto s = d.value_support(views({scalar(12), scalar(1), scalar(1)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == 12);
  CHECK(d.support_moves());
  CHECK(d.params()[0].kind == ppl::stdlib::scalar_kind::integer);
  check_invalid(d, {
                       {{scalar(-1), scalar(1), scalar(1)}, "BetaBinomial: number of trials n is -1; it must be a non-negative integer"},
                       {{scalar(3), scalar(0), scalar(1)}, "BetaBinomial: prior successes alpha is 0; it must be positive and finite"},
                       {{scalar(3), scalar(1), scalar(NAN)}, "BetaBinomial: prior failures beta is nan"},
                   });
}

TEST_CASE("BetaBinomial: draws follow the pmf") {
  const auto& d = dist("BetaBinomial");
  struct {
    double n, a, b;
  } const cases[] = {{10, 2, 3}, {40, 0.2, 0.3}, {60, 30, 15}, {1, 0.5, 0.5}};
  for (const auto& c : cases) {
    INFO("n = ", c.n, ", alpha = ", c.a, ", beta = ", c.b);
    check_draws_pmf(d, {scalar(c.n), scalar(c.a), scalar(c.b)},
                    [&](long k) { return pmf(c.n, c.a, c.b, static_cast<double>(k)); }, 0, static_cast<long>(c.n));
  }
  check_draws_constant(d, {scalar(0), scalar(2), scalar(2)}, 0);
  check_draws_reproducible(d, {scalar(10), scalar(2), scalar(3)});
}

TEST_CASE("BetaBinomial: gradients in alpha and beta match finite differences") {
  const auto& d = dist("BetaBinomial");
  for (double k : {0.0, 4.0, 10.0}) check_gradients(d, {scalar(10), scalar(2), scalar(3)}, scalar(k), false);
  check_gradients(d, {scalar(40), scalar(0.2), scalar(0.3)}, scalar(1), false);
  check_no_integer_gradients(d, {scalar(10), scalar(2), scalar(3)}, scalar(4));
}

}  // namespace test_beta_binomial
