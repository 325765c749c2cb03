// Binomial(n, p) against Boost.Math's binomial_distribution.
#include <boost/math/distributions/binomial.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_binomial {

using namespace ppl::testing;

namespace {

double pmf(double n, double p, double k) { return boost::math::pdf(boost::math::binomial_distribution<>(n, p), k); }

// The binomial coefficient, which is all that dropping constants removes.
double log_choose(double n, double k) { return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1); }

mass_case at(double n, double p, double k) {
  return {{scalar(n), scalar(p)}, scalar(k), std::log(pmf(n, p, k)), log_choose(n, k)};
}

}  // namespace

TEST_CASE("Binomial: log masses, with and without constants") {
  check_log_masses(dist("Binomial"), {
                                         at(12, 0.35, 0), at(12, 0.35, 3), at(12, 0.35, 12),
                                         at(1, 0.5, 1), at(0, 0.3, 0), at(50, 0.02, 1),
                                         at(1000, 0.7, 690), at(1000, 0.7, 600),
                                         // p at the edges: the point masses at 0 and n
                                         at(12, 0.0, 0), at(12, 1.0, 12),
                                         {{scalar(12), scalar(0.0)}, scalar(3), -INFINITY},
                                         {{scalar(12), scalar(1.0)}, scalar(11), -INFINITY},
                                         // outside the support 0..n
                                         {{scalar(12), scalar(0.35)}, scalar(13), -INFINITY},
                                         {{scalar(12), scalar(0.35)}, scalar(-1), -INFINITY},
                                         {{scalar(12), scalar(0.35)}, scalar(2.5), -INFINITY},
                                     });
}

TEST_CASE("Binomial: support and invalid parameters") {
  const auto& d = dist("Binomial");
  const auto s = d.value_support(views({scalar(12), scalar(0.3)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 0);
  CHECK(s.upper == 12);
  CHECK(d.params()[0].kind == ppl::stdlib::scalar_kind::integer);
  CHECK(d.params()[1].kind == ppl::stdlib::scalar_kind::real);
  CHECK_NOTHROW(d.check(views({scalar(0), scalar(1)})));
  check_invalid(d, {
                       {{scalar(-1), scalar(0.5)},
                        "Binomial: number of trials n is -1; it must be a non-negative integer"},
                       {{scalar(2.5), scalar(0.5)}, "Binomial: number of trials n is 2.5"},
                       {{scalar(INFINITY), scalar(0.5)}, "Binomial: number of trials n is inf"},
                       // a draw converts n to an integer: undefined for 1e300
                       {{scalar(1e300), scalar(0.5)}, "Binomial: number of trials n is 1e+300; it must be at most 2^53"},
                       {{scalar(10), scalar(1.5)}, "Binomial: probability p is 1.5; it must be in [0, 1]"},
                       {{scalar(10), scalar(-0.5)}, "Binomial: probability p is -0.5"},
                       {{scalar(10), scalar(NAN)}, "Binomial: probability p is nan"},
                   });
}

TEST_CASE("Binomial: draws follow the pmf") {
  const auto& d = dist("Binomial");
  // Boost.Random inverts the cdf for small n p and uses BTRD above; p > 1/2 is reflected.
  struct {
    double n, p;
  } const cases[] = {{12, 0.35}, {100, 0.3}, {20, 0.9}, {1, 0.5}, {400, 0.01}};
  for (const auto& c : cases) {
    INFO("n = ", c.n, ", p = ", c.p);
    check_draws_pmf(d, {scalar(c.n), scalar(c.p)}, [&](long k) { return pmf(c.n, c.p, static_cast<double>(k)); }, 0,
                    static_cast<long>(c.n));
  }
  check_draws_constant(d, {scalar(10), scalar(0.0)}, 0);
  check_draws_constant(d, {scalar(10), scalar(1.0)}, 10);
  check_draws_constant(d, {scalar(0), scalar(0.4)}, 0);
  check_draws_reproducible(d, {scalar(30), scalar(0.4)});
}

TEST_CASE("Binomial: gradient in p matches finite differences") {
  const auto& d = dist("Binomial");
  for (double k : {0.0, 5.0, 12.0}) check_gradients(d, {scalar(12), scalar(0.35)}, scalar(k), false);
  check_gradients(d, {scalar(200), scalar(0.6)}, scalar(130), false);
  // At p = 0 only the failures contribute: d/dp (n log(1 - p)) = -n, not 0/0.
  double dp = 0;
  ppl::stdlib::gradient_out g;
  g.params[1] = &dp;
  d.log_density(views({scalar(12), scalar(0.0)}), scalar(0).as_view(), true, &g);
  CHECK(dp == -12);
  check_no_integer_gradients(d, {scalar(12), scalar(0.35)}, scalar(4));
}

}  // namespace test_binomial
