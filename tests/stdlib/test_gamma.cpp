// Gamma(alpha, beta), beta a rate, against Boost.Math's gamma_distribution (shape, scale
// 1 / beta).
#include <boost/math/distributions/gamma.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_gamma {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Every term involves alpha, beta or x: nothing is dropped.
density_case at(double alpha, double beta, double x) {
  return {{scalar(alpha), scalar(beta)}, scalar(x), std::log(bm::pdf(bm::gamma_distribution<>(alpha, 1 / beta), x))};
}

}  // namespace

TEST_CASE("Gamma: log densities, with and without constants") {
  const double log_2 = std::log(2.0);
  check_log_densities(dist("Gamma"), {
                                         at(3, 2, 0.2), at(3, 2, 1.5), at(3, 2, 4), at(0.5, 1, 1e-8), at(0.01, 2, 1e-50),
                                         at(300, 10, 31), at(1, 0.001, 500),
                                         // x = 0: the density there is beta, +inf or 0 as alpha is 1, below or above 1
                                         {{scalar(1), scalar(2)}, scalar(0), log_2},
                                         {{scalar(0.5), scalar(2)}, scalar(0), INFINITY},
                                         {{scalar(3), scalar(2)}, scalar(0), -INFINITY},
                                         {{scalar(3), scalar(2)}, scalar(-1), -INFINITY},
                                         {{scalar(3), scalar(2)}, scalar(INFINITY), -INFINITY},
                                         {{scalar(3), scalar(2)}, scalar(NAN), -INFINITY},
                                     });
}

TEST_CASE("Gamma: signature, support and invalid parameters") {
  const auto& d = dist("Gamma");
  check_real_signature(d, {{"alpha", 0}, {"beta", 0}}, 0);
  check_interval_support(d, {scalar(2), scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0), scalar(1)}, "Gamma: shape alpha is 0; it must be positive and finite"},
                       {{scalar(-1), scalar(1)}, "Gamma: shape alpha is -1"},
                       {{scalar(NAN), scalar(1)}, "Gamma: shape alpha is nan"},
                       {{scalar(1), scalar(-1)}, "Gamma: rate beta is -1; it must be positive and finite"},
                       {{scalar(1), scalar(INFINITY)}, "Gamma: rate beta is inf"},
                       {{scalar(1), scalar(NAN)}, "Gamma: rate beta is nan"},
                   });
}

TEST_CASE("Gamma: draws follow the distribution") {
  const auto& d = dist("Gamma");
  // Shapes below 1 take the boosted path of gamma_draw.hpp; 0.01 draws values near 1e-100.
  for (auto [alpha, beta] : {std::pair{3.0, 2.0}, {1.0, 1.0}, {0.5, 1.0}, {0.01, 2.0}, {50.0, 0.1}}) {
    INFO("alpha = ", alpha, ", beta = ", beta);
    const bm::gamma_distribution<> reference(alpha, 1 / beta);
    check_draws_continuous(d, {scalar(alpha), scalar(beta)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(3), scalar(2)});
}

TEST_CASE("Gamma: gradients match finite differences") {
  const auto& d = dist("Gamma");
  for (double x : {0.2, 1.5, 4.0}) check_gradients(d, {scalar(3), scalar(2)}, scalar(x));
  check_gradients(d, {scalar(0.3), scalar(5)}, scalar(0.01));
  check_gradients(d, {scalar(1), scalar(2)}, scalar(0.7));
}

}  // namespace test_gamma
