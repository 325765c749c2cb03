#pragma once
// Eigen maps over ppl's row-major values, for the matrix functions (linear_algebra.cpp,
// matrix_functions.cpp, covariance_functions.cpp): a view read as a matrix, and a result
// written through one, without copies.
#include <Eigen/Dense>

#include "core/tensor.hpp"

namespace ppl::stdlib {

using row_major = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using matrix_in = Eigen::Map<const row_major>;
using matrix_out = Eigen::Map<row_major>;

inline matrix_in as_matrix(const ppl::view& v) { return {v.data, v.rows(), v.cols()}; }

}  // namespace ppl::stdlib
