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
//
// And a Gaussian process's squared-exponential kernel (Rasmussen & Williams 2006, eq.
// 2.16), Stan's gp_exp_quad_cov (cov_exp_quad, its older name): points x (real[N], or
// real[N, D] a point per row),
//   K_ij = alpha^2 exp(-d_ij^2 / (2 rho^2)),  d_ij^2 = |x_i - x_j|^2,
// with d alpha += sum G_ij 2 K_ij / alpha, d rho += sum G_ij K_ij d_ij^2 / rho^3 and
// d x_i += sum_j (G_ij + G_ji) K_ij (x_j - x_i) / rho^2: one call and its adjoint in
// closed form, where a kernel written element by element is a dozen nodes an element.
#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "stdlib/checks.hpp"
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

class exp_quad_cov final : public function {
 public:
  explicit exp_quad_cov(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 3 || (a[0].rank != 1 && a[0].rank != 2) || a[1].rank != 0 || a[2].rank != 0)
      return std::string(name_) + " expects points (real[N], or real[N, D] a point per row), alpha and rho, " + std::string(name_) +
             "(x, alpha, rho), got " + describe_types(a);
    return type_sig{scalar_kind::real, 2};
  }
  shape result_shape(std::span<const view> a) const override {
    const double alpha = a[1][0], rho = a[2][0];
    if (!(alpha >= 0) || std::isinf(alpha)) throw argument_error(std::string(name_) + ": alpha is " + format_number(alpha) + "; it must be >= 0 and finite");
    if (!(rho > 0) || std::isinf(rho)) throw argument_error(std::string(name_) + ": rho is " + format_number(rho) + "; it must be > 0 and finite");
    return shape::matrix(a[0].rows(), a[0].rows());
  }
  void eval(std::span<const view> a, double* out) const override {
    const index_t n = a[0].rows();
    const double alpha2 = a[1][0] * a[1][0], scale = -0.5 / (a[2][0] * a[2][0]);
    for (index_t i = 0; i < n; ++i) {
      out[i * n + i] = alpha2;
      for (index_t j = 0; j < i; ++j) out[i * n + j] = out[j * n + i] = alpha2 * std::exp(scale * squared_distance(a[0], i, j));
    }
  }
  void backward(std::span<const view> a, view out, const double* g, std::span<double* const> d) const override {
    const view& x = a[0];
    const index_t n = x.rows(), dims = x.cols();
    const double alpha = a[1][0], rho = a[2][0], rho2 = rho * rho;
    double d_alpha = 0, d_rho = 0;
    for (index_t i = 0; i < n; ++i) {
      d_alpha += g[i * n + i] * 2 * alpha;  // K_ii = alpha^2
      for (index_t j = 0; j < i; ++j) {
        const double k = out[i * n + j], both = g[i * n + j] + g[j * n + i];
        if (both == 0) continue;
        const double d2 = squared_distance(x, i, j);
        if (alpha != 0) d_alpha += both * 2 * k / alpha;  // at alpha = 0 every K_ij is 0 and so is this
        d_rho += both * k * d2 / (rho2 * rho);
        if (d[0])
          for (index_t c = 0; c < dims; ++c) {
            const double step = both * k * (x[j * dims + c] - x[i * dims + c]) / rho2;
            d[0][i * dims + c] += step;
            d[0][j * dims + c] -= step;
          }
      }
    }
    if (d[1]) d[1][0] += d_alpha;
    if (d[2]) d[2][0] += d_rho;
  }

 private:
  static double squared_distance(const view& x, index_t i, index_t j) {
    const index_t dims = x.cols();
    double total = 0;
    for (index_t c = 0; c < dims; ++c) {
      const double diff = x[i * dims + c] - x[j * dims + c];
      total += diff * diff;
    }
    return total;
  }
  std::string_view name_;
};

}  // namespace

std::unique_ptr<function> make_covariance_function(std::string_view name) {
  if (name == "gp_exp_quad_cov" || name == "cov_exp_quad") return std::make_unique<exp_quad_cov>(name);
  if (name == "diag_pre_multiply") return std::make_unique<diag_pre_multiply>();
  if (name == "quad_form_diag") return std::make_unique<quad_form_diag>();
  expect_name(name, "multiply_lower_tri_self_transpose");
  return std::make_unique<lower_tri_self_transpose>();
}

}  // namespace ppl::stdlib
