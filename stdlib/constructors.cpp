// Functions that build arrays or describe them: rep(x, n), rep_matrix, diag_matrix and
// identity_matrix; length, rows and cols.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

// A count argument (rep's n, a matrix's rows), checked before it becomes an integer:
// converting a negative, fractional or huge double would be wrong or undefined. Sizes are
// known only when the count is, as with rep(eta, V) for V = max(word).
index_t count_argument(std::string_view fn, std::string_view what, double n) {
  std::ostringstream message;
  message << fn << ": the count " << what << " is " << n;
  if (!(n >= 0) || n != std::floor(n)) throw argument_error(message.str() + "; it must be a non-negative integer");
  // The evaluator refuses any result over 2^28 elements; here only what no integer holds.
  if (n > 0x1p53) throw argument_error(message.str() + ", more than the limit of 268435456 (2^28)");
  return static_cast<index_t>(n);
}

bool is_count(const type_sig& t) { return t.rank == 0 && t.kind == scalar_kind::integer; }

// rep(x, n): a vector of n copies of the scalar x; Stan's rep_vector, rep_row_vector and
// rep_array of a scalar are the same (ppl has one kind of vector).
class rep final : public function {
 public:
  explicit rep(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 0 || !is_count(a[1]))
      return name_ + " expects a scalar and an integer count, " + name_ + "(x, n), got " + describe_types(a);
    return type_sig{a[0].kind, 1};
  }
  shape result_shape(std::span<const view> a) const override { return shape::vector(count_argument(name_, "n", a[1][0])); }
  void eval(std::span<const view> a, double* out) const override {
    std::fill(out, out + static_cast<index_t>(a[1][0]), a[0][0]);
  }
  // Every copy passes its adjoint back to x; the count n has no derivative.
  void backward(std::span<const view>, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    for (index_t i = 0; i < out.size(); ++i) d[0][0] += d_out[i];
  }

 private:
  std::string name_;
};

// rep_matrix(x, m, n): m x n copies of the scalar x; rep_matrix(v, n): n columns, each v.
class rep_matrix final : public function {
 public:
  std::string_view name() const override { return "rep_matrix"; }
  type_result result_type(std::span<const type_sig> a) const override {
    const bool scalar = a.size() == 3 && a[0].rank == 0 && is_count(a[1]) && is_count(a[2]);
    const bool columns = a.size() == 2 && a[0].rank == 1 && is_count(a[1]);
    if (!scalar && !columns)
      return "rep_matrix expects rep_matrix(x, m, n) of a scalar and two integer counts, or rep_matrix(v, n) of a "
             "vector and a count, got " + describe_types(a);
    return type_sig{a[0].kind, 2};
  }
  shape result_shape(std::span<const view> a) const override {
    if (a.size() == 2) return shape::matrix(a[0].size(), count_argument("rep_matrix", "n", a[1][0]));
    return shape::matrix(count_argument("rep_matrix", "m", a[1][0]), count_argument("rep_matrix", "n", a[2][0]));
  }
  void eval(std::span<const view> a, double* out) const override {
    const shape s = result_shape(a);
    for (index_t i = 0; i < s[0]; ++i)
      std::fill(out + i * s[1], out + (i + 1) * s[1], a[0].shape.rank == 0 ? a[0][0] : a[0][i]);
  }
  // An entry of x or v receives the adjoints of all its copies: a row of the result each.
  void backward(std::span<const view> a, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    const index_t cols = out.cols();
    for (index_t i = 0; i < out.rows(); ++i) {
      double row = 0;
      for (index_t j = 0; j < cols; ++j) row += d_out[i * cols + j];
      d[0][a[0].shape.rank == 0 ? 0 : i] += row;
    }
  }
};

// diag_matrix(v): the square matrix with v on its diagonal; identity_matrix(n).
class diagonal final : public function {
 public:
  explicit diagonal(bool identity) : identity_(identity) {}
  std::string_view name() const override { return identity_ ? "identity_matrix" : "diag_matrix"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (identity_) {
      if (a.size() != 1 || !is_count(a[0])) return "identity_matrix expects an integer size, got " + describe_types(a);
      return type_sig{scalar_kind::real, 2};
    }
    if (a.size() != 1 || a[0].rank != 1) return "diag_matrix expects one vector, got " + describe_types(a);
    return type_sig{a[0].kind, 2};
  }
  shape result_shape(std::span<const view> a) const override {
    const index_t n = identity_ ? count_argument("identity_matrix", "n", a[0][0]) : a[0].size();
    return shape::matrix(n, n);
  }
  void eval(std::span<const view> a, double* out) const override {
    const index_t n = result_shape(a)[0];
    std::fill(out, out + n * n, 0.0);
    for (index_t i = 0; i < n; ++i) out[i * n + i] = identity_ ? 1.0 : a[0][i];
  }
  void backward(std::span<const view>, view out, const double* d_out, std::span<double* const> d) const override {
    if (identity_ || !d[0]) return;
    const index_t n = out.rows();
    for (index_t i = 0; i < n; ++i) d[0][i] += d_out[i * n + i];
  }

 private:
  bool identity_;
};

// length(v) and Stan's num_elements(v): the number of elements of an array of any rank
// (1 for a scalar); size(v), Stan's, its first dimension (1 for a scalar); rows and
// cols of a matrix, or of a vector as a column (its size and 1), as in Stan. Their
// derivatives are zero rather than undefined, so they stay differentiable: sum(x) /
// length(x) must not block gradients of x.
class size final : public function {
 public:
  explicit size(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (name_ == "length" || name_ == "num_elements" || name_ == "size") {
      if (a.size() != 1) return name_ + " takes 1 argument, got " + std::to_string(a.size());
    } else if (a.size() != 1 || a[0].rank < 1 || a[0].rank > 2) {
      return name_ + " expects a vector or a matrix, got " + describe_types(a);
    }
    return type_sig{scalar_kind::integer, 0};
  }
  shape result_shape(std::span<const view>) const override { return shape::scalar(); }
  void eval(std::span<const view> a, double* out) const override {
    // size: Stan's, the first dimension (1 for a scalar); num_elements as length, all of them.
    const index_t n = name_ == "size"  ? (a[0].shape.rank == 0 ? 1 : a[0].shape[0])
                      : name_ == "rows" ? a[0].rows()
                      : name_ == "cols" ? a[0].cols()
                                        : a[0].size();
    out[0] = static_cast<double>(n);
  }
  void backward(std::span<const view>, view, const double*, std::span<double* const>) const override {}

 private:
  std::string name_;
};

}  // namespace

std::unique_ptr<function> make_rep(std::string_view name) {
  if (name != "rep_vector" && name != "rep_row_vector" && name != "rep_array") expect_name(name, "rep");
  return std::make_unique<rep>(name);
}

std::unique_ptr<function> make_rep_matrix(std::string_view name) {
  expect_name(name, "rep_matrix");
  return std::make_unique<rep_matrix>();
}

std::unique_ptr<function> make_diagonal(std::string_view name) {
  if (name != "diag_matrix") expect_name(name, "identity_matrix");
  return std::make_unique<diagonal>(name == "identity_matrix");
}

std::unique_ptr<function> make_size(std::string_view name) {
  if (name != "length" && name != "num_elements" && name != "size" && name != "rows") expect_name(name, "cols");
  return std::make_unique<size>(name);
}

}  // namespace ppl::stdlib
