// Geometric(p), failures before the first success, against Boost.Math's
// geometric_distribution.
#include <boost/math/distributions/geometric.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_geometric {

using namespace ppl::testing;

namespace {

double pmf(double p, double k) { return boost::math::pdf(boost::math::geometric_distribution<>(p), k); }

// No constants.
mass_case at(double p, double k) { return {{scalar(p)}, scalar(k), std::log(pmf(p, k))}; }

}  // namespace

TEST_CASE("Geometric: log masses, with and without constants") {
  check_log_masses(dist("Geometric"), {
                                          at(0.3, 0), at(0.3, 1), at(0.3, 12), at(0.01, 250), at(0.9, 3),
                                          {{scalar(1.0)}, scalar(0), 0},  // p = 1: the point mass at 0
                                          {{scalar(1.0)}, scalar(2), -INFINITY},
                                          {{scalar(0.3)}, scalar(-1), -INFINITY},
                                          {{scalar(0.3)}, scalar(1.5), -INFINITY},
                                          {{scalar(0.3)}, scalar(INFINITY), -INFINITY},
                                      });
}

TEST_CASE("Geometric: a plate's sum equals the sum of its terms") {
  const auto& d = dist("Geometric");
  const std::vector<double> counts = {0, 3, 1, 7, 0};
  double expected = 0;
  for (double k : counts) expected += std::log(pmf(0.3, k));
  CHECK(d.log_density_sum(views({scalar(0.3)}), counts.data(), 5) == doctest::Approx(expected).epsilon(1e-12));
  const std::vector<double> bad = {1, -1};
  CHECK(d.log_density_sum(views({scalar(0.3)}), bad.data(), 2) == -INFINITY);
}

TEST_CASE("Geometric: support and invalid parameters") {
  const auto& d = dist("Geometric");
  const auto s = d.value_support(views({scalar(0.5)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == INFINITY);
  check_invalid(d, {
                       {{scalar(0)}, "Geometric: probability p is 0; it must be in (0, 1]"},
                       {{scalar(1.5)}, "Geometric: probability p is 1.5"},
                       {{scalar(NAN)}, "Geometric: probability p is nan"},
                   });
}

TEST_CASE("Geometric: draws follow the pmf") {
  const auto& d = dist("Geometric");
  for (double p : {0.3, 0.9, 0.02}) {
    INFO("p = ", p);
    check_draws_pmf(d, {scalar(p)}, [=](long k) { return pmf(p, static_cast<double>(k)); }, 0, 400);
  }
  check_draws_constant(d, {scalar(1.0)}, 0);
  check_draws_reproducible(d, {scalar(0.3)});
}

TEST_CASE("Geometric: gradient in p matches finite differences") {
  const auto& d = dist("Geometric");
  for (double k : {0.0, 1.0, 9.0}) check_gradients(d, {scalar(0.3)}, scalar(k), false);
  check_no_integer_gradients(d, {scalar(0.3)}, scalar(4));
}

}  // namespace test_geometric
