// Uniform(lower, upper) against Boost.Math's uniform_distribution.
#include <boost/math/distributions/uniform.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_uniform {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// The one term, -log(upper - lower), depends on the bounds: nothing is dropped.
density_case at(double lower, double upper, double x) {
  return {{scalar(lower), scalar(upper)}, scalar(x), std::log(bm::pdf(bm::uniform_distribution<>(lower, upper), x))};
}

}  // namespace

TEST_CASE("Uniform: log densities, with and without constants") {
  check_log_densities(dist("Uniform"), {
                                           at(-1, 3, -0.5), at(-1, 3, 2.9), at(0, 1e-6, 5e-7), at(-1e6, 1e6, 0),
                                           // both bounds belong to the support
                                           at(-1, 3, -1), at(-1, 3, 3),
                                           {{scalar(0), scalar(1)}, scalar(1.5), -INFINITY},
                                           {{scalar(0), scalar(1)}, scalar(-1e-12), -INFINITY},
                                           {{scalar(0), scalar(1)}, scalar(NAN), -INFINITY},
                                       });
}

TEST_CASE("Uniform: signature, support and invalid parameters") {
  const auto& d = dist("Uniform");
  check_real_signature(d, {{"lower", 0}, {"upper", 0}}, 0);
  check_interval_support(d, {scalar(-1), scalar(3)}, -1, 3);
  check_invalid(d, {
                       {{scalar(2), scalar(1)}, "Uniform: lower bound 2 is not below upper bound 1"},
                       {{scalar(1), scalar(1)}, "Uniform: lower bound 1 is not below upper bound 1"},
                       {{scalar(NAN), scalar(1)}, "Uniform: lower bound is nan; it must be finite"},
                       {{scalar(0), scalar(INFINITY)}, "Uniform: upper bound is inf; it must be finite"},
                       {{scalar(-INFINITY), scalar(0)}, "Uniform: lower bound is -inf"},
                   });
}

TEST_CASE("Uniform: draws follow the distribution") {
  const auto& d = dist("Uniform");
  for (auto [lower, upper] : {std::pair{-1.0, 3.0}, {0.0, 1.0}, {1e6, 1e6 + 0.5}}) {
    INFO("lower = ", lower, ", upper = ", upper);
    const bm::uniform_distribution<> reference(lower, upper);
    check_draws_continuous(d, {scalar(lower), scalar(upper)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(-1), scalar(3)});
}

TEST_CASE("Uniform: gradients match finite differences") {
  const auto& d = dist("Uniform");
  for (double x : {-0.5, 2.9}) check_gradients(d, {scalar(-1), scalar(3)}, scalar(x));
  check_gradients(d, {scalar(10), scalar(10.5)}, scalar(10.2));
}

}  // namespace test_uniform
