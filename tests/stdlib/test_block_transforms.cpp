// The unconstraining transforms of whole blocks (stdlib/block_transform.hpp): the ordered
// vector's, the covariance matrix's, the correlation matrix's and its Cholesky factor's
// (and the simplex's, through the same dispatcher). Each maps back to the values it came
// from, its log Jacobian is log |det dx/dy| computed by finite differences (over the free
// coordinates: a simplex's first K - 1 entries, a covariance matrix's lower triangle, a
// correlation matrix's or its factor's entries below the diagonal), and its backward pass
// is the gradient of L(x(y)) + log |J| for a linear L, against central differences.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "stdlib/block_transform.hpp"

namespace test_block_transforms {

using ppl::stdlib::block_transform;
using ppl::stdlib::support;
using ppl::stdlib::support_kind;

namespace {

// The coordinates of x that determine it: what the Jacobian's determinant is taken over.
std::vector<double> free_part(const support& s, const std::vector<double>& x) {
  if (s.kind == support_kind::simplex) return {x.begin(), x.end() - 1};
  const bool with_diagonal = s.kind == support_kind::covariance;
  if (!with_diagonal && s.kind != support_kind::correlation && s.kind != support_kind::cholesky_corr) return x;
  const auto k = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(x.size()))));
  std::vector<double> out;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < i + with_diagonal; ++j) out.push_back(x[i * k + j]);
  return out;
}

void check_transform(const support& s, std::size_t size, const std::vector<double>& y) {
  const block_transform t(s, static_cast<ppl::index_t>(size));
  REQUIRE(static_cast<std::size_t>(t.dimension()) == y.size());
  std::vector<double> x(size), back(y.size());
  const double log_jacobian = t.to_constrained(y.data(), x.data());
  t.to_unconstrained(x.data(), back.data());
  for (std::size_t i = 0; i < y.size(); ++i) CHECK(back[i] == doctest::Approx(y[i]).epsilon(1e-10));

  // log |det dx/dy| by central differences.
  const auto d = static_cast<Eigen::Index>(y.size());
  Eigen::MatrixXd jacobian(d, d);
  const double h = 1e-6;
  for (Eigen::Index c = 0; c < d; ++c) {
    std::vector<double> up = y, down = y, xu(size), xd(size);
    up[static_cast<std::size_t>(c)] += h, down[static_cast<std::size_t>(c)] -= h;
    t.to_constrained(up.data(), xu.data());
    t.to_constrained(down.data(), xd.data());
    const auto fu = free_part(s, xu), fd = free_part(s, xd);
    for (Eigen::Index r = 0; r < d; ++r) jacobian(r, c) = (fu[static_cast<std::size_t>(r)] - fd[static_cast<std::size_t>(r)]) / (2 * h);
  }
  CHECK(log_jacobian == doctest::Approx(std::log(std::fabs(jacobian.determinant()))).epsilon(1e-6));

  // backward: the gradient of sum_i w_i x_i + log |J| in y.
  std::vector<double> w(size), dy(y.size(), 0.0), work;
  for (std::size_t i = 0; i < size; ++i) w[i] = 0.3 * static_cast<double>(i) - 0.7 + 0.1 * static_cast<double>(i * i % 5);
  t.backward(y.data(), w.data(), dy.data(), work);
  auto objective = [&](const std::vector<double>& at) {
    std::vector<double> xs(size);
    double lj = t.to_constrained(at.data(), xs.data());
    for (std::size_t i = 0; i < size; ++i) lj += w[i] * xs[i];
    return lj;
  };
  for (std::size_t c = 0; c < y.size(); ++c) {
    std::vector<double> up = y, down = y;
    up[c] += h, down[c] -= h;
    INFO("coordinate ", c);
    CHECK(dy[c] == doctest::Approx((objective(up) - objective(down)) / (2 * h)).epsilon(1e-6));
  }
}

}  // namespace

TEST_CASE("ordered: x_1 = y_1, x_k = x_(k-1) + exp(y_k); above a bound x_1 = lower + exp(y_1)") {
  const support reals{support_kind::ordered, -INFINITY, INFINITY}, positive{support_kind::ordered, 0, INFINITY};
  check_transform(reals, 4, {-1.5, 0.3, -2, 1.1});
  check_transform(positive, 4, {-1.5, 0.3, -2, 1.1});
  check_transform({support_kind::ordered, 2.5, INFINITY}, 3, {0.4, 0.1, -0.3});
  check_transform(reals, 1, {0.7});
  std::vector<double> x(3);
  block_transform(reals, 3).to_constrained(std::vector<double>{0, 0, 0}.data(), x.data());
  CHECK(x == std::vector<double>{0, 1, 2});
  block_transform(positive, 3).to_constrained(std::vector<double>{0, 0, 0}.data(), x.data());
  CHECK(x == std::vector<double>{1, 2, 3});
  for (std::size_t i = 1; i < 3; ++i) CHECK(x[i] > x[i - 1]);
}

