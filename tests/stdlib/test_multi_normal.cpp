// MultiNormal(mu, Sigma): densities against a closed form, products of Boost.Math normals
// and an LU factorisation (not the Cholesky factor the distribution uses); draws against
// the Normal marginals and linear combinations; every gradient slot against finite
// differences.
#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>
#include <numbers>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_multi_normal {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

const double log_2pi = std::log(2 * std::numbers::pi);

// -((x - mu)' Sigma^-1 (x - mu) + log det Sigma + k log(2 pi)) / 2, by LU.
double lu_log_density(const std::vector<double>& mu, const tensor& sigma, const std::vector<double>& x) {
  const auto k = static_cast<Eigen::Index>(mu.size());
  const Eigen::MatrixXd s = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(sigma.data.data(), k, k);
  const Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(x.data(), k) - Eigen::Map<const Eigen::VectorXd>(mu.data(), k);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(s);
  return -0.5 * (r.dot(lu.solve(r)) + std::log(lu.determinant()) + static_cast<double>(k) * log_2pi);
}

// Dropping constants removes -k log(2 pi) / 2.
density_case at(const std::vector<double>& mu, const tensor& sigma, const std::vector<double>& x) {
  return {{vec(mu), sigma}, vec(x), lu_log_density(mu, sigma, x), -0.5 * static_cast<double>(mu.size()) * log_2pi};
}

const tensor sigma_2 = mat(2, 2, {2.0, 0.6, 0.6, 1.0});
const tensor sigma_3 = mat(3, 3, {4.0, 1.2, -0.8, 1.2, 2.0, 0.3, -0.8, 0.3, 1.5});

// a' x ~ Normal(a' mu, sqrt(a' Sigma a)) for a draw x.
void check_combination(const std::vector<double>& mu, const tensor& sigma, const std::vector<double>& a, unsigned seed) {
  const auto k = static_cast<Eigen::Index>(mu.size());
  const Eigen::Map<const Eigen::VectorXd> av(a.data(), k);
  const Eigen::MatrixXd s = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(sigma.data.data(), k, k);
  const bm::normal reference(av.dot(Eigen::Map<const Eigen::VectorXd>(mu.data(), k)), std::sqrt(av.dot(s * av)));
  INFO("combination ", a[0], ", ", a[1], ", ...");
  check_statistic_draws(dist("MultiNormal"), {vec(mu), sigma},
                        [&](const double* x) { return av.dot(Eigen::Map<const Eigen::VectorXd>(x, k)); },
                        [=](double p) { return bm::quantile(reference, p); }, 20000, 20, seed);
}

}  // namespace

TEST_CASE("MultiNormal: log densities, with and without constants") {
  check_log_densities(dist("MultiNormal"), {
                                               at({1, -1}, sigma_2, {0.5, 0.2}), at({1, -1}, sigma_2, {1, -1}),
                                               at({0, 2, -3}, sigma_3, {1.5, 0, -2}), at({0, 2, -3}, sigma_3, {-6, 9, 1}),
                                               at({1e3}, mat(1, 1, {1e-4}), {1e3 + 0.02}),
                                           });
  // Two dimensions by hand: det = 2 - 0.36, r = x - mu = (-0.5, 1.2).
  const double det = 1.64, quad = (1.0 * 0.25 + 2 * 0.6 * 0.5 * 1.2 + 2.0 * 1.44) / det;
  CHECK(at({1, -1}, sigma_2, {0.5, 0.2}).expected == doctest::Approx(-log_2pi - 0.5 * std::log(det) - 0.5 * quad));
  // A diagonal Sigma: independent Boost.Math normals.
  const double independent = std::log(bm::pdf(bm::normal(1, 2), 0.3) * bm::pdf(bm::normal(-2, 0.5), -1.1) *
                                      bm::pdf(bm::normal(0, 3), 4));
  CHECK(log_density(dist("MultiNormal"), {vec({1, -2, 0}), mat(3, 3, {4, 0, 0, 0, 0.25, 0, 0, 0, 9})},
                    vec({0.3, -1.1, 4})) == doctest::Approx(independent));
  for (double bad : {INFINITY, -INFINITY, NAN})
    CHECK(log_density(dist("MultiNormal"), {vec({1, -1}), sigma_2}, vec({0.5, bad})) == -INFINITY);
}

