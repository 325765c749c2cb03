// Discrete distributions against Boost.Math pmfs: log masses, parameter errors, draws
// (chi-square) and gradients with respect to the real parameters.
#include <boost/math/distributions.hpp>

#include "tests/stdlib/distribution_checks.hpp"

using namespace ppl::testing;
namespace bm = boost::math;

TEST_CASE("Bernoulli") {
  const auto& d = dist("Bernoulli");
  CHECK(log_density(d, {scalar(0.3)}, scalar(1)) == doctest::Approx(std::log(0.3)));
  CHECK(log_density(d, {scalar(0.3)}, scalar(0)) == doctest::Approx(std::log(0.7)));
  CHECK(log_density(d, {scalar(0.3)}, scalar(2)) == -INFINITY);
  CHECK_THROWS_WITH_AS(d.check(views({scalar(1.5)})), "Bernoulli: probability p is 1.5; it must be in [0, 1]", ppl::stdlib::parameter_error);
  check_draws_discrete(d, {scalar(0.3)}, [](long k) { return k == 1 ? 0.3 : 0.7; }, 0, 1);
  check_gradients(d, {scalar(0.3)}, scalar(1), false);
  check_gradients(d, {scalar(0.3)}, scalar(0), false);
}

TEST_CASE("Binomial") {
  const auto& d = dist("Binomial");
  bm::binomial_distribution<> ref(12, 0.35);
  for (long k : {0L, 3L, 12L})
    CHECK(log_density(d, {scalar(12), scalar(0.35)}, scalar(static_cast<double>(k))) == doctest::Approx(std::log(bm::pdf(ref, k))));
  CHECK(log_density(d, {scalar(12), scalar(0.0)}, scalar(0)) == 0);  // 0 log 0 is 0
  CHECK(log_density(d, {scalar(12), scalar(0.35)}, scalar(13)) == -INFINITY);
  CHECK_THROWS_WITH_AS(d.check(views({scalar(-1), scalar(0.5)})), doctest::Contains("number of trials n is -1"), ppl::stdlib::parameter_error);
  check_draws_discrete(d, {scalar(12), scalar(0.35)}, [&](long k) { return bm::pdf(ref, k); }, 0, 12);
  check_gradients(d, {scalar(12), scalar(0.35)}, scalar(5), false);
}

TEST_CASE("Poisson") {
  const auto& d = dist("Poisson");
  bm::poisson_distribution<> ref(3.7);
  for (long k : {0L, 2L, 9L}) CHECK(log_density(d, {scalar(3.7)}, scalar(static_cast<double>(k))) == doctest::Approx(std::log(bm::pdf(ref, k))));
  CHECK(log_density(d, {scalar(3.7)}, scalar(-1)) == -INFINITY);
  CHECK(log_density(d, {scalar(3.7)}, scalar(1.5)) == -INFINITY);
  CHECK_THROWS_WITH_AS(d.check(views({scalar(-2)})), doctest::Contains("Poisson: rate lambda is -2"), ppl::stdlib::parameter_error);
  check_draws_discrete(d, {scalar(3.7)}, [&](long k) { return bm::pdf(ref, k); }, 0, 15);
  check_gradients(d, {scalar(3.7)}, scalar(4), false);
}

TEST_CASE("NegativeBinomial") {
  const auto& d = dist("NegativeBinomial");
  // Stan's neg_binomial(alpha, beta) is Boost's negative_binomial(r = alpha, p = beta / (1 + beta)).
  bm::negative_binomial_distribution<> ref(2.5, 0.4 / 1.4);
  for (long k : {0L, 4L, 20L})
    CHECK(log_density(d, {scalar(2.5), scalar(0.4)}, scalar(static_cast<double>(k))) == doctest::Approx(std::log(bm::pdf(ref, k))));
  CHECK_THROWS_WITH_AS(d.check(views({scalar(0), scalar(1)})), doctest::Contains("NegativeBinomial: shape alpha is 0"), ppl::stdlib::parameter_error);
  check_draws_discrete(d, {scalar(2.5), scalar(0.4)}, [&](long k) { return bm::pdf(ref, k); }, 0, 30);
  check_gradients(d, {scalar(2.5), scalar(0.4)}, scalar(6), false);
}

TEST_CASE("Categorical") {
  const auto& d = dist("Categorical");
  auto p = vec({0.1, 0.6, 0.3});
  CHECK(log_density(d, {p}, scalar(2)) == doctest::Approx(std::log(0.6)));
  CHECK(log_density(d, {p}, scalar(0)) == -INFINITY);
  CHECK(log_density(d, {p}, scalar(4)) == -INFINITY);
  CHECK(d.value_support(views({p})).upper == 3);
  CHECK_THROWS_WITH_AS(d.check(views({vec({0.5, 0.4})})), "Categorical: probabilities p does not sum to 1 (sum 0.9)", ppl::stdlib::parameter_error);
  CHECK_THROWS_WITH_AS(d.check(views({vec({1.5, -0.5})})), doctest::Contains("has an entry -0.5"), ppl::stdlib::parameter_error);
  check_draws_discrete(d, {p}, [&](long k) { return p.data[static_cast<std::size_t>(k - 1)]; }, 1, 3);
  check_gradients(d, {p}, scalar(3), false);
}

TEST_CASE("Spin") {
  const auto& d = dist("Spin");
  CHECK(log_density(d, {}, scalar(1)) == doctest::Approx(-std::log(2.0)));
  CHECK(log_density(d, {}, scalar(-1)) == doctest::Approx(-std::log(2.0)));
  CHECK(log_density(d, {}, scalar(0)) == -INFINITY);
  CHECK_FALSE(d.in_support({}, scalar(0).as_view()));
  check_draws_discrete(d, {}, [](long k) { return k == -1 || k == 1 ? 0.5 : 0.0; }, -1, 1);
}
