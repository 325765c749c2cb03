// Weibull(alpha, sigma) against Boost.Math's weibull_distribution(shape, scale).
#include <boost/math/distributions/weibull.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_weibull {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// No constant to drop.
density_case at(double alpha, double sigma, double x) {
  return {{scalar(alpha), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::weibull_distribution<>(alpha, sigma), x))};
}

}  // namespace

TEST_CASE("Weibull: log densities, with and without constants") {
  check_log_densities(dist("Weibull"), {
                                           at(1.5, 2, 0.3), at(1.5, 2, 2), at(1.5, 2, 9), at(0.5, 1, 1e-6),
                                           at(5, 0.1, 0.12), at(1, 3, 4),
                                           // x = 0: the density is +inf, 1 / sigma or 0 as alpha is below, at or above 1
                                           {{scalar(1), scalar(4)}, scalar(0), -std::log(4.0)},
                                           {{scalar(0.5), scalar(4)}, scalar(0), INFINITY},
                                           {{scalar(2), scalar(4)}, scalar(0), -INFINITY},
                                           {{scalar(2), scalar(4)}, scalar(-1), -INFINITY},
                                           {{scalar(2), scalar(4)}, scalar(INFINITY), -INFINITY},
                                           {{scalar(2), scalar(4)}, scalar(NAN), -INFINITY},
                                       });
}

TEST_CASE("Weibull: signature, support and invalid parameters") {
  const auto& d = dist("Weibull");
  check_real_signature(d, {{"alpha", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(1), scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(-1), scalar(1)}, "Weibull: shape alpha is -1; it must be positive and finite"},
                       {{scalar(0), scalar(1)}, "Weibull: shape alpha is 0"},
                       {{scalar(1), scalar(0)}, "Weibull: scale sigma is 0; it must be positive and finite"},
                       {{scalar(1), scalar(NAN)}, "Weibull: scale sigma is nan"},
                   });
}

TEST_CASE("Weibull: draws follow the distribution") {
  const auto& d = dist("Weibull");
  for (auto [alpha, sigma] : {std::pair{1.5, 2.0}, {0.3, 1.0}, {8.0, 0.01}}) {
    INFO("alpha = ", alpha, ", sigma = ", sigma);
    const bm::weibull_distribution<> reference(alpha, sigma);
    check_draws_continuous(d, {scalar(alpha), scalar(sigma)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(1.5), scalar(2)});
}

TEST_CASE("Weibull: gradients match finite differences") {
  const auto& d = dist("Weibull");
  for (double x : {0.3, 2.0, 6.0}) check_gradients(d, {scalar(1.5), scalar(2)}, scalar(x));
  check_gradients(d, {scalar(0.4), scalar(0.5)}, scalar(0.01));
}

}  // namespace test_weibull
