// Dirichlet(alpha): densities against a product of Boost.Math beta densities (stick
// breaking), draws against the Beta marginals, gradients against finite differences.
#include <boost/math/distributions/beta.hpp>
#include <numeric>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_dirichlet {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// Breaking a stick: x_i / (what x_1..x_{i-1} leave) ~ Beta(alpha_i, alpha_{i+1} + ...),
// independently, so the density is a product of betas over the stick lengths left.
double stick_breaking_log_density(const std::vector<double>& alpha, const std::vector<double>& x) {
  double left = 1, rest = std::accumulate(alpha.begin(), alpha.end(), 0.0), lp = 0;
  for (std::size_t i = 0; i + 1 < alpha.size(); ++i) {
    rest -= alpha[i];
    lp += std::log(bm::pdf(bm::beta_distribution<>(alpha[i], rest), x[i] / left) / left);
    left -= x[i];
  }
  return lp;
}

// Every term involves alpha or x: nothing is dropped.
density_case at(const std::vector<double>& alpha, const std::vector<double>& x) {
  return {{vec(alpha)}, vec(x), stick_breaking_log_density(alpha, x)};
}

density_case outside(const std::vector<double>& alpha, const std::vector<double>& x, double expected = -INFINITY) {
  return {{vec(alpha)}, vec(x), expected};
}

// Component i of a Dirichlet is Beta(alpha_i, sum - alpha_i); a sum of components is
// Beta(their alphas' sum, the rest). A component whose draws crowd against 1 (0.5 against
// 0.03) is tested through the sum of the others, which doubles resolve near 0.
void check_marginals(const std::vector<double>& alpha, unsigned seed) {
  const double total = std::accumulate(alpha.begin(), alpha.end(), 0.0);
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    INFO("component ", i);
    const bool complement = alpha[i] > 10 * (total - alpha[i]);
    const bm::beta_distribution<> marginal = complement ? bm::beta_distribution<>(total - alpha[i], alpha[i])
                                                        : bm::beta_distribution<>(alpha[i], total - alpha[i]);
    const std::size_t k = alpha.size();
    check_statistic_draws(
        dist("Dirichlet"), {vec(alpha)},
        [=](const double* x) {
          if (!complement) return x[i];
          double rest = 0;
          for (std::size_t j = 0; j < k; ++j)
            if (j != i) rest += x[j];
          return rest;
        },
        [=](double p) { return bm::quantile(marginal, p); }, 20000, 20, seed + static_cast<unsigned>(i));
  }
  const bm::beta_distribution<> pair(alpha[0] + alpha[1], total - alpha[0] - alpha[1]);
  check_statistic_draws(dist("Dirichlet"), {vec(alpha)}, [](const double* x) { return x[0] + x[1]; },
                        [=](double p) { return bm::quantile(pair, p); }, 20000, 20, seed + 100);
}

}  // namespace

TEST_CASE("Dirichlet: log densities, with and without constants") {
  check_log_densities(dist("Dirichlet"), {
                                             at({2, 0.5, 3}, {0.2, 0.1, 0.7}), at({1, 1, 1}, {0.3, 0.3, 0.4}),
                                             at({0.01, 0.02, 0.5}, {1e-40, 1e-20, 1 - 1e-20}),
                                             at({50, 20, 30, 10}, {0.45, 0.15, 0.3, 0.1}), at({2.5, 4}, {0.35, 0.65}),
                                             // entries of 0 belong to the simplex
                                             at({1, 2, 3}, {0, 0.5, 0.5}),
                                             outside({0.5, 2}, {0, 1}, INFINITY),
                                             outside({2, 2}, {0, 1}),
                                         });
  CHECK(stick_breaking_log_density({1, 2, 3}, {0, 0.5, 0.5}) == doctest::Approx(std::log(7.5)));
}

