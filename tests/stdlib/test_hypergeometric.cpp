// Hypergeometric(N, a, b) against Boost.Math's hypergeometric_distribution(r = a,
// n = N, total = a + b).
#include <boost/math/distributions/hypergeometric.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_hypergeometric {

using namespace ppl::testing;

namespace {

// 0 outside max(0, N - b)..min(a, N), where Boost refuses k.
double pmf(unsigned draws, unsigned a, unsigned b, double k) {
  if (k + b < draws || k > a || k > draws) return 0;
  return boost::math::pdf(boost::math::hypergeometric_distribution<>(a, draws, a + b), static_cast<unsigned>(k));
}

// Every term involves the parameters: nothing is dropped.
mass_case at(unsigned draws, unsigned a, unsigned b, double k) {
  return {{scalar(draws), scalar(a), scalar(b)}, scalar(k), std::log(pmf(draws, a, b, k))};
}

}  // namespace

TEST_CASE("Hypergeometric: log masses, with and without constants") {
  check_log_masses(dist("Hypergeometric"), {
                                               at(5, 4, 6, 0), at(5, 4, 6, 2), at(5, 4, 6, 4), at(10, 4, 6, 4),
                                               at(8, 3, 6, 2),  // at least N - b = 2 successes
                                               at(300, 500, 700, 120), at(0, 3, 3, 0),
                                               {{scalar(8), scalar(3), scalar(6)}, scalar(1), -INFINITY},
                                               {{scalar(5), scalar(4), scalar(6)}, scalar(5), -INFINITY},
                                               {{scalar(5), scalar(4), scalar(6)}, scalar(1.5), -INFINITY},
                                           });
}

TEST_CASE("Hypergeometric: the support is max(0, N - b)..min(a, N) and moves with them") {
  const auto& d = dist("Hypergeometric");
  const auto s = d.value_support(views({scalar(8), scalar(3), scalar(6)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 2);
  CHECK(s.upper == 3);
  CHECK(d.support_moves());
  for (const auto& p : d.params()) CHECK(p.kind == ppl::stdlib::scalar_kind::integer);
  check_invalid(d, {
                       {{scalar(12), scalar(4), scalar(6)}, "Hypergeometric: number of draws N is 12; it must be at most a + b = 10"},
                       {{scalar(-1), scalar(4), scalar(6)}, "Hypergeometric: number of draws N is -1"},
                       {{scalar(2), scalar(1.5), scalar(6)}, "Hypergeometric: successes a is 1.5; it must be a non-negative integer"},
                       {{scalar(2), scalar(4), scalar(INFINITY)}, "Hypergeometric: failures b is inf"},
                   });
}

TEST_CASE("Hypergeometric: draws follow the pmf") {
  const auto& d = dist("Hypergeometric");
  struct {
    unsigned draws, a, b;
  } const cases[] = {{5, 4, 6}, {8, 3, 6}, {300, 500, 700}, {20, 400, 5}, {1, 1, 1}};
  for (const auto& c : cases) {
    INFO("N = ", c.draws, ", a = ", c.a, ", b = ", c.b);
    check_draws_pmf(d, {scalar(c.draws), scalar(c.a), scalar(c.b)},
                    [&](long k) { return pmf(c.draws, c.a, c.b, static_cast<double>(k)); }, 0,
                    static_cast<long>(std::min(c.a, c.draws)));
  }
  check_draws_constant(d, {scalar(10), scalar(4), scalar(6)}, 4);  // every ball drawn
  check_draws_reproducible(d, {scalar(5), scalar(4), scalar(6)});
  check_no_integer_gradients(d, {scalar(5), scalar(4), scalar(6)}, scalar(2));
}

}  // namespace test_hypergeometric
