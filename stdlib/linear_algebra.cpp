// Products and transposes, on Eigen maps over the row-major data. Vectors are columns, so
// M * v is the matrix-vector product and v * M means v' M, the row vector as a vector.
#include <Eigen/Dense>
#include <stdexcept>
#include <string>

#include "stdlib/eigen_views.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

using vector_in = Eigen::Map<const Eigen::VectorXd>;
using vector_out = Eigen::Map<Eigen::VectorXd>;

vector_in as_vector(const view& v) { return {v.data, v.size()}; }

// to += a b' for a row-major rows x cols `to`, row by row: each row is contiguous, so the
// update is one vectorised axpy per row (an Eigen outer-product expression would build a
// column-major temporary and add it with strided reads).
void add_outer(double* to, const double* a, index_t rows, const double* b, index_t cols) {
  for (index_t i = 0; i < rows; ++i) {
    const double ai = a[i];
    double* row = to + i * cols;
    for (index_t j = 0; j < cols; ++j) row[j] += ai * b[j];
  }
}

scalar_kind both_integer(const type_sig& a, const type_sig& b) {
  return a.kind == scalar_kind::integer && b.kind == scalar_kind::integer ? scalar_kind::integer : scalar_kind::real;
}

// a * b: scaling when either side is a scalar; otherwise M * v, v * M or A * B.
class product final : public function {
 public:
  std::string_view name() const override { return "*"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2) return "`*` takes 2 operands, got " + std::to_string(a.size());
    const int r0 = a[0].rank, r1 = a[1].rank;
    if (r0 == 0 || r1 == 0) return type_sig{both_integer(a[0], a[1]), std::max(r0, r1)};
    if (r0 == 1 && r1 == 1) return std::string("`*` of two vectors is ambiguous; use dot(u, v) or u .* v");
    if (r0 > 2 || r1 > 2) return "`*` needs scalars, vectors or matrices, got " + describe_types(a);
    return type_sig{both_integer(a[0], a[1]), r0 == 2 && r1 == 2 ? 2 : 1};
  }
  shape result_shape(std::span<const view> a) const override {
    const shape &s0 = a[0].shape, &s1 = a[1].shape;
    if (s0.rank == 0) return s1;
    if (s1.rank == 0) return s0;
    const index_t inner0 = s0.rank == 2 ? s0[1] : s0[0];
    if (inner0 != s1[0]) throw argument_error("`*`: inner sizes differ: " + s0.str() + " * " + s1.str() +
                           "; the left operand's last size must equal the right operand's first");
    if (s0.rank == 2 && s1.rank == 2) return shape::matrix(s0[0], s1[1]);
    return shape::vector(s0.rank == 2 ? s0[0] : s1[1]);
  }
  void eval(std::span<const view> a, double* out) const override {
    const view &x = a[0], &y = a[1];
    if (x.shape.rank == 0 || y.shape.rank == 0) {
      const double s = x.shape.rank == 0 ? x[0] : y[0];
      const view& t = x.shape.rank == 0 ? y : x;
      for (index_t i = 0; i < t.size(); ++i) out[i] = times(s, t[i]);
    } else if (x.shape.rank == 2 && y.shape.rank == 1) {
      vector_out(out, x.rows()).noalias() = as_matrix(x) * as_vector(y);
    } else if (x.shape.rank == 1) {
      vector_out(out, y.cols()).noalias() = as_matrix(y).transpose() * as_vector(x);
    } else {
      matrix_out(out, x.rows(), y.cols()).noalias() = as_matrix(x) * as_matrix(y);
    }
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    const view &x = a[0], &y = a[1];
    if (x.shape.rank == 0) return scaling_backward(x, y, d_out, d[0], d[1]);
    if (y.shape.rank == 0) return scaling_backward(y, x, d_out, d[1], d[0]);
    if (x.shape.rank == 2 && y.shape.rank == 1) {
      const vector_in g(d_out, x.rows());  // d(M v) = dM v + M dv
      if (d[0]) add_outer(d[0], g.data(), x.rows(), y.data, x.cols());
      if (d[1]) vector_out(d[1], y.size()) += as_matrix(x).transpose() * g;
    } else if (x.shape.rank == 1) {
      const vector_in g(d_out, y.cols());  // d(M' v) = dM' v + M' dv
      if (d[0]) vector_out(d[0], x.size()) += as_matrix(y) * g;
      if (d[1]) add_outer(d[1], x.data, y.rows(), g.data(), y.cols());
    } else {
      const matrix_in g(d_out, x.rows(), y.cols());  // d(A B) = dA B + A dB
      if (d[0]) matrix_out(d[0], x.rows(), x.cols()) += g * as_matrix(y).transpose();
      if (d[1]) matrix_out(d[1], y.rows(), y.cols()) += as_matrix(x).transpose() * g;
    }
  }

 private:
  // out = s * t: ds gets sum_i t_i d_out_i, dt gets s d_out.
  static void scaling_backward(const view& s, const view& t, const double* d_out, double* ds, double* dt) {
    for (index_t i = 0; i < t.size(); ++i) {
      if (ds) ds[0] += t[i] * d_out[i];
      if (dt) dt[i] += s[0] * d_out[i];
    }
  }
};

class dot final : public function {
 public:
  std::string_view name() const override { return "dot"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 1 || a[1].rank != 1) return "dot expects two vectors, got " + describe_types(a);
    return type_sig{both_integer(a[0], a[1]), 0};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a[0].size() != a[1].size())
      throw argument_error("dot: arguments have sizes " + std::to_string(a[0].size()) + " and " +
                           std::to_string(a[1].size()));
    return shape::scalar();
  }
  void eval(std::span<const view> a, double* out) const override { out[0] = as_vector(a[0]).dot(as_vector(a[1])); }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (d[0]) vector_out(d[0], a[0].size()) += d_out[0] * as_vector(a[1]);
    if (d[1]) vector_out(d[1], a[1].size()) += d_out[0] * as_vector(a[0]);
  }
};

// transpose(M) and the postfix M'; of matrices only, since a vector is already a column
// and v * M is v' M.
class transpose final : public function {
 public:
  explicit transpose(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 1 || a[0].rank != 2) return display_name(name_) + " expects a matrix, got " + describe_types(a);
    return a[0];
  }
  shape result_shape(std::span<const view> a) const override { return shape::matrix(a[0].cols(), a[0].rows()); }
  void eval(std::span<const view> a, double* out) const override {
    matrix_out(out, a[0].cols(), a[0].rows()) = as_matrix(a[0]).transpose();
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (d[0]) matrix_out(d[0], a[0].rows(), a[0].cols()) += matrix_in(d_out, a[0].cols(), a[0].rows()).transpose();
  }

 private:
  std::string name_;
};

}  // namespace

std::unique_ptr<function> make_product(std::string_view name) {
  expect_name(name, "*");
  return std::make_unique<product>();
}

std::unique_ptr<function> make_dot(std::string_view name) {
  expect_name(name, "dot");
  return std::make_unique<dot>();
}

std::unique_ptr<function> make_transpose(std::string_view name) {
  if (name != "'") expect_name(name, "transpose");
  return std::make_unique<transpose>(name);
}

}  // namespace ppl::stdlib
