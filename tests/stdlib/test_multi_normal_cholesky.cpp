// MultiNormalCholesky(mu, L): the density of MultiNormal(mu, L L') (which factors L L'
// afresh), whatever lies above L's diagonal; draws against linear combinations' Normal
// laws; every gradient slot against finite differences; invalid parameters.
#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_multi_normal_cholesky {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

const tensor l2 = mat(2, 2, {1.5, 0, 0.4, 0.8});
const tensor l3 = mat(3, 3, {2, 0, 0, 0.6, 1.3, 0, -0.4, 0.3, 1.1});

tensor product_of(const tensor& l) {
  const auto k = l.shape[0];
  const Eigen::MatrixXd m = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(l.data.data(), k, k);
  const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> s = m * m.transpose();
  return mat(k, k, std::vector<double>(s.data(), s.data() + k * k));
}

tensor with_upper_garbage(tensor l) {
  const auto k = l.shape[0];
  for (index_t i = 0; i < k; ++i)
    for (index_t j = i + 1; j < k; ++j) l.data[static_cast<std::size_t>(i * k + j)] = 7.5 + static_cast<double>(i - j);
  return l;
}

}  // namespace

TEST_CASE("MultiNormalCholesky: MultiNormal's density at L L', the upper triangle not read") {
  const auto& d = dist("MultiNormalCholesky");
  const auto& full = dist("MultiNormal");
  for (const auto& [mu, l, x] : {std::tuple{vec({1, -1}), l2, vec({0.5, 0.2})}, {vec({0, 2, -3}), l3, vec({1.5, 0, -2})},
                                 {vec({0, 2, -3}), l3, vec({-6, 9, 1})}, {vec({4}), mat(1, 1, {0.3}), vec({4.2})}}) {
    INFO("x[0] = ", x.data[0]);
    const double expected = log_density(full, {mu, product_of(l)}, x);
    CHECK(log_density(d, {mu, l}, x) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(log_density(d, {mu, with_upper_garbage(l)}, x) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(log_density(d, {mu, l}, x, false) == doctest::Approx(log_density(full, {mu, product_of(l)}, x, false)).epsilon(1e-12));
  }
  CHECK(log_density(d, {vec({1, -1}), l2}, vec({NAN, 0})) == -INFINITY);
}

TEST_CASE("MultiNormalCholesky: shapes, support and invalid parameters") {
  const auto& d = dist("MultiNormalCholesky");
  check_real_signature(d, {{"mu", 1}, {"L", 2}}, 1);
  CHECK(d.value_support(views({vec({1, -1}), l2})).kind == ppl::stdlib::support_kind::real_vector);
  CHECK(d.value_shape(std::vector<shape>{shape::vector(3), shape::matrix(3, 3)}) == shape::vector(3));
  const auto mu = vec({0, 0});
  check_invalid(d, {
                       {{vec({0, 0, 0}), l2}, "MultiNormalCholesky: mu has size 3 but L is 2 x 2; it must be 3 x 3"},
                       {{vec({0, NAN}), l2}, "MultiNormalCholesky: mean mu[2] is nan; it must be finite"},
                       {{mu, mat(2, 2, {1, 0, 0, -0.5})}, "MultiNormalCholesky: Cholesky factor L[2, 2] is -0.5; it must be positive and finite"},
                       {{mu, mat(2, 2, {0, 0, 1, 1})}, "MultiNormalCholesky: Cholesky factor L[1, 1] is 0"},
                       {{mu, mat(2, 2, {1, 0, NAN, 1})}, "MultiNormalCholesky: Cholesky factor L[2, 1] is nan; it must be finite"},
                   });
  d.check(views({mu, with_upper_garbage(l2)}));  // the upper triangle is not read
  CHECK(d.typical(views({vec({1, -2}), l2}), std::vector<double>(2).data()));
}

TEST_CASE("MultiNormalCholesky: draws' linear combinations are Normal(a' mu, sqrt(a' L L' a))") {
  const auto& d = dist("MultiNormalCholesky");
  const std::vector<double> mu = {0, 2, -3};
  const tensor sigma = product_of(l3);
  const Eigen::Map<const Eigen::Matrix3d> s(sigma.data.data());
  unsigned seed = 70;
  for (const std::vector<double>& a : {std::vector<double>{1, 0, 0}, {0, 0, 1}, {1, -1, 0}, {0.5, 1, 2}}) {
    const Eigen::Map<const Eigen::Vector3d> av(a.data());
    const bm::normal reference(av.dot(Eigen::Map<const Eigen::Vector3d>(mu.data())), std::sqrt(av.dot(s * av)));
    INFO("combination ", a[0], ", ", a[1], ", ", a[2]);
    check_statistic_draws(d, {vec(mu), with_upper_garbage(l3)}, [&](const double* x) { return av.dot(Eigen::Map<const Eigen::Vector3d>(x)); },
                          [&](double p) { return bm::quantile(reference, p); }, 20000, 20, seed++);
  }
  check_draws_reproducible(d, {vec(mu), l3}, 3);
}

TEST_CASE("MultiNormalCholesky: gradients in x, mu and L match finite differences") {
  const auto& d = dist("MultiNormalCholesky");
  check_gradients(d, {vec({1, -1}), l2}, vec({0.5, 0.2}));
  check_gradients(d, {vec({0, 2, -3}), l3}, vec({1.5, 0, -2}));
  check_gradients(d, {vec({0, 2, -3}), with_upper_garbage(l3)}, vec({-6, 9, 1}));
  check_gradients(d, {vec({5}), mat(1, 1, {0.3})}, vec({4.2}));
}

}  // namespace test_multi_normal_cholesky
