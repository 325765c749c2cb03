// Functions of a square matrix through Eigen, with their reverse-mode adjoints (G is the
// result's adjoint, A^-T the transposed inverse):
//   inverse(A)          d A += -A^-T G A^-T
//   log_determinant(A)  log |det A|;  d A += g A^-T
//   cholesky(A)         the lower-triangular L with L L' = A (also cholesky_decompose, Stan's
//                       name); the adjoint by Murray (2016), below.
//   mdivide_left(A, B)           A^-1 B (B a vector or a matrix), C the result:
//                                d B += A^-T G,  d A += -(A^-T G) C'
//   mdivide_left_tri_low(L, B)   the same with L's lower triangle (diagonal included; the
//                                rest is not read and gets no adjoint), by substitution
// A singular matrix gives an inverse of non-finite entries and a log determinant of -inf; a
// symmetric matrix that is not positive definite gives a Cholesky factor of NaN. None of
// them throws, so that an unknown straying there is rejected by the sampler, not fatal.
#include <Eigen/Dense>
#include <limits>
#include <string>
#include <vector>

#include "stdlib/checks.hpp"
#include "stdlib/eigen_views.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

type_result one_matrix(std::string_view name, std::span<const type_sig> a, int result_rank) {
  if (a.size() != 1 || a[0].rank != 2) return std::string(name) + " expects one matrix, got " + describe_types(a);
  return type_sig{scalar_kind::real, result_rank};
}

void check_square(std::string_view name, const view& a) {
  if (a.rows() != a.cols())
    throw argument_error(std::string(name) + ": the matrix is " + std::to_string(a.rows()) + " x " +
                         std::to_string(a.cols()) + "; it must be square");
}

class inverse final : public function {
 public:
  std::string_view name() const override { return "inverse"; }
  type_result result_type(std::span<const type_sig> a) const override { return one_matrix(name(), a, 2); }
  shape result_shape(std::span<const view> a) const override {
    check_square(name(), a[0]);
    return a[0].shape;
  }
  void eval(std::span<const view> a, double* out) const override {
    const index_t n = a[0].rows();
    if (n > 0) matrix_out(out, n, n) = as_matrix(a[0]).partialPivLu().inverse();
  }
  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    const index_t n = a[0].rows();
    const matrix_in inv(out.data, n, n), g(d_out, n, n);
    matrix_out(d[0], n, n) -= inv.transpose() * g * inv.transpose();
  }
};

class log_determinant_function final : public function {
 public:
  std::string_view name() const override { return "log_determinant"; }
  type_result result_type(std::span<const type_sig> a) const override { return one_matrix(name(), a, 0); }
  shape result_shape(std::span<const view> a) const override {
    check_square(name(), a[0]);
    return shape::scalar();
  }
  // The sum of log |U_ii| over the LU factors, which cannot overflow as det A can.
  void eval(std::span<const view> a, double* out) const override {
    if (a[0].size() == 0) {
      out[0] = 0;  // the determinant of the empty matrix is 1
      return;
    }
    out[0] = as_matrix(a[0]).partialPivLu().matrixLU().diagonal().cwiseAbs().array().log().sum();
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (!d[0] || a[0].size() == 0) return;
    const index_t n = a[0].rows();
    matrix_out(d[0], n, n) += d_out[0] * as_matrix(a[0]).partialPivLu().inverse().transpose();
  }
};

// "A[2, 1]", 1-based as in the language; built only for a message.
std::string entry(index_t i, index_t j) { return "A[" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + "]"; }

