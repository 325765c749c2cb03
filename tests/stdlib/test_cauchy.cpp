// Cauchy(mu, sigma) against Boost.Math's cauchy distribution.
#include <boost/math/distributions/cauchy.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_cauchy {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Dropping constants removes -log(pi).
density_case at(double mu, double sigma, double x) {
  return {{scalar(mu), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::cauchy(mu, sigma), x)), -std::log(std::numbers::pi)};
}

}  // namespace

TEST_CASE("Cauchy: log densities, with and without constants") {
  check_log_densities(dist("Cauchy"), {
                                          at(-1, 0.5, -10), at(-1, 0.5, -1), at(-1, 0.5, 0.3), at(0, 1, 1e8),
                                          at(50, 1e-3, 50.002), at(0, 1e4, -3e4),
                                          {{scalar(0), scalar(1)}, scalar(INFINITY), -INFINITY},
                                          {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                      });
}

TEST_CASE("Cauchy: signature, support and invalid parameters") {
  const auto& d = dist("Cauchy");
  check_real_signature(d, {{"mu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, -INFINITY, INFINITY);
  check_invalid(d, {
                       {{scalar(0), scalar(0)}, "Cauchy: scale sigma is 0; it must be positive and finite"},
                       {{scalar(0), scalar(-3)}, "Cauchy: scale sigma is -3"},
                       {{scalar(0), scalar(NAN)}, "Cauchy: scale sigma is nan"},
                       {{scalar(INFINITY), scalar(1)}, "Cauchy: location mu is inf; it must be finite"},
                       {{scalar(NAN), scalar(1)}, "Cauchy: location mu is nan"},
                   });
}

TEST_CASE("Cauchy: draws follow the distribution") {
  const auto& d = dist("Cauchy");
  for (auto [mu, sigma] : {std::pair{-1.0, 0.5}, {100.0, 20.0}, {0.0, 1e-4}}) {
    INFO("mu = ", mu, ", sigma = ", sigma);
    const bm::cauchy reference(mu, sigma);
    check_draws_continuous(d, {scalar(mu), scalar(sigma)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(-1), scalar(0.5)});
}

TEST_CASE("Cauchy: gradients match finite differences") {
  const auto& d = dist("Cauchy");
  for (double x : {-10.0, -0.8, 0.3}) check_gradients(d, {scalar(-1), scalar(0.5)}, scalar(x));
  check_gradients(d, {scalar(3), scalar(40)}, scalar(-150));
}

}  // namespace test_cauchy