TEST_CASE("MultiNormal: shapes and support") {
  const auto& d = dist("MultiNormal");
  check_real_signature(d, {{"mu", 1}, {"Sigma", 2}}, 1);
  CHECK(d.value_support(views({vec({1, -1}), sigma_2})).kind == ppl::stdlib::support_kind::real_vector);
  CHECK(d.value_shape(std::vector<shape>{shape::vector(3), shape::matrix(3, 3)}) == shape::vector(3));
  CHECK_THROWS_WITH_AS(d.value_shape(std::vector<shape>{shape::vector(3), shape::matrix(2, 2)}),
                       "MultiNormal: mu has size 3 but Sigma is 2 x 2; it must be 3 x 3", ppl::stdlib::parameter_error);
  CHECK_THROWS_WITH_AS(d.value_shape(std::vector<shape>{shape::vector(2), shape::matrix(2, 3)}),
                       "MultiNormal: mu has size 2 but Sigma is 2 x 3; it must be 2 x 2", ppl::stdlib::parameter_error);
  CHECK(d.in_support(views({vec({1, -1}), sigma_2}), vec({1e300, -4}).as_view()));
  CHECK_FALSE(d.in_support(views({vec({1, -1}), sigma_2}), vec({NAN, -4}).as_view()));
}

TEST_CASE("MultiNormal: invalid parameters") {
  const auto mu = vec({0, 0});
  check_invalid(dist("MultiNormal"),
                {
                    {{vec({0, 0, 0}), sigma_2}, "MultiNormal: mu has size 3 but Sigma is 2 x 2"},
                    {{vec({0, NAN}), sigma_2}, "MultiNormal: mean mu[2] is nan; it must be finite"},
                    {{vec({INFINITY, 0}), sigma_2}, "MultiNormal: mean mu[1] is inf"},
                    {{mu, mat(2, 2, {1, 2, 2, 1})}, "MultiNormal: covariance Sigma is not positive definite"},
                    {{mu, mat(2, 2, {1, 0, 0, 0})}, "MultiNormal: covariance Sigma is not positive definite"},
                    {{mu, mat(2, 2, {1, 0.5, 0.4, 1})},
                     "MultiNormal: covariance Sigma is not symmetric: Sigma[2, 1] is 0.4 but Sigma[1, 2] is 0.5"},
                    {{mu, mat(2, 2, {NAN, 0, 0, 1})}, "MultiNormal: covariance Sigma[1, 1] is nan; it must be finite"},
                    {{mu, mat(2, 2, {1, NAN, NAN, 1})}, "MultiNormal: covariance Sigma[2, 1] is nan"},
                    {{mu, mat(2, 2, {1, 0, 0, INFINITY})}, "MultiNormal: covariance Sigma[2, 2] is inf"},
                });
}

TEST_CASE("MultiNormal: draws follow the marginals and linear combinations") {
  const std::vector<double> mu = {0, 2, -3};
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("component ", i);
    const bm::normal marginal(mu[i], std::sqrt(sigma_3.data[i * 4]));
    check_draws_continuous(dist("MultiNormal"), {vec(mu), sigma_3}, [=](double p) { return bm::quantile(marginal, p); }, i,
                           20000, 20, 50 + static_cast<unsigned>(i));
  }
  // Combinations see the correlations that marginals miss.
  check_combination(mu, sigma_3, {1, -1, 0}, 60);
  check_combination(mu, sigma_3, {0.5, 1, 2}, 61);
  check_combination({1, -1}, sigma_2, {1, 1}, 62);
  check_draws_reproducible(dist("MultiNormal"), {vec(mu), sigma_3}, 3);
}

TEST_CASE("MultiNormal: gradients in x, mu and Sigma match finite differences") {
  const auto& d = dist("MultiNormal");
  check_gradients(d, {vec({1, -1}), sigma_2}, vec({0.5, 0.2}));
  check_gradients(d, {vec({0, 2, -3}), sigma_3}, vec({1.5, 0, -2}));
  check_gradients(d, {vec({0, 2, -3}), sigma_3}, vec({-6, 9, 1}));
  check_gradients(d, {vec({5}), mat(1, 1, {0.3})}, vec({4.2}));
}

}  // namespace test_multi_normal
