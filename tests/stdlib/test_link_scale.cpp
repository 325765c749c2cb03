// The log-odds and log-rate forms, BernoulliLogit, BinomialLogit and PoissonLog, against
// their plain forms at moderate parameters (Boost.Math), and finite where the plain forms
// round to log 0: inv_logit(40) is 1 and exp(-800) is 0 in doubles.
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/poisson.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_link_scale {

using namespace ppl::testing;

namespace {

double inv_logit(double a) { return 1 / (1 + std::exp(-a)); }

}  // namespace

TEST_CASE("BernoulliLogit: log masses on the log-odds scale, finite far out") {
  const auto& d = dist("BernoulliLogit");
  std::vector<mass_case> cases;
  for (double a : {-3.0, -0.2, 0.0, 1.7})
    for (double k : {0.0, 1.0}) cases.push_back({{scalar(a)}, scalar(k), std::log(k == 1 ? inv_logit(a) : 1 - inv_logit(a))});
  // log inv_logit(-40) = -40 - log1p(e^-40); Bernoulli(inv_logit(40)) would give log 0.
  cases.push_back({{scalar(40)}, scalar(0), -40 - std::log1p(std::exp(-40.0))});
  cases.push_back({{scalar(-800)}, scalar(1), -800});
  cases.push_back({{scalar(800)}, scalar(1), 0});
  for (double k : {2.0, -1.0, 0.5}) cases.push_back({{scalar(0.3)}, scalar(k), -INFINITY});
  check_log_masses(d, cases);
  check_invalid(d, {{{scalar(NAN)}, "BernoulliLogit: log-odds alpha is nan"}});
  CHECK_NOTHROW(d.check(views({scalar(INFINITY)})));
}

TEST_CASE("BernoulliLogit: plate sums, draws and the gradient") {
  const auto& d = dist("BernoulliLogit");
  const std::vector<double> values = {1, 0, 0, 1, 1};
  const tensor a = scalar(45);
  CHECK(d.log_density_sum(views({a}), values.data(), 5) == doctest::Approx(2 * (-45 - std::log1p(std::exp(-45.0)))));
  for (double alpha : {-1.2, 0.4, 3.0}) {
    INFO("alpha = ", alpha);
    check_draws_pmf(d, {scalar(alpha)}, [alpha](long k) { return k == 1 ? inv_logit(alpha) : 1 - inv_logit(alpha); }, 0, 1);
    for (double k : {0.0, 1.0}) check_gradients(d, {scalar(alpha)}, scalar(k), false);
  }
  check_draws_reproducible(d, {scalar(0.5)});
}

TEST_CASE("BinomialLogit: log masses, draws and gradient") {
  const auto& d = dist("BinomialLogit");
  auto at = [](double n, double a, double k) {
    const double exact = std::log(boost::math::pdf(boost::math::binomial_distribution<>(n, inv_logit(a)), k));
    return mass_case{{scalar(n), scalar(a)}, scalar(k), exact, std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1)};
  };
  check_log_masses(d, {at(12, -0.6, 0), at(12, -0.6, 4), at(12, 1.1, 12), at(0, 2.0, 0),
                       {{scalar(10), scalar(50)}, scalar(9), std::log(10.0) - 50 - 9 * std::log1p(std::exp(-50.0)), std::log(10.0)},
                       {{scalar(12), scalar(0.3)}, scalar(13), -INFINITY}});
  CHECK(d.support_moves());
  for (double alpha : {-0.7, 1.5}) {
    check_draws_pmf(d, {scalar(8), scalar(alpha)},
                    [alpha](long k) { return boost::math::pdf(boost::math::binomial_distribution<>(8, inv_logit(alpha)), k); }, 0, 8);
    check_gradients(d, {scalar(8), scalar(alpha)}, scalar(3), false);
  }
  check_no_integer_gradients(d, {scalar(8), scalar(0.3)}, scalar(3));
  check_invalid(d, {{{scalar(-1), scalar(0.3)}, "BinomialLogit: number of trials n is -1"},
                    {{scalar(4), scalar(NAN)}, "BinomialLogit: log-odds alpha is nan"}});
}

TEST_CASE("PoissonLog: log masses on the log-rate scale, draws and gradient") {
  const auto& d = dist("PoissonLog");
  auto at = [](double a, double k) {
    return mass_case{{scalar(a)}, scalar(k), std::log(boost::math::pdf(boost::math::poisson_distribution<>(std::exp(a)), k)),
                     -std::lgamma(k + 1)};
  };
  // exp(-800) underflows: Poisson(exp(-800)) gives log 0 for a count of 1, PoissonLog -800.
  check_log_masses(d, {at(0.3, 0), at(0.3, 2), at(2.5, 11), {{scalar(-800)}, scalar(1), -800, 0}, {{scalar(-800)}, scalar(0), 0, 0},
                       {{scalar(1.0)}, scalar(-1), -INFINITY}, {{scalar(1.0)}, scalar(0.5), -INFINITY}});
  for (double alpha : {-0.5, 1.8}) {
    check_draws_pmf(d, {scalar(alpha)}, [alpha](long k) { return boost::math::pdf(boost::math::poisson_distribution<>(std::exp(alpha)), k); },
                    0, 40);
    check_gradients(d, {scalar(alpha)}, scalar(4), false);
  }
  check_invalid(d, {{{scalar(NAN)}, "PoissonLog: log rate alpha is nan"}, {{scalar(INFINITY)}, "PoissonLog: log rate alpha is inf"}});
  CHECK_NOTHROW(d.check(views({scalar(-INFINITY)})));
}

}  // namespace test_link_scale
