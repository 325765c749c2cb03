#pragma once
// The unconstraining transforms of the Cholesky factor of a correlation matrix and of the
// matrix itself, as Stan's cholesky_factor_corr and corr_matrix (reference manual,
// "Cholesky factors of correlation matrices", "Correlation matrices"), after the canonical
// partial correlations of Lewandowski, Kurowicka & Joe (2009), "Generating random
// correlation matrices based on vines and extended onion method", J. Multivariate Anal.
// 100(9).
//
// K (K - 1) / 2 coordinates y, read row by row along the strictly lower triangle, give
// partial correlations z = tanh(y) in (-1, 1). Row i of L (from 0) spends them on its
// squared length: with r_i0 = 1 and r_i(j+1) = r_ij sqrt(1 - z_ij^2), L_ij = z_ij r_ij
// below the diagonal and L_ii = r_ii, so every row has unit length and a positive
// diagonal, and y = 0 is the identity. Each r is a product of the sqrt(1 - z^2), never a
// difference 1 - sum L_ik^2, so that rows near the boundary keep their digits.
//
// log |dL/dy| over the entries below the diagonal: row i's map z -> L is triangular, its
// diagonal dL_ij/dz_ij = r_ij, and dz/dy = 1 - z^2, so it is the sum over i > j of
// log r_ij + log(1 - z_ij^2). The correlation matrix Omega = L L' adds log |dOmega/dL|
// = sum_i (K - 1 - i) log L_ii: Omega's row i below the diagonal is L_i. times the first i
// rows of L, a triangular block whose determinant is prod_(j < i) L_jj, and the blocks
// are triangular in turn (row i of Omega reads rows up to i of L).
#include <Eigen/Dense>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

namespace ppl::stdlib {

struct cholesky_corr_transform {
  using row_matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  static std::size_t dimension(std::size_t k) { return k > 0 ? k * (k - 1) / 2 : 0; }

  // y from L (k x k, row-major; only the entries below the diagonal are read); NaN where
  // a row does not leave room for its next partial correlation (|z| >= 1).
  static void to_unconstrained(const double* x, std::size_t k, double* y) {
    std::size_t at = 0;
    for (std::size_t i = 1; i < k; ++i) {
      double r2 = 1;  // the squared length row i has left
      for (std::size_t j = 0; j < i; ++j) {
        const double z = x[i * k + j] / std::sqrt(r2);
        y[at++] = std::fabs(z) < 1 ? std::atanh(z) : NAN;
        r2 *= 1 - z * z;
      }
    }
  }

  // Writes L (the upper triangle 0) and returns log |dL/dy|.
  static double to_constrained(const double* y, std::size_t k, double* x) {
    const auto n = static_cast<Eigen::Index>(k);
    double log_jacobian = 0;
    const Eigen::MatrixXd l = factor(y, n, &log_jacobian);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) x[i * n + j] = l(i, j);
    return log_jacobian;
  }

  // Adds to dy the gradient in y of F(L(y)) + log |dL/dy| given dF/dL (k x k, row-major;
  // the upper triangle, constant 0, is not read).
  static void backward(const double* y, std::size_t k, const double* dx, double* dy) {
    const auto n = static_cast<Eigen::Index>(k);
    backward_factor(y, n, Eigen::Map<const row_matrix>(dx, n, n), dy);
  }

  // L from y, adding log |dL/dy| to *log_jacobian where it is given.
  static Eigen::MatrixXd factor(const double* y, Eigen::Index n, double* log_jacobian = nullptr) {
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(n, n);
    if (n == 0) return l;
    l(0, 0) = 1;
    std::size_t at = 0;
    for (Eigen::Index i = 1; i < n; ++i) {
      double log_r = 0;  // log r_ij, half the sum of the log(1 - z^2) so far
      for (Eigen::Index j = 0; j < i; ++j, ++at) {
        const double log_s = log_one_minus_tanh2(y[at]);
        l(i, j) = std::tanh(y[at]) * std::exp(log_r);
        if (log_jacobian) *log_jacobian += log_r + log_s;
        log_r += 0.5 * log_s;
      }
      l(i, i) = std::exp(log_r);
    }
    return l;
  }

