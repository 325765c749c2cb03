// The products that build a covariance matrix from a correlation matrix, or its Cholesky
// factor, and scales, as Stan models write them
// (`MultiNormal(mu, quad_form_diag(multiply_lower_tri_self_transpose(L), tau))`), with
// their reverse-mode adjoints (G the result's adjoint):
//   multiply_lower_tri_self_transpose(L)  T T' with T the lower triangle of L (diagonal
//                                         included; the rest of L is not read);
//                                         d T += (G + G') T on the lower triangle
//   diag_pre_multiply(v, M)               diag(v) M:  d v_i += sum_j G_ij M_ij,
//                                         d M_ij += v_i G_ij
//   quad_form_diag(M, v)                  diag(v) M diag(v):  d M_ij += v_i v_j G_ij,
//                                         d v_i += sum_j (G_ij M_ij + G_ji M_ji) v_j
// The first is exactly symmetric (each entry below the diagonal computed once and
// mirrored), so that MultiNormal takes it as a covariance.
#include <Eigen/Dense>
#include <string>

#include "stdlib/eigen_views.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

class lower_tri_self_transpose final : public function {
 public:
  std::string_view name() const override { return "multiply_lower_tri_self_transpose"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 1 || a[0].rank != 2) return std::string(name()) + " expects one matrix, got " + describe_types(a);
    return type_sig{scalar_kind::real, 2};
  }
  shape result_shape(std::span<const view> a) const override { return shape::matrix(a[0].rows(), a[0].rows()); }
  void eval(std::span<const view> a, double* out) const override {
    const row_major t = lower(a[0]);
    const index_t m = t.rows();
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j <= i; ++j) out[i * m + j] = out[j * m + i] = t.row(i).dot(t.row(j));
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    const index_t m = a[0].rows(), n = a[0].cols();
    const matrix_in g(d_out, m, m);
    const row_major dt = (g + g.transpose()) * lower(a[0]);
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j <= i && j < n; ++j) d[0][i * n + j] += dt(i, j);
  }

 private:
  static row_major lower(const view& l) { return as_matrix(l).triangularView<Eigen::Lower>(); }
};

class diag_pre_multiply final : public function {
 public:
  std::string_view name() const override { return "diag_pre_multiply"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 1 || a[1].rank != 2)
      return std::string(name()) + " expects a vector and a matrix, diag_pre_multiply(v, M), got " + describe_types(a);
    return type_sig{scalar_kind::real, 2};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a[0].size() != a[1].rows())
      throw argument_error(std::string(name()) + ": v has size " + std::to_string(a[0].size()) + " but M has " +
                           std::to_string(a[1].rows()) + " rows; they must be equal");
    return a[1].shape;
  }
  void eval(std::span<const view> a, double* out) const override {
    const index_t m = a[1].rows(), n = a[1].cols();
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) out[i * n + j] = a[0][i] * a[1][i * n + j];
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    const index_t m = a[1].rows(), n = a[1].cols();
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        if (d[0]) d[0][i] += d_out[i * n + j] * a[1][i * n + j];
        if (d[1]) d[1][i * n + j] += a[0][i] * d_out[i * n + j];
      }
  }
};

class quad_form_diag final : public function {
 public:
  std::string_view name() const override { return "quad_form_diag"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 2 || a[1].rank != 1)
      return std::string(name()) + " expects a matrix and a vector, quad_form_diag(M, v), got " + describe_types(a);
    return type_sig{scalar_kind::real, 2};
  }
  shape result_shape(std::span<const view> a) const override {
    const index_t m = a[0].rows();
    if (a[0].cols() != m)
      throw argument_error(std::string(name()) + ": M is " + std::to_string(m) + " x " + std::to_string(a[0].cols()) +
                           "; it must be square");
    if (a[1].size() != m)
      throw argument_error(std::string(name()) + ": v has size " + std::to_string(a[1].size()) + " but M is " +
                           std::to_string(m) + " x " + std::to_string(m) + "; they must agree");
    return a[0].shape;
  }
  void eval(std::span<const view> a, double* out) const override {
    const index_t m = a[0].rows();
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < m; ++j) out[i * m + j] = a[1][i] * a[0][i * m + j] * a[1][j];
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    const index_t m = a[0].rows();
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < m; ++j) {
        const double g = d_out[i * m + j];
        if (d[0]) d[0][i * m + j] += a[1][i] * a[1][j] * g;
        if (d[1]) {
          d[1][i] += g * a[0][i * m + j] * a[1][j];
          d[1][j] += g * a[1][i] * a[0][i * m + j];
        }
      }
  }
};

}  // namespace

std::unique_ptr<function> make_covariance_function(std::string_view name) {
  if (name == "diag_pre_multiply") return std::make_unique<diag_pre_multiply>();
  if (name == "quad_form_diag") return std::make_unique<quad_form_diag>();
  expect_name(name, "multiply_lower_tri_self_transpose");
  return std::make_unique<lower_tri_self_transpose>();
}

}  // namespace ppl::stdlib
