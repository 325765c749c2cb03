// NegativeBinomial(alpha, beta), Stan's neg_binomial, against Boost.Math's
// negative_binomial_distribution(r, p) with r = alpha and p = beta / (1 + beta).
#include <boost/math/distributions/negative_binomial.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_negative_binomial {

using namespace ppl::testing;

namespace {

boost::math::negative_binomial_distribution<> reference(double alpha, double beta) {
  return {alpha, beta / (1 + beta)};
}

double pmf(double alpha, double beta, double k) { return boost::math::pdf(reference(alpha, beta), k); }

// Dropping constants removes -log k!.
mass_case at(double alpha, double beta, double k) {
  return {{scalar(alpha), scalar(beta)}, scalar(k), std::log(pmf(alpha, beta, k)), -std::lgamma(k + 1)};
}

}  // namespace

TEST_CASE("NegativeBinomial: the reference has mean alpha / beta") {
  CHECK(boost::math::mean(reference(2.5, 0.4)) == doctest::Approx(2.5 / 0.4));
  CHECK(boost::math::variance(reference(2.5, 0.4)) == doctest::Approx(2.5 / (0.4 * 0.4) * 1.4));
}

TEST_CASE("NegativeBinomial: log masses, with and without constants") {
  check_log_masses(dist("NegativeBinomial"), {
                                                 at(2.5, 0.4, 0), at(2.5, 0.4, 4), at(2.5, 0.4, 20),
                                                 at(0.3, 2, 0), at(0.3, 2, 1), at(0.3, 2, 5),
                                                 at(50, 10, 3), at(50, 10, 5), at(1, 1, 7),
                                                 {{scalar(2.5), scalar(0.4)}, scalar(-1), -INFINITY},
                                                 {{scalar(2.5), scalar(0.4)}, scalar(0.5), -INFINITY},
                                             });
}

TEST_CASE("NegativeBinomial: support and invalid parameters") {
  const auto& d = dist("NegativeBinomial");
  const auto s = d.value_support(views({scalar(1), scalar(1)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == INFINITY);
  check_invalid(d, {
                       {{scalar(0), scalar(1)}, "NegativeBinomial: shape alpha is 0; it must be positive"},
                       {{scalar(-1), scalar(1)}, "NegativeBinomial: shape alpha is -1"},
                       {{scalar(NAN), scalar(1)}, "NegativeBinomial: shape alpha is nan"},
                       {{scalar(1), scalar(0)}, "NegativeBinomial: inverse scale beta is 0"},
                       {{scalar(1), scalar(INFINITY)}, "NegativeBinomial: inverse scale beta is inf"},
                   });
}

TEST_CASE("NegativeBinomial: draws follow the pmf") {
  const auto& d = dist("NegativeBinomial");
  struct {
    double alpha, beta;
    long hi;
  } const cases[] = {{2.5, 0.4, 60}, {0.3, 0.5, 30}, {40, 4, 40}, {1, 0.01, 1000}};
  for (const auto& c : cases) {
    INFO("alpha = ", c.alpha, ", beta = ", c.beta);
    const auto mass = [&](long k) { return pmf(c.alpha, c.beta, static_cast<double>(k)); };
    check_draws_pmf(d, {scalar(c.alpha), scalar(c.beta)}, mass, 0, c.hi);
  }
  check_draws_reproducible(d, {scalar(2), scalar(0.5)});
}

TEST_CASE("NegativeBinomial: gradients in alpha and beta match finite differences") {
  const auto& d = dist("NegativeBinomial");
  check_gradients(d, {scalar(2.5), scalar(0.4)}, scalar(6), false);
  check_gradients(d, {scalar(2.5), scalar(0.4)}, scalar(0), false);
  check_gradients(d, {scalar(0.3), scalar(2)}, scalar(3), false);
  check_gradients(d, {scalar(50), scalar(10)}, scalar(9), false);
  check_no_integer_gradients(d, {scalar(2.5), scalar(0.4)}, scalar(6));
}

}  // namespace test_negative_binomial
