// Functions whose result has a shape of its own: products, transposes, softmax, rep,
// length, and max/min (a reduction with one argument, elementwise with two).
#include "stdlib/linear_algebra.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace ppl::stdlib {

namespace {

using matrix_map = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
using vector_map = Eigen::Map<const Eigen::VectorXd>;
using out_matrix = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
using out_vector = Eigen::Map<Eigen::VectorXd>;

matrix_map as_matrix(const view& v) { return {v.data, v.rows(), v.cols()}; }
vector_map as_vector(const view& v) { return {v.data, v.size()}; }

// a * b: scaling when either is a scalar, else matrix-vector, vector-matrix or
// matrix-matrix products (vectors are columns; v * M means v' M).
class product final : public function {
 public:
  std::string_view name() const override { return "*"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2) return std::string("* takes 2 operands");
    scalar_kind k = a[0].kind == scalar_kind::integer && a[1].kind == scalar_kind::integer ? scalar_kind::integer : scalar_kind::real;
    int r0 = a[0].rank, r1 = a[1].rank;
    if (r0 == 0 || r1 == 0) return type_sig{k, std::max(r0, r1)};
    if (r0 == 1 && r1 == 1) return std::string("`*` of two vectors is ambiguous; use dot(u, v) or u .* v");
    if (r0 > 2 || r1 > 2) return "`*` needs scalars, vectors or matrices, got " + to_string(a[0]) + " and " + to_string(a[1]);
    return type_sig{k, r0 == 2 && r1 == 2 ? 2 : 1};
  }
  shape result_shape(std::span<const view> a) const override {
    const shape &s0 = a[0].shape, &s1 = a[1].shape;
    if (s0.rank == 0) return s1;
    if (s1.rank == 0) return s0;
    index_t inner0 = s0.rank == 2 ? s0[1] : s0[0];
    index_t inner1 = s1[0];
    if (inner0 != inner1)
      throw argument_error("`*`: sizes do not match for a product: " + s0.str() + " and " + s1.str());
    if (s0.rank == 2 && s1.rank == 2) return shape::matrix(s0[0], s1[1]);
    return shape::vector(s0.rank == 2 ? s0[0] : s1[1]);
  }
  void eval(std::span<const view> a, double* out) const override {
    const view &x = a[0], &y = a[1];
    if (x.shape.rank == 0 || y.shape.rank == 0) {
      const view& s = x.shape.rank == 0 ? x : y;
      const view& t = x.shape.rank == 0 ? y : x;
      for (index_t i = 0; i < t.size(); ++i) out[i] = s[0] * t[i];
    } else if (x.shape.rank == 2 && y.shape.rank == 1) {
      out_vector(out, x.rows()) = as_matrix(x) * as_vector(y);
    } else if (x.shape.rank == 1) {
      out_vector(out, y.cols()) = as_matrix(y).transpose() * as_vector(x);
    } else {
      out_matrix(out, x.rows(), y.cols()) = as_matrix(x) * as_matrix(y);
    }
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    const view &x = a[0], &y = a[1];
    if (x.shape.rank == 0 || y.shape.rank == 0) {
      bool x_scalar = x.shape.rank == 0;
      const view& t = x_scalar ? y : x;
      double* ds = d[x_scalar ? 0 : 1];
      double* dt = d[x_scalar ? 1 : 0];
      double s = (x_scalar ? x : y)[0];
      for (index_t i = 0; i < t.size(); ++i) {
        if (ds) ds[0] += t[i] * d_out[i];
        if (dt) dt[i] += s * d_out[i];
      }
      return;
    }
    if (x.shape.rank == 2 && y.shape.rank == 1) {
      vector_map g(d_out, x.rows());
      if (d[0]) Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(d[0], x.rows(), x.cols()) += g * as_vector(y).transpose();
      if (d[1]) out_vector(d[1], y.size()) += as_matrix(x).transpose() * g;
    } else if (x.shape.rank == 1) {
      vector_map g(d_out, y.cols());
      if (d[0]) out_vector(d[0], x.size()) += as_matrix(y) * g;
      if (d[1]) Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(d[1], y.rows(), y.cols()) += as_vector(x) * g.transpose();
    } else {
      matrix_map g(d_out, x.rows(), y.cols());
      if (d[0]) out_matrix(d[0], x.rows(), x.cols()) += g * as_matrix(y).transpose();
      if (d[1]) out_matrix(d[1], y.rows(), y.cols()) += as_matrix(x).transpose() * g;
    }
  }
};

class dot final : public function {
 public:
  std::string_view name() const override { return "dot"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 1 || a[1].rank != 1)
      return std::string("dot expects two vectors") + (a.size() == 2 ? ", got " + to_string(a[0]) + " and " + to_string(a[1]) : "");
    return type_sig{a[0].kind == scalar_kind::integer && a[1].kind == scalar_kind::integer ? scalar_kind::integer : scalar_kind::real, 0};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a[0].size() != a[1].size())
      throw argument_error("dot: arguments have sizes " + std::to_string(a[0].size()) + " and " + std::to_string(a[1].size()));
    return shape::scalar();
  }
  void eval(std::span<const view> a, double* out) const override { out[0] = as_vector(a[0]).dot(as_vector(a[1])); }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    for (index_t i = 0; i < a[0].size(); ++i) {
      if (d[0]) d[0][i] += a[1][i] * d_out[0];
      if (d[1]) d[1][i] += a[0][i] * d_out[0];
    }
  }
};

