// Pareto(y_min, alpha) against Boost.Math's pareto_distribution(scale = y_min, shape = alpha).
#include <boost/math/distributions/pareto.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_pareto {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// No constant to drop.
density_case at(double y_min, double alpha, double x) {
  return {{scalar(y_min), scalar(alpha)}, scalar(x), std::log(bm::pdf(bm::pareto_distribution<>(y_min, alpha), x))};
}

}  // namespace

TEST_CASE("Pareto: log densities, with and without constants") {
  check_log_densities(dist("Pareto"), {
                                          at(1, 2, 1), at(1, 2, 1.5), at(1, 2, 100), at(0.01, 0.5, 3),
                                          at(5, 30, 5.2),
                                          {{scalar(1), scalar(2)}, scalar(0.999), -INFINITY},
                                          {{scalar(1), scalar(2)}, scalar(-1), -INFINITY},
                                          {{scalar(1), scalar(2)}, scalar(INFINITY), -INFINITY},
                                          {{scalar(1), scalar(2)}, scalar(NAN), -INFINITY},
                                      });
}

TEST_CASE("Pareto: the support starts at y_min and moves with it") {
  const auto& d = dist("Pareto");
  check_real_signature(d, {{"y_min", 0}, {"alpha", 0}}, 0);
  check_interval_support(d, {scalar(2.5), scalar(1)}, 2.5, INFINITY);
  CHECK(d.support_moves());
  check_invalid(d, {
                       {{scalar(0), scalar(1)}, "Pareto: lower bound y_min is 0; it must be positive and finite"},
                       {{scalar(-1), scalar(1)}, "Pareto: lower bound y_min is -1"},
                       {{scalar(1), scalar(0)}, "Pareto: shape alpha is 0; it must be positive and finite"},
                       {{scalar(1), scalar(NAN)}, "Pareto: shape alpha is nan"},
                   });
}

TEST_CASE("Pareto: draws follow the distribution") {
  const auto& d = dist("Pareto");
  for (auto [y_min, alpha] : {std::pair{1.0, 2.0}, {0.01, 0.5}, {5.0, 30.0}}) {
    INFO("y_min = ", y_min, ", alpha = ", alpha);
    const bm::pareto_distribution<> reference(y_min, alpha);
    check_draws_continuous(d, {scalar(y_min), scalar(alpha)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(1), scalar(2)});
}

TEST_CASE("Pareto: gradients match finite differences") {
  const auto& d = dist("Pareto");
  for (double x : {1.2, 3.0, 50.0}) check_gradients(d, {scalar(1), scalar(2.5)}, scalar(x));
  check_gradients(d, {scalar(0.2), scalar(0.3)}, scalar(0.7));
}

}  // namespace test_pareto
