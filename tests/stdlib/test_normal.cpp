// Normal(mu, sigma) against Boost.Math's normal distribution.
#include <boost/math/distributions/normal.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_normal {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Dropping constants removes -log(2 pi) / 2.
density_case at(double mu, double sigma, double x) {
  return {{scalar(mu), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::normal(mu, sigma), x)),
          -0.5 * std::log(2 * std::numbers::pi)};
}

}  // namespace

TEST_CASE("Normal: log densities, with and without constants") {
  check_log_densities(dist("Normal"), {
                                          at(1.5, 2, -3), at(1.5, 2, 1.5), at(1.5, 2, 7), at(0, 1, 30),
                                          at(0, 1e-3, 2e-3), at(-40, 100, 250), at(1e6, 0.5, 1e6 + 1),
                                          {{scalar(0), scalar(1)}, scalar(INFINITY), -INFINITY},
                                          {{scalar(0), scalar(1)}, scalar(-INFINITY), -INFINITY},
                                          {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                      });
}

TEST_CASE("Normal: signature, support and invalid parameters") {
  const auto& d = dist("Normal");
  check_real_signature(d, {{"mu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, -INFINITY, INFINITY);
  CHECK_NOTHROW(d.check(views({scalar(-1e300), scalar(1e-300)})));
  check_invalid(d, {
                       {{scalar(0), scalar(-1)}, "Normal: scale sigma is -1; it must be positive and finite"},
                       {{scalar(0), scalar(0)}, "Normal: scale sigma is 0"},
                       {{scalar(0), scalar(INFINITY)}, "Normal: scale sigma is inf"},
                       {{scalar(0), scalar(NAN)}, "Normal: scale sigma is nan"},
                       {{scalar(NAN), scalar(1)}, "Normal: location mu is nan; it must be finite"},
                       {{scalar(-INFINITY), scalar(1)}, "Normal: location mu is -inf"},
                   });
}

TEST_CASE("Normal: draws follow the distribution") {
  const auto& d = dist("Normal");
  for (auto [mu, sigma] : {std::pair{1.5, 2.0}, {0.0, 1.0}, {-1e3, 1e-3}, {4.0, 250.0}}) {
    INFO("mu = ", mu, ", sigma = ", sigma);
    const bm::normal reference(mu, sigma);
    check_draws_continuous(d, {scalar(mu), scalar(sigma)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(1), scalar(2)});
}

TEST_CASE("Normal: gradients match finite differences") {
  const auto& d = dist("Normal");
  for (double x : {-3.0, 1.5, 7.0}) check_gradients(d, {scalar(1.5), scalar(2)}, scalar(x));
  check_gradients(d, {scalar(-40), scalar(100)}, scalar(250));
  check_gradients(d, {scalar(0), scalar(0.01)}, scalar(0.003));
}

}  // namespace test_normal