class cholesky final : public function {
 public:
  explicit cholesky(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> a) const override { return one_matrix(name_, a, 2); }
  // Square, and symmetric within a relative 1e-8 (as MultiNormal's Sigma): both triangles
  // are read, through (A + A') / 2, so that A[i, j] and A[j, i] share the adjoint.
  shape result_shape(std::span<const view> a) const override {
    const view& m = a[0];
    check_square(name_, m);
    for (index_t i = 0; i < m.rows(); ++i)
      for (index_t j = 0; j < i; ++j) {
        const double x = m.at(i, j), y = m.at(j, i);
        if (std::fabs(x - y) > 1e-8 * (std::fabs(x) + std::fabs(y)))
          throw argument_error(name_ + ": the matrix is not symmetric: " + entry(i, j) + " is " + format_number(x) +
                               " but " + entry(j, i) + " is " + format_number(y));
      }
    return m.shape;
  }
  void eval(std::span<const view> a, double* out) const override {
    const index_t n = a[0].rows();
    const matrix_in m = as_matrix(a[0]);
    const Eigen::LLT<Eigen::MatrixXd> llt(0.5 * (m + m.transpose()));
    matrix_out result(out, n, n);
    if (llt.info() != Eigen::Success) {
      result.setConstant(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    result = llt.matrixL().toDenseMatrix();
  }
  // Murray (2016), "Differentiation of the Cholesky decomposition", arXiv:1602.07527, eq. 10:
  // with Phi taking the lower triangle and halving the diagonal, the adjoint of a symmetric
  // A is S = L^-T Phi(L' Lbar) L^-1, here made symmetric, (S + S') / 2, since each of A[i, j]
  // and A[j, i] enters through half of (A + A') / 2. Only Lbar's lower triangle counts: the
  // upper one of the result is constant 0.
  void backward(std::span<const view>, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    const index_t n = out.rows();
    if (n <= unblocked_up_to) return backward_unblocked(out.data, d_out, n, d[0]);
    const Eigen::MatrixXd l = as_matrix(out);
    const Eigen::MatrixXd l_bar = matrix_in(d_out, n, n).triangularView<Eigen::Lower>();
    Eigen::MatrixXd p = (l.transpose() * l_bar).triangularView<Eigen::Lower>();
    p.diagonal() *= 0.5;
    const auto upper = l.transpose().triangularView<Eigen::Upper>();
    const Eigen::MatrixXd left = upper.solve(p);                                 // L^-T P
    const Eigen::MatrixXd s = upper.solve(left.transpose()).transpose();         // L^-T P L^-1
    matrix_out(d[0], n, n) += 0.5 * (s + s.transpose());
  }

 private:
  // Up to this size the reverse pass is the factorisation's own loops run backwards, in
  // place, with no temporaries: at n = 11 (a small Gaussian process) it is a tenth of the
  // blocked form's instructions, which allocates five matrices and calls Eigen's
  // triangular solves; past it, the blocked form's matrix products win.
  static constexpr index_t unblocked_up_to = 32;
  // The factorisation, column j at a time: L[j, j] = sqrt(A[j, j] - sum_k<j L[j, k]^2),
  // then L[i, j] = (A[i, j] - sum_k<j L[i, k] L[j, k]) / L[j, j] for i > j. Its reverse
  // (Murray 2016, section 3's unblocked algorithm) visits j downwards, the column's
  // entries before its diagonal, turning Lbar's lower triangle in w into the adjoint of
  // A's lower triangle; each off-diagonal one is then shared by A[i, j] and A[j, i].
  static void backward_unblocked(const double* l, const double* d_out, index_t n, double* d) {
    thread_local std::vector<double> work;
    work.assign(static_cast<std::size_t>(n * n), 0.0);
    double* w = work.data();
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j <= i; ++j) w[i * n + j] = d_out[i * n + j];
    for (index_t j = n; j-- > 0;) {
      const double ljj = l[j * n + j];
      for (index_t i = n; i-- > j + 1;) {
        const double a = w[i * n + j] / ljj;
        w[i * n + j] = a;
        w[j * n + j] -= a * l[i * n + j];
        for (index_t k = 0; k < j; ++k) {
          w[i * n + k] -= a * l[j * n + k];
          w[j * n + k] -= a * l[i * n + k];
        }
      }
      const double b = w[j * n + j] / (2 * ljj);
      w[j * n + j] = b;
      for (index_t k = 0; k < j; ++k) w[j * n + k] -= 2 * b * l[j * n + k];
    }
    for (index_t i = 0; i < n; ++i) {
      d[i * n + i] += w[i * n + i];
      for (index_t j = 0; j < i; ++j) {
        const double half = 0.5 * w[i * n + j];
        d[i * n + j] += half;
        d[j * n + i] += half;
      }
    }
  }
  std::string name_;
};

// A^-1 B by LU, or by forward substitution through a lower triangle: Stan's mdivide_left
// and mdivide_left_tri_low. B is a vector (the result one too) or a matrix.
class left_division final : public function {
 public:
  explicit left_division(bool lower) : lower_(lower) {}
  std::string_view name() const override { return lower_ ? "mdivide_left_tri_low" : "mdivide_left"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 2 || (a[1].rank != 1 && a[1].rank != 2))
      return std::string(name()) + " expects a square matrix and a vector or matrix, " + std::string(name()) + "(A, B), got " +
             describe_types(a);
    return type_sig{scalar_kind::real, a[1].rank};
  }
  shape result_shape(std::span<const view> a) const override {
    check_square(name(), a[0]);
    if (a[1].shape[0] != a[0].rows())
      throw argument_error(std::string(name()) + ": the matrix is " + std::to_string(a[0].rows()) + " x " + std::to_string(a[0].cols()) +
                           " but the right-hand side has " + std::to_string(a[1].shape[0]) + " rows");
    return a[1].shape;
  }
  bool shape_from_shapes() const override { return true; }
  void eval(std::span<const view> a, double* out) const override {
    const index_t n = a[0].rows(), m = columns(a[1]);
    if (n == 0) return;
    matrix_out(out, n, m) = solve(as_matrix(a[0]), matrix_in(a[1].data, n, m), false);
  }
  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    const index_t n = a[0].rows(), m = columns(a[1]);
    if (n == 0 || (!d[0] && !d[1])) return;
    const row_major g = solve(as_matrix(a[0]), matrix_in(d_out, n, m), true);  // A^-T G
    if (d[1]) matrix_out(d[1], n, m) += g;
    if (!d[0]) return;
    const row_major da = -g * matrix_in(out.data, n, m).transpose();
    matrix_out to(d[0], n, n);
    if (lower_) to.triangularView<Eigen::Lower>() += da;
    else to += da;
  }

 private:
  static index_t columns(const view& b) { return b.shape.rank == 1 ? 1 : b.cols(); }
  // A^-1 B, or A^-T B with `transposed`.
  row_major solve(const matrix_in& a, const matrix_in& b, bool transposed) const {
    if (lower_) {
      const auto l = a.triangularView<Eigen::Lower>();
      return transposed ? row_major(l.transpose().solve(b)) : row_major(l.solve(b));
    }
    return transposed ? row_major(a.transpose().partialPivLu().solve(b)) : row_major(a.partialPivLu().solve(b));
  }
  bool lower_;
};

}  // namespace

std::unique_ptr<function> make_left_division(std::string_view name) {
  if (name == "mdivide_left") return std::make_unique<left_division>(false);
  expect_name(name, "mdivide_left_tri_low");
  return std::make_unique<left_division>(true);
}

std::unique_ptr<function> make_inverse(std::string_view name) {
  expect_name(name, "inverse");
  return std::make_unique<inverse>();
}

std::unique_ptr<function> make_log_determinant(std::string_view name) {
  expect_name(name, "log_determinant");
  return std::make_unique<log_determinant_function>();
}

std::unique_ptr<function> make_cholesky(std::string_view name) {
  if (name != "cholesky") expect_name(name, "cholesky_decompose");
  return std::make_unique<cholesky>(name);
}

}  // namespace ppl::stdlib
