#pragma once
// The unconstraining transform of a symmetric positive-definite K x K matrix, as Stan's
// cov_matrix (reference manual, "Covariance matrices"): X = L L' with L lower triangular,
// its diagonal exp(y) and the entries below it y themselves, K (K + 1) / 2 coordinates
// read row by row along the lower triangle. log |dX/dy| = K log 2 + sum_i (K - i + 2) y_ii
// (i from 1): the map L -> L L' has Jacobian 2^K prod_i L_ii^(K - i + 1), and each L_ii =
// exp(y_ii) one more factor L_ii. y = 0 is the identity.
#include <Eigen/Dense>
#include <cmath>
#include <cstddef>

namespace ppl::stdlib {

struct covariance_transform {
  using row_matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  static std::size_t dimension(std::size_t k) { return k * (k + 1) / 2; }

  // y from X (k x k, row-major); NaN where X is not positive definite.
  static void to_unconstrained(const double* x, std::size_t k, double* y) {
    const auto n = static_cast<Eigen::Index>(k);
    const row_matrix m = Eigen::Map<const row_matrix>(x, n, n);
    const Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (m + m.transpose()));
    const bool ok = llt.info() == Eigen::Success;
    const Eigen::MatrixXd l = llt.matrixL();
    std::size_t at = 0;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j <= i; ++j) y[at++] = !ok ? NAN : i == j ? std::log(l(i, i)) : l(i, j);
  }

  // Writes X (exactly symmetric) and returns log |dX/dy|.
  static double to_constrained(const double* y, std::size_t k, double* x) {
    const auto n = static_cast<Eigen::Index>(k);
    const Eigen::MatrixXd l = factor(y, n);
    const Eigen::MatrixXd m = l * l.transpose();
    double log_jacobian = static_cast<double>(k) * std::log(2.0);
    for (Eigen::Index i = 0; i < n; ++i) {
      log_jacobian += static_cast<double>(n - i + 1) * std::log(l(i, i));
      for (Eigen::Index j = 0; j <= i; ++j) x[i * n + j] = x[j * n + i] = m(i, j);
    }
    return log_jacobian;
  }

  // Adds to dy the gradient in y of F(X(y)) + log |dX/dy| given G = dF/dX, every entry of
  // X taken as its own argument: dF/dL = (G + G') L, then the diagonal through exp.
  static void backward(const double* y, std::size_t k, const double* dx, double* dy) {
    const auto n = static_cast<Eigen::Index>(k);
    const Eigen::MatrixXd l = factor(y, n);
    const row_matrix g = Eigen::Map<const row_matrix>(dx, n, n);
    const Eigen::MatrixXd d = (g + g.transpose()) * l;
    std::size_t at = 0;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j <= i; ++j) dy[at++] += i == j ? d(i, i) * l(i, i) + static_cast<double>(n - i + 1) : d(i, j);
  }

 private:
  static Eigen::MatrixXd factor(const double* y, Eigen::Index n) {
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(n, n);
    std::size_t at = 0;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j <= i; ++j, ++at) l(i, j) = i == j ? std::exp(y[at]) : y[at];
    return l;
  }
};

}  // namespace ppl::stdlib
