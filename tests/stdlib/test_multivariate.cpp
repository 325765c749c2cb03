// Dirichlet, MultiNormal and Multinomial: densities against closed forms, marginals of the
// draws against Boost.Math, gradients against finite differences.
#include <boost/math/distributions.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

using namespace ppl::testing;
namespace bm = boost::math;

TEST_CASE("Dirichlet") {
  const auto& d = dist("Dirichlet");
  auto alpha = vec({2.0, 0.5, 3.0});
  auto x = vec({0.2, 0.1, 0.7});
  double expected = std::lgamma(5.5) - std::lgamma(2) - std::lgamma(0.5) - std::lgamma(3) + std::log(0.2) -
                    0.5 * std::log(0.1) + 2 * std::log(0.7);
  CHECK(log_density(d, {alpha}, x) == doctest::Approx(expected));
  CHECK(d.in_support(views({alpha}), x.as_view()));
  CHECK_FALSE(d.in_support(views({alpha}), vec({0.5, 0.5, 0.5}).as_view()));
  CHECK_THROWS_WITH_AS(d.check(views({vec({1.0, -1.0})})), doctest::Contains("Dirichlet: concentration alpha is -1"),
                       ppl::stdlib::parameter_error);
  // Each component of a Dirichlet is Beta(alpha_i, sum - alpha_i).
  bm::beta_distribution<> marginal(0.5, 5.0);
  check_draws_continuous(d, {alpha}, [&](double p) { return bm::quantile(marginal, p); }, 1);
  // Tiny concentrations (LDA's 0.01) still give a simplex, never NaN.
  ppl::runtime::rng rng(1);
  std::vector<double> out(50);
  auto small = vec(std::vector<double>(50, 0.01));
  d.draw(views({small}), rng, out.data());
  double sum = 0;
  for (double v : out) sum += v;
  CHECK(sum == doctest::Approx(1.0));
  check_gradients(d, {alpha}, x);
}

TEST_CASE("MultiNormal") {
  const auto& d = dist("MultiNormal");
  auto mu = vec({1.0, -1.0});
  auto sigma = mat(2, 2, {2.0, 0.6, 0.6, 1.0});
  auto x = vec({0.5, 0.2});
  // Closed form for two dimensions.
  double det = 2.0 * 1.0 - 0.36, r0 = -0.5, r1 = 1.2;
  double quad = (1.0 * r0 * r0 - 2 * 0.6 * r0 * r1 + 2.0 * r1 * r1) / det;
  CHECK(log_density(d, {mu, sigma}, x) == doctest::Approx(-std::log(2 * std::numbers::pi) - 0.5 * std::log(det) - 0.5 * quad));
  CHECK_THROWS_WITH_AS(d.check(views({mu, mat(2, 2, {1.0, 2.0, 2.0, 1.0})})), doctest::Contains("not positive definite"),
                       ppl::stdlib::parameter_error);
  CHECK_THROWS_WITH_AS(d.check(views({vec({0.0, 0.0, 0.0}), sigma})), doctest::Contains("mu has size 3 but Sigma is 2 x 2"),
                       ppl::stdlib::parameter_error);
  bm::normal marginal(-1.0, 1.0);
  check_draws_continuous(d, {mu, sigma}, [&](double p) { return bm::quantile(marginal, p); }, 1);
  check_gradients(d, {mu, sigma}, x);
}

TEST_CASE("Multinomial") {
  const auto& d = dist("Multinomial");
  auto p = vec({0.2, 0.3, 0.5});
  auto x = vec({1.0, 2.0, 3.0});
  double expected = std::log(720.0 / (1 * 2 * 6)) + std::log(0.2) + 2 * std::log(0.3) + 3 * std::log(0.5);
  CHECK(log_density(d, {scalar(6), p}, x) == doctest::Approx(expected));
  CHECK(log_density(d, {scalar(6), p}, vec({1.0, 1.0, 1.0})) == -INFINITY);
  CHECK_THROWS_WITH_AS(d.check(views({scalar(6), vec({0.5, 0.6, 0.1})})), doctest::Contains("does not sum to 1"),
                       ppl::stdlib::parameter_error);
  // The first count is Binomial(n, p_1).
  {
    ppl::runtime::rng rng(5);
    std::vector<double> counts(11, 0.0);
    std::vector<double> out(3);
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      d.draw(views({scalar(10), p}), rng, out.data());
      CHECK(out[0] + out[1] + out[2] == 10);
      counts[static_cast<std::size_t>(out[2])] += 1;
    }
    bm::binomial_distribution<> marginal(10, 0.5);
    double stat = 0;
    for (int k = 0; k <= 10; ++k) {
      double e = n * bm::pdf(marginal, k);
      stat += (counts[static_cast<std::size_t>(k)] - e) * (counts[static_cast<std::size_t>(k)] - e) / e;
    }
    CHECK(stat < chi_square_limit(10));
  }
  check_gradients(d, {scalar(6), p}, x, false);
}