TEST_CASE("covariance: X = L L', L's diagonal exp(y), Stan's cov_matrix transform") {
  const support s{support_kind::covariance};
  check_transform(s, 1, {0.4});
  check_transform(s, 4, {0.2, -0.5, -0.3});
  check_transform(s, 9, {0.1, 0.8, -0.2, -0.4, 0.3, 0.5});
  std::vector<double> x(9);
  block_transform(s, 9).to_constrained(std::vector<double>(6, 0.0).data(), x.data());
  CHECK(x == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  // Exactly symmetric, and positive definite.
  block_transform(s, 9).to_constrained(std::vector<double>{0.1, 0.8, -0.2, -0.4, 0.3, 0.5}.data(), x.data());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK(x[static_cast<std::size_t>(i * 3 + j)] == x[static_cast<std::size_t>(j * 3 + i)]);
  const Eigen::Map<const Eigen::Matrix3d> m(x.data());
  CHECK(Eigen::LLT<Eigen::Matrix3d>(m).info() == Eigen::Success);
  // The coordinates name the lower triangle row by row.
  const block_transform t(s, 9);
  std::vector<ppl::index_t> named;
  for (ppl::index_t i = 0; i < 6; ++i) named.push_back(t.coordinate_element(i));
  CHECK(named == std::vector<ppl::index_t>{0, 3, 4, 6, 7, 8});
}

TEST_CASE("simplex through the same dispatcher") {
  check_transform({support_kind::simplex}, 4, {0.3, -1.2, 0.8});
}

namespace {

// Whether x (k x k, row-major) is the Cholesky factor of a correlation matrix: zero above
// the diagonal, a positive diagonal, rows of unit length.
bool correlation_factor(const std::vector<double>& x, std::size_t k) {
  for (std::size_t i = 0; i < k; ++i) {
    double length = 0;
    for (std::size_t j = 0; j < k; ++j) {
      if (j > i && x[i * k + j] != 0) return false;
      length += x[i * k + j] * x[i * k + j];
    }
    if (!(x[i * k + i] > 0) || std::fabs(length - 1) > 1e-12) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("cholesky_corr: partial correlations tanh(y) spent row by row, Stan's cholesky_factor_corr transform") {
  const support s{support_kind::cholesky_corr};
  check_transform(s, 4, {0.7});
  check_transform(s, 9, {0.3, -0.8, 0.5});
  check_transform(s, 16, {0.2, -0.6, 1.1, 0.4, -0.3, 0.9});
  check_transform(s, 25, {0.2, -0.6, 1.1, 0.4, -0.3, 0.9, -1.4, 0.05, 0.6, -0.2});
  check_transform(s, 1, {});  // K = 1: the matrix [1], no coordinates
  std::vector<double> x(9);
  block_transform(s, 9).to_constrained(std::vector<double>(3, 0.0).data(), x.data());
  CHECK(x == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  // Far out, where 1 - z^2 underflows in tanh's doubles, the factor stays one.
  for (const double far : {8.0, -20.0, 400.0}) {
    INFO("y = ", far);
    const double log_jacobian = block_transform(s, 9).to_constrained(std::vector<double>{far, -far, 0.5 * far}.data(), x.data());
    CHECK(correlation_factor(x, 3));
    CHECK(std::isfinite(log_jacobian));
  }
  // The first column holds z itself; entry (2, 1) is z_21 sqrt(1 - z_20^2).
  block_transform(s, 9).to_constrained(std::vector<double>{0.3, -0.8, 0.5}.data(), x.data());
  CHECK(x[3] == doctest::Approx(std::tanh(0.3)).epsilon(1e-14));
  CHECK(x[7] == doctest::Approx(std::tanh(0.5) * std::sqrt(1 - std::tanh(-0.8) * std::tanh(-0.8))).epsilon(1e-14));
  CHECK(correlation_factor(x, 3));
  // The coordinates name the entries below the diagonal, row by row.
  const block_transform t(s, 16);
  std::vector<ppl::index_t> named;
  for (ppl::index_t i = 0; i < 6; ++i) named.push_back(t.coordinate_element(i));
  CHECK(named == std::vector<ppl::index_t>{4, 8, 9, 12, 13, 14});
  // A matrix that is no such factor has no coordinates: NaN, as a covariance's.
  std::vector<double> y(1);
  block_transform(s, 4).to_unconstrained(std::vector<double>{1, 0, 1.5, 0.1}.data(), y.data());
  CHECK(std::isnan(y[0]));
}

TEST_CASE("correlation: Omega = L L' with L the factor above, Stan's corr_matrix transform") {
  const support s{support_kind::correlation};
  check_transform(s, 4, {0.7});
  check_transform(s, 9, {0.3, -0.8, 0.5});
  check_transform(s, 16, {0.2, -0.6, 1.1, 0.4, -0.3, 0.9});
  check_transform(s, 25, {0.2, -0.6, 1.1, 0.4, -0.3, 0.9, -1.4, 0.05, 0.6, -0.2});
  std::vector<double> x(16);
  block_transform(s, 16).to_constrained(std::vector<double>{0.2, -0.6, 1.1, 0.4, -0.3, 0.9}.data(), x.data());
  // Exactly symmetric with an exact unit diagonal, and positive definite.
  for (int i = 0; i < 4; ++i) {
    CHECK(x[static_cast<std::size_t>(i * 5)] == 1);
    for (int j = 0; j < 4; ++j) CHECK(x[static_cast<std::size_t>(i * 4 + j)] == x[static_cast<std::size_t>(j * 4 + i)]);
  }
  const Eigen::Map<const Eigen::Matrix4d> m(x.data());
  CHECK(Eigen::LLT<Eigen::Matrix4d>(m).info() == Eigen::Success);
  CHECK(block_transform(s, 16).coordinate_element(5) == 14);
  std::vector<double> y(1);
  block_transform(s, 4).to_unconstrained(std::vector<double>{1, 2, 2, 1}.data(), y.data());  // not positive definite
  CHECK(std::isnan(y[0]));
}

}  // namespace test_block_transforms