class transpose final : public function {
 public:
  explicit transpose(const char* name) : name_(name) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 1 || a[0].rank != 2) return std::string("transpose expects a matrix") + (a.size() == 1 ? ", got " + to_string(a[0]) : "");
    return a[0];
  }
  shape result_shape(std::span<const view> a) const override { return shape::matrix(a[0].cols(), a[0].rows()); }
  void eval(std::span<const view> a, double* out) const override {
    out_matrix(out, a[0].cols(), a[0].rows()) = as_matrix(a[0]).transpose();
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (d[0]) out_matrix(d[0], a[0].rows(), a[0].cols()) += matrix_map(d_out, a[0].cols(), a[0].rows()).transpose();
  }

 private:
  const char* name_;
};

class softmax final : public function {
 public:
  std::string_view name() const override { return "softmax"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 1 || a[0].rank != 1) return std::string("softmax expects a vector");
    return type_sig{scalar_kind::real, 1};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a[0].size() == 0) throw argument_error("softmax: the vector is empty");
    return a[0].shape;
  }
  void eval(std::span<const view> a, double* out) const override {
    double m = *std::max_element(a[0].begin(), a[0].end()), s = 0;
    for (index_t i = 0; i < a[0].size(); ++i) s += out[i] = std::exp(a[0][i] - m);
    for (index_t i = 0; i < a[0].size(); ++i) out[i] /= s;
  }
  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    double inner = 0;
    for (index_t i = 0; i < out.size(); ++i) inner += out[i] * d_out[i];
    for (index_t i = 0; i < a[0].size(); ++i) d[0][i] += out[i] * (d_out[i] - inner);
  }
};

// rep(x, n): a vector of n copies of the scalar x.
class rep final : public function {
 public:
  std::string_view name() const override { return "rep"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 0 || a[1].rank != 0 || a[1].kind != scalar_kind::integer)
      return std::string("rep expects a scalar and an integer count: rep(x, n)");
    return type_sig{a[0].kind, 1};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a[1][0] < 0) throw argument_error("rep: the count is negative");
    return shape::vector(static_cast<index_t>(a[1][0]));
  }
  void eval(std::span<const view> a, double* out) const override {
    std::fill(out, out + static_cast<index_t>(a[1][0]), a[0][0]);
  }
  void backward(std::span<const view>, view out, const double* d_out, std::span<double* const> d) const override {
    if (d[0])
      for (index_t i = 0; i < out.size(); ++i) d[0][0] += d_out[i];
  }
};

class length final : public function {
 public:
  std::string_view name() const override { return "length"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 1) return std::string("length takes 1 argument");
    return type_sig{scalar_kind::integer, 0};
  }
  shape result_shape(std::span<const view>) const override { return shape::scalar(); }
  void eval(std::span<const view> a, double* out) const override { out[0] = static_cast<double>(a[0].size()); }
  void backward(std::span<const view>, view, const double*, std::span<double* const>) const override {}
  bool differentiable() const override { return false; }
};

// max(v) / min(v) of an array, or max(a, b) / min(a, b) of two scalars.
class extreme final : public function {
 public:
  explicit extreme(bool is_max) : max_(is_max) {}
  std::string_view name() const override { return max_ ? "max" : "min"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() == 1 || (a.size() == 2 && a[0].rank == 0 && a[1].rank == 0)) {
      bool integer = std::all_of(a.begin(), a.end(), [](const type_sig& t) { return t.kind == scalar_kind::integer; });
      return type_sig{integer ? scalar_kind::integer : scalar_kind::real, 0};
    }
    return std::string(name()) + " expects one array or two scalars";
  }
  shape result_shape(std::span<const view> a) const override {
    if (a.size() == 1 && a[0].size() == 0) throw argument_error(std::string(name()) + ": the array is empty");
    return shape::scalar();
  }
  void eval(std::span<const view> a, double* out) const override { out[0] = *pick(a); }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    const double* p = pick(a);
    if (a.size() == 1) {
      if (d[0]) d[0][p - a[0].data] += d_out[0];
    } else {
      std::size_t k = p == a[0].data ? 0 : 1;
      if (d[k]) d[k][0] += d_out[0];
    }
  }
  bool differentiable() const override { return false; }

 private:
  const double* pick(std::span<const view> a) const {
    if (a.size() == 2) return (max_ ? a[1][0] > a[0][0] : a[1][0] < a[0][0]) ? a[1].data : a[0].data;
    return max_ ? std::max_element(a[0].begin(), a[0].end()) : std::min_element(a[0].begin(), a[0].end());
  }
  bool max_;
};

}  // namespace

void register_linear_algebra(registry& r) {
  r.add(std::make_unique<transpose>("'"));
  r.add(std::make_unique<product>());
  r.add(std::make_unique<dot>());
  r.add(std::make_unique<length>());
  r.add(std::make_unique<extreme>(true));
  r.add(std::make_unique<extreme>(false));
  r.add(std::make_unique<rep>());
  r.add(std::make_unique<softmax>());
  r.add(std::make_unique<transpose>("transpose"));
}

}  // namespace ppl::stdlib
