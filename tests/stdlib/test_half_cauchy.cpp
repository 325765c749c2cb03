// HalfCauchy(sigma): twice the Cauchy(0, sigma) density of Boost.Math on [0, inf).
#include <boost/math/distributions/cauchy.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_half_cauchy {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// log(2 / pi) is the constant dropped.
density_case at(double sigma, double x) {
  return {{scalar(sigma)}, scalar(x), std::log(2 * bm::pdf(bm::cauchy(0, sigma), x)), std::log(2 / std::numbers::pi)};
}

// Folding: P(|X| <= q) = 2 F(q) - 1.
double quantile(double sigma, double p) { return bm::quantile(bm::cauchy(0, sigma), (1 + p) / 2); }

}  // namespace

TEST_CASE("HalfCauchy: log densities, with and without constants") {
  check_log_densities(dist("HalfCauchy"), {
                                              at(5, 0.1), at(5, 1), at(5, 40), at(5, 0), at(1e-3, 2e-3), at(300, 5e4),
                                              {{scalar(1)}, scalar(-1), -INFINITY},
                                              {{scalar(1)}, scalar(INFINITY), -INFINITY},
                                              {{scalar(1)}, scalar(NAN), -INFINITY},
                                          });
}

TEST_CASE("HalfCauchy: signature, support and invalid parameters") {
  const auto& d = dist("HalfCauchy");
  check_real_signature(d, {{"sigma", 0}}, 0);
  check_interval_support(d, {scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0)}, "HalfCauchy: scale sigma is 0; it must be positive and finite"},
                       {{scalar(-2)}, "HalfCauchy: scale sigma is -2"},
                       {{scalar(NAN)}, "HalfCauchy: scale sigma is nan"},
                   });
}

TEST_CASE("HalfCauchy: draws follow the distribution") {
  const auto& d = dist("HalfCauchy");
  for (double sigma : {5.0, 1e-3}) {
    INFO("sigma = ", sigma);
    check_draws_continuous(d, {scalar(sigma)}, [=](double p) { return quantile(sigma, p); });
  }
  check_draws_reproducible(d, {scalar(5)});
}

TEST_CASE("HalfCauchy: gradients match finite differences") {
  const auto& d = dist("HalfCauchy");
  for (double x : {0.1, 1.0, 40.0}) check_gradients(d, {scalar(5)}, scalar(x));
  check_gradients(d, {scalar(0.02)}, scalar(0.05));
}

}  // namespace test_half_cauchy
