// Beta(a, b) against Boost.Math's beta_distribution.
#include <boost/math/distributions/beta.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_beta {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Every term involves a, b or x: nothing is dropped.
density_case at(double a, double b, double x) {
  return {{scalar(a), scalar(b)}, scalar(x), std::log(bm::pdf(bm::beta_distribution<>(a, b), x))};
}

}  // namespace

TEST_CASE("Beta: log densities, with and without constants") {
  const double log_3 = std::log(3.0);
  check_log_densities(dist("Beta"), {
                                        at(2.5, 1.5, 0.05), at(2.5, 1.5, 0.5), at(2.5, 1.5, 0.93), at(0.1, 0.1, 1e-9),
                                        at(0.5, 0.5, 0.999), at(400, 100, 0.79), at(1, 1, 0.3),
                                        // the edges 0 and 1 belong to the support
                                        {{scalar(1), scalar(1)}, scalar(0), 0.0},
                                        {{scalar(1), scalar(1)}, scalar(1), 0.0},
                                        {{scalar(1), scalar(3)}, scalar(0), log_3},
                                        {{scalar(3), scalar(1)}, scalar(1), log_3},
                                        {{scalar(2), scalar(2)}, scalar(0), -INFINITY},
                                        {{scalar(2), scalar(2)}, scalar(1), -INFINITY},
                                        {{scalar(0.5), scalar(2)}, scalar(0), INFINITY},
                                        {{scalar(2), scalar(0.5)}, scalar(1), INFINITY},
                                        {{scalar(2), scalar(2)}, scalar(1.2), -INFINITY},
                                        {{scalar(2), scalar(2)}, scalar(-0.1), -INFINITY},
                                        {{scalar(2), scalar(2)}, scalar(NAN), -INFINITY},
                                    });
}

TEST_CASE("Beta: signature, support and invalid parameters") {
  const auto& d = dist("Beta");
  check_real_signature(d, {{"a", 0}, {"b", 0}}, 0);
  check_interval_support(d, {scalar(2), scalar(2)}, 0, 1);
  check_invalid(d, {
                       {{scalar(-1), scalar(1)}, "Beta: shape a is -1; it must be positive and finite"},
                       {{scalar(0), scalar(1)}, "Beta: shape a is 0"},
                       {{scalar(NAN), scalar(1)}, "Beta: shape a is nan"},
                       {{scalar(1), scalar(0)}, "Beta: shape b is 0; it must be positive and finite"},
                       {{scalar(1), scalar(INFINITY)}, "Beta: shape b is inf"},
                   });
}

TEST_CASE("Beta: draws follow the distribution") {
  const auto& d = dist("Beta");
  for (auto [a, b] : {std::pair{2.5, 1.5}, {1.0, 1.0}, {0.5, 0.5}, {0.05, 0.3}, {300.0, 20.0}}) {
    INFO("a = ", a, ", b = ", b);
    const bm::beta_distribution<> reference(a, b);
    check_draws_continuous(d, {scalar(a), scalar(b)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(2.5), scalar(1.5)});
}

// Both gammas behind a draw may underflow for shapes near 0.01; the draw is still in [0, 1].
TEST_CASE("Beta: draws with tiny shapes are never NaN") {
  const auto& d = dist("Beta");
  const std::vector<tensor> params = {scalar(0.01), scalar(0.01)};
  ppl::rng rng(4);
  for (int i = 0; i < 200000; ++i) {
    double x = NAN;
    d.draw(views(params), rng, &x);
    REQUIRE(d.in_support(views(params), scalar(x).as_view()));
  }
}

TEST_CASE("Beta: gradients match finite differences") {
  const auto& d = dist("Beta");
  for (double x : {0.05, 0.5, 0.93}) check_gradients(d, {scalar(2.5), scalar(1.5)}, scalar(x));
  check_gradients(d, {scalar(0.3), scalar(0.7)}, scalar(0.2));
  check_gradients(d, {scalar(1), scalar(1)}, scalar(0.4));
}

}  // namespace test_beta
