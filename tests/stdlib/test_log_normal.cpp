// LogNormal(mu, sigma) against Boost.Math's lognormal distribution.
#include <boost/math/distributions/lognormal.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_log_normal {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Dropping constants removes -log(2 pi) / 2; the Jacobian term -log x depends on x and
// stays.
density_case at(double mu, double sigma, double x) {
  return {{scalar(mu), scalar(sigma)}, scalar(x), std::log(bm::pdf(bm::lognormal(mu, sigma), x)),
          -0.5 * std::log(2 * std::numbers::pi)};
}

}  // namespace

TEST_CASE("LogNormal: log densities, with and without constants") {
  check_log_densities(dist("LogNormal"), {
                                             at(0.3, 0.8, 0.1), at(0.3, 0.8, 1.3), at(0.3, 0.8, 6), at(-5, 0.1, 0.007),
                                             at(10, 3, 1e6), at(0, 1, 1e-6),
                                             // the density tends to 0 at 0
                                             {{scalar(0), scalar(1)}, scalar(0), -INFINITY},
                                             {{scalar(0), scalar(1)}, scalar(-1), -INFINITY},
                                             {{scalar(0), scalar(1)}, scalar(INFINITY), -INFINITY},
                                             {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                         });
}

TEST_CASE("LogNormal: signature, support and invalid parameters") {
  const auto& d = dist("LogNormal");
  check_real_signature(d, {{"mu", 0}, {"sigma", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(INFINITY), scalar(1)}, "LogNormal: location mu is inf; it must be finite"},
                       {{scalar(NAN), scalar(1)}, "LogNormal: location mu is nan"},
                       {{scalar(0), scalar(0)}, "LogNormal: scale sigma is 0; it must be positive and finite"},
                       {{scalar(0), scalar(-0.5)}, "LogNormal: scale sigma is -0.5"},
                       {{scalar(0), scalar(NAN)}, "LogNormal: scale sigma is nan"},
                   });
}

TEST_CASE("LogNormal: draws follow the distribution") {
  const auto& d = dist("LogNormal");
  for (auto [mu, sigma] : {std::pair{0.3, 0.8}, {-2.0, 2.0}, {8.0, 0.05}}) {
    INFO("mu = ", mu, ", sigma = ", sigma);
    const bm::lognormal reference(mu, sigma);
    check_draws_continuous(d, {scalar(mu), scalar(sigma)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(0.3), scalar(0.8)});
}

TEST_CASE("LogNormal: gradients match finite differences") {
  const auto& d = dist("LogNormal");
  for (double x : {0.1, 1.3, 6.0}) check_gradients(d, {scalar(0.3), scalar(0.8)}, scalar(x));
  check_gradients(d, {scalar(-5), scalar(0.1)}, scalar(0.007));
}

}  // namespace test_log_normal
