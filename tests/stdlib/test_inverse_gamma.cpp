// InverseGamma(alpha, beta), beta a scale, against Boost.Math's inverse_gamma_distribution.
#include <boost/math/distributions/inverse_gamma.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_inverse_gamma {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Every term involves alpha, beta or x: nothing is dropped.
density_case at(double alpha, double beta, double x) {
  return {{scalar(alpha), scalar(beta)}, scalar(x), std::log(bm::pdf(bm::inverse_gamma_distribution<>(alpha, beta), x))};
}

}  // namespace

TEST_CASE("InverseGamma: log densities, with and without constants") {
  check_log_densities(dist("InverseGamma"), {
                                                at(3.5, 2, 0.2), at(3.5, 2, 0.8), at(3.5, 2, 3), at(0.5, 1, 1e6),
                                                at(0.001, 0.001, 1e-3), at(200, 50, 0.25),
                                                // the density tends to 0 at 0 for every alpha
                                                {{scalar(0.5), scalar(1)}, scalar(0), -INFINITY},
                                                {{scalar(2), scalar(1)}, scalar(-1), -INFINITY},
                                                {{scalar(2), scalar(1)}, scalar(INFINITY), -INFINITY},
                                                {{scalar(2), scalar(1)}, scalar(NAN), -INFINITY},
                                            });
}

TEST_CASE("InverseGamma: signature, support and invalid parameters") {
  const auto& d = dist("InverseGamma");
  check_real_signature(d, {{"alpha", 0}, {"beta", 0}}, 0);
  check_interval_support(d, {scalar(2), scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(0), scalar(1)}, "InverseGamma: shape alpha is 0; it must be positive and finite"},
                       {{scalar(NAN), scalar(1)}, "InverseGamma: shape alpha is nan"},
                       {{scalar(2), scalar(0)}, "InverseGamma: scale beta is 0; it must be positive and finite"},
                       {{scalar(2), scalar(-4)}, "InverseGamma: scale beta is -4"},
                       {{scalar(2), scalar(INFINITY)}, "InverseGamma: scale beta is inf"},
                   });
}

TEST_CASE("InverseGamma: draws follow the distribution") {
  const auto& d = dist("InverseGamma");
  for (auto [alpha, beta] : {std::pair{3.5, 2.0}, {0.5, 1.0}, {0.05, 3.0}, {80.0, 40.0}}) {
    INFO("alpha = ", alpha, ", beta = ", beta);
    const bm::inverse_gamma_distribution<> reference(alpha, beta);
    check_draws_continuous(d, {scalar(alpha), scalar(beta)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(3.5), scalar(2)});
}

// The vague prior InverseGamma(0.001, 0.001) has half its mass beyond the largest double:
// such draws are that largest double, never inf, which is outside the support.
TEST_CASE("InverseGamma: draws beyond the largest double stay finite") {
  const auto& d = dist("InverseGamma");
  const std::vector<tensor> params = {scalar(0.001), scalar(0.001)};
  ppl::rng rng(3);
  int largest = 0;
  for (int i = 0; i < 2000; ++i) {
    double x = 0;
    d.draw(views(params), rng, &x);
    REQUIRE(d.in_support(views(params), scalar(x).as_view()));
    largest += x == std::numeric_limits<double>::max();
  }
  CHECK(largest > 500);
}

TEST_CASE("InverseGamma: gradients match finite differences") {
  const auto& d = dist("InverseGamma");
  for (double x : {0.2, 0.8, 3.0}) check_gradients(d, {scalar(3.5), scalar(2)}, scalar(x));
  check_gradients(d, {scalar(0.4), scalar(0.05)}, scalar(2));
}

}  // namespace test_inverse_gamma