TEST_CASE("Dirichlet: the support is the simplex of alpha's size") {
  const auto& d = dist("Dirichlet");
  check_real_signature(d, {{"alpha", 1}}, 1);
  const std::vector<tensor> params = {vec({2, 0.5, 3})};
  CHECK(d.value_support(views(params)).kind == ppl::stdlib::support_kind::simplex);
  CHECK(d.value_shape(std::vector<shape>{shape::vector(3)}) == shape::vector(3));
  CHECK(d.in_support(views(params), vec({0.2, 0.1, 0.7}).as_view()));
  CHECK(d.in_support(views(params), vec({0.2, 0.1, 0.7 + 5e-9}).as_view()));
  CHECK(d.in_support(views(params), vec({0, 0, 1}).as_view()));
  const std::vector<tensor> off = {vec({0.5, 0.5, 0.5}), vec({-0.1, 0.4, 0.7}), vec({0.5, 0.5}),
                                   vec({0.2, 0.1, 0.7 + 1e-7}), vec({NAN, 0.5, 0.5}), vec({INFINITY, 0, 0})};
  for (const auto& x : off) {
    INFO("x = ", x.data[0], ", ", x.data[1], ", size ", x.size());
    CHECK_FALSE(d.in_support(views(params), x.as_view()));
    CHECK(log_density(d, params, x) == -INFINITY);
  }
}

TEST_CASE("Dirichlet: invalid parameters") {
  check_invalid(dist("Dirichlet"), {
                                       {{vec({1, -1})}, "Dirichlet: concentration alpha[2] is -1; it must be non-negative and finite (0: that component is 0)"},
                                       {{vec({0, 0})}, "Dirichlet: every concentration is 0; at least one must be positive"},
                                       {{vec({1, 2, NAN})}, "Dirichlet: concentration alpha[3] is nan"},
                                       {{vec({INFINITY, 1})}, "Dirichlet: concentration alpha[1] is inf"},
                                       {{vec({})}, "Dirichlet: concentration alpha is empty"},
                                   });
}

TEST_CASE("Dirichlet: a concentration of 0 fixes its component at 0, the rest a Dirichlet of their own (as JAGS)") {
  const auto& d = dist("Dirichlet");
  const std::vector<tensor> params = {vec({2, 0, 3})};
  // The density is the reduced Dirichlet(2, 3)'s, that is Beta(2, 3) at the first component.
  CHECK(log_density(d, params, vec({0.4, 0, 0.6})) == doctest::Approx(std::log(bm::pdf(bm::beta_distribution<>(2, 3), 0.4))));
  // Any mass on the fixed component is outside the support.
  CHECK_FALSE(d.in_support(views(params), vec({0.4, 0.1, 0.5}).as_view()));
  CHECK(log_density(d, params, vec({0.4, 0.1, 0.5})) == -INFINITY);
  // Draws keep it at exactly 0; the first component's mean is Beta(2, 3)'s, 0.4, within
  // 5 standard errors (sd 0.2 / sqrt(20000)).
  ppl::rng rng(4);
  std::vector<double> x(3);
  double sum = 0;
  for (int k = 0; k < 20000; ++k) {
    d.draw(views(params), rng, x.data());
    REQUIRE(x[1] == 0);
    sum += x[0];
  }
  CHECK(std::abs(sum / 20000 - 0.4) < 5 * 0.2 / std::sqrt(20000.0));
}

TEST_CASE("Dirichlet: draws follow the Beta marginals") {
  check_marginals({2, 0.5, 3}, 10);
  check_marginals({1, 1, 1, 1}, 20);
  // Topic models' concentrations: draws in log space keep entries near 1e-100 apart from 0.
  check_marginals({0.01, 0.02, 0.5}, 30);
  check_draws_reproducible(dist("Dirichlet"), {vec({2, 0.5, 3})}, 3);
}

TEST_CASE("Dirichlet: draws with tiny concentrations are simplexes") {
  const auto& d = dist("Dirichlet");
  const std::vector<tensor> params = {vec(std::vector<double>(50, 0.01))};
  ppl::rng rng(1);
  tensor x(shape::vector(50));
  for (int i = 0; i < 1000; ++i) {
    d.draw(views(params), rng, x.data.data());
    REQUIRE(d.in_support(views(params), x.as_view()));
  }
}

TEST_CASE("Dirichlet: gradients match finite differences") {
  const auto& d = dist("Dirichlet");
  for (const auto& [alpha, x] : {std::pair{vec({2, 0.5, 3}), vec({0.2, 0.1, 0.7})},
                                 {vec({0.3, 7, 1, 2}), vec({0.05, 0.6, 0.1, 0.25})}, {vec({4, 2}), vec({0.8, 0.2})}}) {
    check_gradients(d, {alpha}, x, false);  // alpha only: x cannot leave the simplex
    check_simplex_gradient(d, {alpha}, x);
  }
}

}  // namespace test_dirichlet
