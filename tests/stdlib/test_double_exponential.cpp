// DoubleExponential(mu, sigma) against Boost.Math's laplace_distribution(location, scale).
#include <boost/math/distributions/laplace.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_double_exponential {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Dropping constants removes -log 2.
density_case at(double mu, double sigma, double x) {
  return {{scalar(mu), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::laplace_distribution<>(mu, sigma), x)),
          -std::numbers::ln2};
}

}  // namespace

TEST_CASE("DoubleExponential: log densities, with and without constants") {
  check_log_densities(dist("DoubleExponential"), {
                                                     at(0, 1, 0), at(0, 1, 2.5), at(0, 1, -2.5), at(1.5, 0.3, 1.9),
                                                     at(-4, 7, 30), at(2, 0.5, -100),
                                                     {{scalar(0), scalar(1)}, scalar(INFINITY), -INFINITY},
                                                     {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                                 });
}

TEST_CASE("DoubleExponential: signature, support and invalid parameters") {
  const auto& d = dist("DoubleExponential");
  check_real_signature(d, {{"mu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, -INFINITY, INFINITY);
  check_invalid(d, {
                       {{scalar(NAN), scalar(1)}, "DoubleExponential: location mu is nan; it must be finite"},
                       {{scalar(0), scalar(0)}, "DoubleExponential: scale sigma is 0; it must be positive and finite"},
                       {{scalar(0), scalar(INFINITY)}, "DoubleExponential: scale sigma is inf"},
                   });
}

TEST_CASE("DoubleExponential: draws follow the distribution") {
  const auto& d = dist("DoubleExponential");
  for (auto [mu, sigma] : {std::pair{0.0, 1.0}, {3.0, 0.2}, {-10.0, 25.0}}) {
    INFO("mu = ", mu, ", sigma = ", sigma);
    const bm::laplace_distribution<> reference(mu, sigma);
    check_draws_continuous(d, {scalar(mu), scalar(sigma)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(1), scalar(2)});
}

TEST_CASE("DoubleExponential: gradients match finite differences away from the kink") {
  const auto& d = dist("DoubleExponential");
  for (double x : {-3.0, 0.2, 4.0}) check_gradients(d, {scalar(0.5), scalar(1.5)}, scalar(x));
}

}  // namespace test_double_exponential
