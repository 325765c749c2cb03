// NegativeBinomial2(mu, phi), Stan's neg_binomial_2, against Boost.Math's
// negative_binomial_distribution(r, p) with r = phi and p = phi / (mu + phi).
#include <boost/math/distributions/negative_binomial.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_negative_binomial_2 {

using namespace ppl::testing;

namespace {

boost::math::negative_binomial_distribution<> reference(double mu, double phi) { return {phi, phi / (mu + phi)}; }

double pmf(double mu, double phi, double k) { return boost::math::pdf(reference(mu, phi), k); }

// Dropping constants removes -log k!.
mass_case at(double mu, double phi, double k) {
  return {{scalar(mu), scalar(phi)}, scalar(k), std::log(pmf(mu, phi, k)), -std::lgamma(k + 1)};
}

}  // namespace

TEST_CASE("NegativeBinomial2: the reference has mean mu and variance mu + mu^2 / phi") {
  CHECK(boost::math::mean(reference(6.0, 2.5)) == doctest::Approx(6.0));
  CHECK(boost::math::variance(reference(6.0, 2.5)) == doctest::Approx(6.0 + 36.0 / 2.5));
}

TEST_CASE("NegativeBinomial2: log masses, with and without constants") {
  check_log_masses(dist("NegativeBinomial2"), {
                                                  at(6, 2.5, 0), at(6, 2.5, 4), at(6, 2.5, 40), at(0.2, 0.3, 0),
                                                  at(0.2, 0.3, 3), at(100, 50, 95), at(3, 1e6, 2), at(1e-3, 5, 1),
                                                  {{scalar(6), scalar(2.5)}, scalar(-1), -INFINITY},
                                                  {{scalar(6), scalar(2.5)}, scalar(0.5), -INFINITY},
                                              });
}

TEST_CASE("NegativeBinomial2: support and invalid parameters") {
  const auto& d = dist("NegativeBinomial2");
  const auto s = d.value_support(views({scalar(1), scalar(1)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == INFINITY);
  check_invalid(d, {
                       {{scalar(0), scalar(1)}, "NegativeBinomial2: mean mu is 0; it must be positive and finite"},
                       {{scalar(NAN), scalar(1)}, "NegativeBinomial2: mean mu is nan"},
                       {{scalar(1), scalar(-2)}, "NegativeBinomial2: dispersion phi is -2; it must be positive"},
                       {{scalar(1), scalar(INFINITY)}, "NegativeBinomial2: dispersion phi is inf"},
                   });
}

TEST_CASE("NegativeBinomial2: draws follow the pmf") {
  const auto& d = dist("NegativeBinomial2");
  struct {
    double mu, phi;
    long hi;
  } const cases[] = {{6, 2.5, 80}, {0.2, 0.3, 20}, {100, 50, 300}, {3, 1e4, 30}};
  for (const auto& c : cases) {
    INFO("mu = ", c.mu, ", phi = ", c.phi);
    check_draws_pmf(d, {scalar(c.mu), scalar(c.phi)}, [&](long k) { return pmf(c.mu, c.phi, static_cast<double>(k)); }, 0,
                    c.hi);
  }
  check_draws_reproducible(d, {scalar(6), scalar(2.5)});
}

TEST_CASE("NegativeBinomial2: gradients in mu and phi match finite differences") {
  const auto& d = dist("NegativeBinomial2");
  for (double k : {0.0, 3.0, 25.0}) check_gradients(d, {scalar(6), scalar(2.5)}, scalar(k), false);
  check_gradients(d, {scalar(0.2), scalar(0.3)}, scalar(2), false);
  check_gradients(d, {scalar(3), scalar(500)}, scalar(4), false);
  check_no_integer_gradients(d, {scalar(6), scalar(2.5)}, scalar(4));
}

}  // namespace test_negative_binomial_2
