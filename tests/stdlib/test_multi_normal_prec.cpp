// MultiNormalPrec(mu, Omega): the density of MultiNormal(mu, Omega^-1) (BUGS's dmnorm);
// draws' linear combinations against Boost.Math normals with variance a' Omega^-1 a;
// gradients against finite differences; invalid parameters with their messages.
#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>

#include "tests/stdlib/spd_matrices.hpp"

namespace test_multi_normal_prec {

using namespace ppl::testing;
namespace bm = boost::math;

TEST_CASE("MultiNormalPrec: the density of MultiNormal with the inverse as covariance") {
  const auto& d = dist("MultiNormalPrec");
  for (const auto& x : {vec({0.5, 1, -2}), vec({-3, 4, 0.1}), vec({0, 2, -3})}) {
    const double expected = log_density(dist("MultiNormal"), {vec({0, 2, -3}), inverse(spd_3)}, x);
    CHECK(log_density(d, {vec({0, 2, -3}), spd_3}, x) == doctest::Approx(expected).epsilon(1e-10));
    CHECK(log_density(d, {vec({0, 2, -3}), spd_3}, x, false) ==
          doctest::Approx(expected + 1.5 * std::log(2 * M_PI)).epsilon(1e-10));
  }
  CHECK(log_density(d, {vec({0}), mat(1, 1, {4})}, vec({1})) == doctest::Approx(std::log(bm::pdf(bm::normal(0, 0.5), 1.0))));
  CHECK(log_density(d, {vec({0, 0}), mat(2, 2, {1, 0, 0, 1})}, vec({NAN, 0})) == -INFINITY);
}

TEST_CASE("MultiNormalPrec: shapes and invalid parameters") {
  const auto& d = dist("MultiNormalPrec");
  check_real_signature(d, {{"mu", 1}, {"Omega", 2}}, 1);
  CHECK_THROWS_WITH_AS(d.value_shape(std::vector<shape>{shape::vector(3), shape::matrix(2, 2)}),
                       "MultiNormalPrec: mu has size 3 but Omega is 2 x 2; it must be 3 x 3", ppl::stdlib::parameter_error);
  check_invalid(d, {
                       {{vec({0, NAN}), mat(2, 2, {1, 0, 0, 1})}, "MultiNormalPrec: mean mu[2] is nan; it must be finite"},
                       {{vec({0, 0}), mat(2, 2, {1, 2, 2, 1})}, "MultiNormalPrec: precision Omega is not positive definite"},
                       {{vec({0, 0}), mat(2, 2, {1, 0.5, 0.4, 1})},
                        "MultiNormalPrec: precision Omega is not symmetric: Omega[2, 1] is 0.4 but Omega[1, 2] is 0.5"},
                   });
}

TEST_CASE("MultiNormalPrec: draws' combinations a'x ~ Normal(a'mu, sqrt(a' Omega^-1 a))") {
  const auto& d = dist("MultiNormalPrec");
  const std::vector<double> mu = {0, 2, -3};
  const Eigen::Matrix3d sigma = Eigen::Map<const Eigen::Matrix3d>(spd_3.data.data()).inverse();
  unsigned seed = 70;
  for (const std::vector<double>& a : {std::vector<double>{1, 0, 0}, {0, 0, 1}, {1, -1, 0.5}}) {
    const Eigen::Map<const Eigen::Vector3d> av(a.data());
    const bm::normal law(av.dot(Eigen::Map<const Eigen::Vector3d>(mu.data())), std::sqrt(av.dot(sigma * av)));
    check_statistic_draws(d, {vec(mu), spd_3}, [&](const double* x) { return av.dot(Eigen::Map<const Eigen::Vector3d>(x)); },
                          [&](double p) { return bm::quantile(law, p); }, 20000, 20, seed++);
  }
  check_draws_reproducible(d, {vec(mu), spd_3}, 3);
}

TEST_CASE("MultiNormalPrec: gradients in x, mu and Omega match finite differences") {
  const auto& d = dist("MultiNormalPrec");
  check_gradients(d, {vec({0, 2, -3}), spd_3}, vec({1.5, 0, -2}));
  check_gradients(d, {vec({1, -1}), mat(2, 2, {2.0, 0.6, 0.6, 1.0})}, vec({0.5, 0.2}));
  check_gradients(d, {vec({5}), mat(1, 1, {0.3})}, vec({4.2}));
}

}  // namespace test_multi_normal_prec
