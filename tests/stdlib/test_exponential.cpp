// Exponential(lambda), lambda a rate, against Boost.Math's exponential distribution.
#include <boost/math/distributions/exponential.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_exponential {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// log(lambda) - lambda x has no term free of both lambda and x: nothing is dropped.
density_case at(double lambda, double x) {
  return {{scalar(lambda)}, scalar(x), std::log(bm::pdf(bm::exponential(lambda), x))};
}

}  // namespace

TEST_CASE("Exponential: log densities, with and without constants") {
  check_log_densities(dist("Exponential"), {
                                               at(2.5, 0.01), at(2.5, 0.5), at(2.5, 3), at(2.5, 0), at(1e-4, 2e4),
                                               at(1e3, 0.2),
                                               {{scalar(1)}, scalar(-0.1), -INFINITY},
                                               {{scalar(1)}, scalar(INFINITY), -INFINITY},
                                               {{scalar(1)}, scalar(NAN), -INFINITY},
                                           });
}

TEST_CASE("Exponential: signature, support and invalid parameters") {
  const auto& d = dist("Exponential");
  check_real_signature(d, {{"lambda", 0}}, 0);
  check_interval_support(d, {scalar(1)}, 0, INFINITY);
  check_invalid(d, {
                       {{scalar(-3)}, "Exponential: rate lambda is -3; it must be positive and finite"},
                       {{scalar(0)}, "Exponential: rate lambda is 0"},
                       {{scalar(INFINITY)}, "Exponential: rate lambda is inf"},
                       {{scalar(NAN)}, "Exponential: rate lambda is nan"},
                   });
}

TEST_CASE("Exponential: draws follow the distribution") {
  const auto& d = dist("Exponential");
  for (double lambda : {2.5, 1e-3, 1e3}) {
    INFO("lambda = ", lambda);
    const bm::exponential reference(lambda);
    check_draws_continuous(d, {scalar(lambda)}, [=](double p) { return bm::quantile(reference, p); });
  }
  check_draws_reproducible(d, {scalar(2.5)});
}

TEST_CASE("Exponential: gradients match finite differences") {
  const auto& d = dist("Exponential");
  for (double x : {0.01, 0.5, 3.0}) check_gradients(d, {scalar(2.5)}, scalar(x));
  check_gradients(d, {scalar(0.01)}, scalar(250));
}

}  // namespace test_exponential
