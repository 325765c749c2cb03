// HalfNormal(sigma): twice the Normal(0, sigma) density of Boost.Math on [0, inf).
#include <boost/math/distributions/normal.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_half_normal {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// log(2) - log(2 pi) / 2 = log(2 / pi) / 2 is the constant dropped.
density_case at(double sigma, double x) {
  return {{scalar(sigma)}, scalar(x), std::log(2 * bm::pdf(bm::normal(0, sigma), x)), 0.5 * std::log(2 / std::numbers::pi)};
}

// Folding the Normal(0, sigma) quantile: P(|X| <= q) = 2 Phi(q / sigma) - 1.
double quantile(double sigma, double p) { return bm::quantile(bm::normal(0, sigma), (1 + p) / 2); }

}  // namespace

TEST_CASE("HalfNormal: log densities, with and without constants") {
  check_log_densities(dist("HalfNormal"), {
                                              at(1.7, 0.1), at(1.7, 1), at(1.7, 4), at(1.7, 0), at(1e-3, 2e-3),
                                              at(300, 50), at(1, 30),
                                              {{scalar(1)}, scalar(-1), -INFINITY},
                                              {{scalar(1)}, scalar(-1e-300), -INFINITY},
                                              {{scalar(1)}, scalar(INFINITY), -INFINITY},
                                              {{scalar(1)}, scalar(NAN), -INFINITY},
                                          });
}

TEST_CASE("HalfNormal: signature, support and invalid parameters") {
  const auto& d = dist("HalfNormal");
  check_real_signature(d, {{"sigma", 0}}, 0);
  check_interval_support(d, {scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0)}, "HalfNormal: scale sigma is 0; it must be positive and finite"},
                       {{scalar(-2)}, "HalfNormal: scale sigma is -2"},
                       {{scalar(INFINITY)}, "HalfNormal: scale sigma is inf"},
                       {{scalar(NAN)}, "HalfNormal: scale sigma is nan"},
                   });
}

TEST_CASE("HalfNormal: draws follow the distribution") {
  const auto& d = dist("HalfNormal");
  for (double sigma : {1.7, 1e-3, 40.0}) {
    INFO("sigma = ", sigma);
    check_draws_continuous(d, {scalar(sigma)}, [=](double p) { return quantile(sigma, p); });
  }
  check_draws_reproducible(d, {scalar(1.7)});
}

TEST_CASE("HalfNormal: gradients match finite differences") {
  const auto& d = dist("HalfNormal");
  for (double x : {0.1, 1.0, 4.0}) check_gradients(d, {scalar(1.7)}, scalar(x));
  check_gradients(d, {scalar(0.02)}, scalar(0.05));
}

}  // namespace test_half_normal
