#pragma once
// Symmetric positive-definite matrices the matrix distributions' tests share (Wishart,
// InverseWishart, MultiNormalPrec), and an inverse to compare one form with another.
#include <Eigen/Dense>

#include "tests/stdlib/distribution_checks.hpp"

namespace ppl::testing {

inline const tensor spd_2 = mat(2, 2, {2.0, 0.6, 0.6, 1.0});
inline const tensor spd_3 = mat(3, 3, {4.0, 1.2, -0.8, 1.2, 2.0, 0.3, -0.8, 0.3, 1.5});
inline const tensor spd_3b = mat(3, 3, {6.0, 1.0, -2.0, 1.0, 5.0, 0.5, -2.0, 0.5, 4.0});

// The inverse of a symmetric matrix (so that the storage order does not matter).
inline tensor inverse(const tensor& m) {
  const auto k = m.shape[0];
  const Eigen::MatrixXd inv = Eigen::Map<const Eigen::MatrixXd>(m.data.data(), k, k).inverse();
  return mat(k, k, std::vector<double>(inv.data(), inv.data() + k * k));
}

}  // namespace ppl::testing
