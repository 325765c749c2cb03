#pragma once
// Values the LKJ tests share (test_lkj.cpp, test_lkj_draws.cpp): correlation matrices and
// their factors made by the transform of stdlib/correlation_transform.hpp from
// unconstrained coordinates, and the matrices of tensors.
#include <Eigen/Dense>

#include "stdlib/correlation_transform.hpp"
#include "tests/stdlib/distribution_checks.hpp"

namespace ppl::testing {

// The 2 x 2 correlation matrix of r.
inline tensor corr2(double r) { return mat(2, 2, {1, r, r, 1}); }

// The Cholesky factor and the correlation matrix of unconstrained coordinates y.
inline tensor factor_of(const std::vector<double>& y, index_t k) {
  tensor l = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
  stdlib::cholesky_corr_transform::to_constrained(y.data(), static_cast<std::size_t>(k), l.data.data());
  return l;
}
inline tensor correlation_of(const std::vector<double>& y, index_t k) {
  tensor m = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
  stdlib::correlation_transform::to_constrained(y.data(), static_cast<std::size_t>(k), m.data.data());
  return m;
}

inline const std::vector<double> y3 = {0.4, -0.9, 0.6}, y4 = {0.2, -0.6, 1.1, 0.4, -0.3, 0.9};
inline const std::vector<double> y5 = {0.2, -0.6, 1.1, 0.4, -0.3, 0.9, -1.4, 0.05, 0.6, -0.2};

inline Eigen::MatrixXd as_matrix(const tensor& x) {
  const auto k = x.shape[0];
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(x.data.data(), k, k);
}
inline Eigen::MatrixXd product_of(const tensor& l) {
  const Eigen::MatrixXd m = as_matrix(l);
  return m * m.transpose();
}

}  // namespace ppl::testing