  // The reverse pass through factor() for one G = dF/dL, row by row from the diagonal
  // back: with s = 1 - z^2 and rbar the adjoint of r_i(j+1) (at first G_ii),
  //   dy_ij = s r_ij G_ij - z r_i(j+1) rbar - (i - j + 1) z,
  //   rbar <- z G_ij + sqrt(s) rbar,
  // the last term of dy the Jacobian's: log |dL/dy| holds log(1 - z_ij^2) once for itself
  // and half again for each later entry of the row, i - 1 - j of them, and
  // d/dy log(1 - tanh^2 y) = -2 tanh y.
  template <typename Matrix>
  static void backward_factor(const double* y, Eigen::Index n, const Matrix& g, double* dy) {
    std::vector<double> r(static_cast<std::size_t>(n) + 1), z(static_cast<std::size_t>(n));
    for (Eigen::Index i = 1; i < n; ++i) {
      const std::size_t first = static_cast<std::size_t>(i * (i - 1) / 2);
      double log_r = 0;
      for (Eigen::Index j = 0; j < i; ++j) {
        const auto u = static_cast<std::size_t>(j);
        z[u] = std::tanh(y[first + u]);
        r[u] = std::exp(log_r);
        log_r += 0.5 * log_one_minus_tanh2(y[first + u]);
      }
      r[static_cast<std::size_t>(i)] = std::exp(log_r);
      double r_bar = g(i, i);
      for (Eigen::Index j = i; j-- > 0;) {
        const auto u = static_cast<std::size_t>(j);
        const double s = 1 - z[u] * z[u];
        dy[first + u] += s * r[u] * g(i, j) - z[u] * r[u + 1] * r_bar - static_cast<double>(i - j + 1) * z[u];
        r_bar = z[u] * g(i, j) + std::sqrt(s) * r_bar;
      }
    }
  }

  // log(1 - tanh(y)^2) = -2 log cosh y, without overflow where |y| is large.
  static double log_one_minus_tanh2(double y) {
    const double a = std::fabs(y);
    return -2 * (a + std::log1p(std::exp(-2 * a)) - std::numbers::ln2);
  }
};

struct correlation_transform {
  using row_matrix = cholesky_corr_transform::row_matrix;

  static std::size_t dimension(std::size_t k) { return cholesky_corr_transform::dimension(k); }

  // y from Omega (k x k, row-major) through its Cholesky factor; NaN where Omega is not
  // positive definite.
  static void to_unconstrained(const double* x, std::size_t k, double* y) {
    const auto n = static_cast<Eigen::Index>(k);
    const row_matrix m = Eigen::Map<const row_matrix>(x, n, n);
    const Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (m + m.transpose()));
    if (llt.info() != Eigen::Success) {
      for (std::size_t i = 0; i < dimension(k); ++i) y[i] = NAN;
      return;
    }
    const row_matrix l = llt.matrixL().toDenseMatrix();
    cholesky_corr_transform::to_unconstrained(l.data(), k, y);
  }

  // Writes Omega = L L', exactly symmetric with an exact unit diagonal, and returns
  // log |dOmega/dy|.
  static double to_constrained(const double* y, std::size_t k, double* x) {
    const auto n = static_cast<Eigen::Index>(k);
    double log_jacobian = 0;
    const Eigen::MatrixXd l = cholesky_corr_transform::factor(y, n, &log_jacobian);
    const Eigen::MatrixXd m = l * l.transpose();
    for (Eigen::Index i = 0; i < n; ++i) {
      log_jacobian += static_cast<double>(n - 1 - i) * std::log(l(i, i));
      for (Eigen::Index j = 0; j < i; ++j) x[i * n + j] = x[j * n + i] = m(i, j);
      x[i * n + i] = 1;
    }
    return log_jacobian;
  }

  // Adds to dy the gradient in y of F(Omega(y)) + log |dOmega/dy| given G = dF/dOmega,
  // every entry its own argument: dF/dL = (G + G') L goes back through the factor, and
  // (K - 1 - i) log L_ii = (K - 1 - i) / 2 sum_(j < i) log(1 - z_ij^2) adds
  // -(K - 1 - i) z_ij to dy_ij. The diagonal of Omega is constant, so G's is not read
  // (it drops out: L's rows have unit length).
  static void backward(const double* y, std::size_t k, const double* dx, double* dy) {
    const auto n = static_cast<Eigen::Index>(k);
    const Eigen::MatrixXd l = cholesky_corr_transform::factor(y, n);
    row_matrix g = Eigen::Map<const row_matrix>(dx, n, n);
    g.diagonal().setZero();
    const Eigen::MatrixXd d = (g + g.transpose()) * l;
    cholesky_corr_transform::backward_factor(y, n, d, dy);
    std::size_t at = 0;
    for (Eigen::Index i = 1; i < n; ++i)
      for (Eigen::Index j = 0; j < i; ++j, ++at) dy[at] -= static_cast<double>(n - 1 - i) * std::tanh(y[at]);
  }
};

}  // namespace ppl::stdlib
