// Gumbel(mu, beta) against Boost.Math's extreme_value_distribution(location, scale).
#include <boost/math/distributions/extreme_value.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_gumbel {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// No constant to drop.
density_case at(double mu, double beta, double x) {
  return {{scalar(mu), scalar(beta)}, scalar(x), std::log(bm::pdf(bm::extreme_value_distribution<>(mu, beta), x))};
}

}  // namespace

TEST_CASE("Gumbel: log densities, with and without constants") {
  check_log_densities(dist("Gumbel"), {
                                          at(0, 1, 0), at(0, 1, 2.5), at(0, 1, -2.5), at(1.5, 0.3, 1.9),
                                          at(-4, 7, 30), at(2, 0.5, 40),
                                          // far below the mode e^-z dominates: -e^5 - (-5)
                                          {{scalar(0), scalar(1)}, scalar(-5), 5 - std::exp(5.0)},
                                          {{scalar(0), scalar(1)}, scalar(-INFINITY), -INFINITY},
                                          {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                      });
}

TEST_CASE("Gumbel: signature, support and invalid parameters") {
  const auto& d = dist("Gumbel");
  check_real_signature(d, {{"mu", 0}, {"beta", 0}}, 0);
  check_interval_support(d, {scalar(0), scalar(1)}, -INFINITY, INFINITY);
  check_invalid(d, {
                       {{scalar(NAN), scalar(1)}, "Gumbel: location mu is nan; it must be finite"},
                       {{scalar(0), scalar(0)}, "Gumbel: scale beta is 0; it must be positive and finite"},
                       {{scalar(0), scalar(-1)}, "Gumbel: scale beta is -1"},
                   });
}

TEST_CASE("Gumbel: draws follow the distribution") {
  const auto& d = dist("Gumbel");
  for (auto [mu, beta] : {std::pair{0.0, 1.0}, {3.0, 0.2}, {-10.0, 25.0}}) {
    INFO("mu = ", mu, ", beta = ", beta);
    const bm::extreme_value_distribution<> reference(mu, beta);
    check_draws_continuous(d, {scalar(mu), scalar(beta)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(1), scalar(2)});
}

TEST_CASE("Gumbel: gradients match finite differences") {
  const auto& d = dist("Gumbel");
  for (double x : {-2.0, 0.2, 4.0, 9.0}) check_gradients(d, {scalar(0.5), scalar(1.5)}, scalar(x));
}

}  // namespace test_gumbel
