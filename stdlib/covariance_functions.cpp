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
//
// Its stationary relatives, as Stan names them (Rasmussen & Williams 2006, section 4.2),
// K_ij = alpha^2 h(u), u = d_ij / rho:
//   gp_exponential_cov  h = e^-u                            (Matern 1/2)
//   gp_matern32_cov     h = (1 + sqrt(3) u) e^-(sqrt(3) u)
//   gp_matern52_cov     h = (1 + sqrt(5) u + 5 u^2 / 3) e^-(sqrt(5) u)
// with d rho += sum G_ij alpha^2 h'(u) (-u / rho) and d x_i += sum_j (G_ij + G_ji) alpha^2
// (h'(u) / u) (x_i - x_j) / rho^2, where h'(u) / u is -3 e^-(sqrt(3) u) and
// -(5 / 3)(1 + sqrt(5) u) e^-(sqrt(5) u) for the Matern kernels (finite as the points meet);
// the exponential kernel has no derivative where two points coincide, and passes none there.
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

// What the kernels below share: their signature gp_*(x, alpha, rho), x a point per
// element (real[N]) or per row (real[N, D]), and the checks of alpha and rho.
class kernel : public function {
 public:
  explicit kernel(std::string_view name) : name_(name) {}
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

 protected:
  // |x_i - x_j|^2 of the points in rows i and j.
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

class exp_quad_cov final : public kernel {
 public:
  using kernel::kernel;
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
};

// The stationary kernels above, K_ij = alpha^2 h(d_ij / rho), h(0) = 1.
class stationary_cov final : public kernel {
 public:
  enum class family { exponential, matern32, matern52 };
  stationary_cov(std::string_view name, family f) : kernel(name), family_(f) {}
  void eval(std::span<const view> a, double* out) const override {
    const index_t n = a[0].rows();
    const double alpha2 = a[1][0] * a[1][0], rho = a[2][0];
    for (index_t i = 0; i < n; ++i) {
      out[i * n + i] = alpha2;
      for (index_t j = 0; j < i; ++j) out[i * n + j] = out[j * n + i] = alpha2 * profile(distance(a[0], i, j) / rho).h;
    }
  }
  void backward(std::span<const view> a, view out, const double* g, std::span<double* const> d) const override {
    const view& x = a[0];
    const index_t n = x.rows(), dims = x.cols();
    const double alpha = a[1][0], alpha2 = alpha * alpha, rho = a[2][0];
    double d_alpha = 0, d_rho = 0;
    for (index_t i = 0; i < n; ++i) {
      d_alpha += g[i * n + i] * 2 * alpha;  // K_ii = alpha^2
      for (index_t j = 0; j < i; ++j) {
        const double both = g[i * n + j] + g[j * n + i];
        if (both == 0) continue;
        const double u = distance(x, i, j) / rho;
        const shape_of p = profile(u);
        if (alpha != 0) d_alpha += both * 2 * out[i * n + j] / alpha;
        d_rho -= both * alpha2 * p.slope_over_u * u * u / rho;  // h'(u) (-u / rho)
        if (d[0] && std::isfinite(p.slope_over_u))
          for (index_t c = 0; c < dims; ++c) {
            const double step = both * alpha2 * p.slope_over_u * (x[i * dims + c] - x[j * dims + c]) / (rho * rho);
            d[0][i * dims + c] += step;
            d[0][j * dims + c] -= step;
          }
      }
    }
    if (d[1]) d[1][0] += d_alpha;
    if (d[2]) d[2][0] += d_rho;
  }

 private:
  struct shape_of {
    double h, slope_over_u;  // h(u) and h'(u) / u
  };
  shape_of profile(double u) const {
    switch (family_) {
      case family::exponential: {
        const double e = std::exp(-u);
        return {e, u > 0 ? -e / u : INFINITY};
      }
      case family::matern32: {
        const double s = std::sqrt(3.0) * u, e = std::exp(-s);
        return {(1 + s) * e, -3 * e};
      }
      case family::matern52: {
        const double s = std::sqrt(5.0) * u, e = std::exp(-s);
        return {(1 + s + s * s / 3) * e, -(5.0 / 3) * (1 + s) * e};
      }
    }
    return {0, 0};
  }
  static double distance(const view& x, index_t i, index_t j) { return std::sqrt(squared_distance(x, i, j)); }
  family family_;
};

}  // namespace

std::unique_ptr<function> make_covariance_function(std::string_view name) {
  if (name == "gp_exp_quad_cov" || name == "cov_exp_quad") return std::make_unique<exp_quad_cov>(name);
  if (name == "gp_exponential_cov") return std::make_unique<stationary_cov>(name, stationary_cov::family::exponential);
  if (name == "gp_matern32_cov") return std::make_unique<stationary_cov>(name, stationary_cov::family::matern32);
  if (name == "gp_matern52_cov") return std::make_unique<stationary_cov>(name, stationary_cov::family::matern52);
  if (name == "diag_pre_multiply") return std::make_unique<diag_pre_multiply>();
  if (name == "quad_form_diag") return std::make_unique<quad_form_diag>();
  expect_name(name, "multiply_lower_tri_self_transpose");
  return std::make_unique<lower_tri_self_transpose>();
}

}  // namespace ppl::stdlib
