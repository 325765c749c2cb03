// Logistic(mu, sigma) against Boost.Math's logistic_distribution(location, scale).
#include <boost/math/distributions/logistic.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_logistic {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// No constant to drop.
density_case at(double mu, double sigma, double x) {
  return {{scalar(mu), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::logistic_distribution<>(mu, sigma), x))};
}

}  // namespace

TEST_CASE("Logistic: log densities, with and without constants") {
  check_log_densities(dist("Logistic"), {
                                            at(0, 1, 0), at(0, 1, 2.5), at(0, 1, -2.5), at(1.5, 0.3, 1.9),
                                            at(-4, 7, 30), at(0, 1, 600),  // e^-z underflows; the log does not
                                            {{scalar(0), scalar(1)}, scalar(-800), -800},
                                            {{scalar(0), scalar(1)}, scalar(INFINITY), -INFINITY},
                                            {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                        });
}

TEST_CASE("Logistic: signature, support and invalid parameters") {
  const auto& d = dist("Logistic");
  check_real_signature(d, {{"mu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, -INFINITY, INFINITY);
  check_invalid(d, {
                       {{scalar(NAN), scalar(1)}, "Logistic: location mu is nan; it must be finite"},
                       {{scalar(INFINITY), scalar(1)}, "Logistic: location mu is inf"},
                       {{scalar(0), scalar(0)}, "Logistic: scale sigma is 0; it must be positive and finite"},
                       {{scalar(0), scalar(-2)}, "Logistic: scale sigma is -2"},
                   });
}

TEST_CASE("Logistic: draws follow the distribution") {
  const auto& d = dist("Logistic");
  for (auto [mu, sigma] : {std::pair{0.0, 1.0}, {3.0, 0.2}, {-10.0, 25.0}}) {
    INFO("mu = ", mu, ", sigma = ", sigma);
    const bm::logistic_distribution<> reference(mu, sigma);
    check_draws_continuous(d, {scalar(mu), scalar(sigma)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(1), scalar(2)});
}

TEST_CASE("Logistic: gradients match finite differences") {
  const auto& d = dist("Logistic");
  for (double x : {-3.0, 0.2, 4.0, 40.0}) check_gradients(d, {scalar(0.5), scalar(1.5)}, scalar(x));
}

}  // namespace test_logistic
