// append_row(a, b) and append_col(a, b), as in Stan with vectors as columns:
//   append_row: vectors (or a scalar and a vector) end to end; matrices of as many columns
//               stacked.
//   append_col: matrices of as many rows side by side; a vector counts as one column, so two
//               vectors make an n x 2 matrix.
// Operands are read as row-major blocks: a vector is n x 1 and a scalar 1 x 1.
#include <algorithm>
#include <string>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

struct block {
  index_t rows, cols;
};

block block_of(const view& v) {
  if (v.shape.rank == 0) return {1, 1};
  if (v.shape.rank == 1) return {v.size(), 1};
  return {v.rows(), v.cols()};
}

scalar_kind joint_kind(std::span<const type_sig> a) {
  return a[0].kind == scalar_kind::integer && a[1].kind == scalar_kind::integer ? scalar_kind::integer
                                                                                : scalar_kind::real;
}

class append final : public function {
 public:
  explicit append(bool rows) : rows_(rows) {}
  std::string_view name() const override { return rows_ ? "append_row" : "append_col"; }
  type_result result_type(std::span<const type_sig> a) const override {
    const std::string wanted = rows_ ? " expects two vectors, a scalar and a vector, or two matrices, got "
                                     : " expects two matrices or vectors, got ";
    if (a.size() != 2) return std::string(name()) + wanted + describe_types(a);
    const int r0 = a[0].rank, r1 = a[1].rank;
    if (rows_ && r0 <= 1 && r1 <= 1 && r0 + r1 >= 1) return type_sig{joint_kind(a), 1};
    if (rows_ && r0 == 2 && r1 == 2) return type_sig{joint_kind(a), 2};
    if (!rows_ && r0 >= 1 && r0 <= 2 && r1 >= 1 && r1 <= 2) return type_sig{joint_kind(a), 2};
    return std::string(name()) + wanted + describe_types(a);
  }
  shape result_shape(std::span<const view> a) const override {
    const block x = block_of(a[0]), y = block_of(a[1]);
    if (rows_ ? x.cols != y.cols : x.rows != y.rows)
      throw argument_error(std::string(name()) + ": operands have " + (rows_ ? "columns " : "rows ") +
                           std::to_string(rows_ ? x.cols : x.rows) + " and " + std::to_string(rows_ ? y.cols : y.rows) +
                           "; they must be the same");
    if (!rows_) return shape::matrix(x.rows, x.cols + y.cols);
    if (a[0].shape.rank <= 1) return shape::vector(x.rows + y.rows);
    return shape::matrix(x.rows + y.rows, x.cols);
  }
  // Stacked rows are the two operands' data one after the other; side by side, each row of
  // the result is a row of a then a row of b.
  void eval(std::span<const view> a, double* out) const override {
    const block x = block_of(a[0]), y = block_of(a[1]);
    if (rows_) {
      std::copy(a[1].begin(), a[1].end(), std::copy(a[0].begin(), a[0].end(), out));
      return;
    }
    for (index_t i = 0; i < x.rows; ++i) {
      out = std::copy(a[0].data + i * x.cols, a[0].data + (i + 1) * x.cols, out);
      out = std::copy(a[1].data + i * y.cols, a[1].data + (i + 1) * y.cols, out);
    }
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    const block x = block_of(a[0]), y = block_of(a[1]);
    const index_t width = rows_ ? 0 : x.cols + y.cols;
    for (index_t i = 0; i < x.rows; ++i)
      for (index_t j = 0; j < x.cols; ++j)
        if (d[0]) d[0][i * x.cols + j] += d_out[rows_ ? i * x.cols + j : i * width + j];
    for (index_t i = 0; i < y.rows; ++i)
      for (index_t j = 0; j < y.cols; ++j)
        if (d[1]) d[1][i * y.cols + j] += d_out[rows_ ? a[0].size() + i * y.cols + j : i * width + x.cols + j];
  }

 private:
  bool rows_;
};

}  // namespace

std::unique_ptr<function> make_append(std::string_view name) {
  if (name != "append_row") expect_name(name, "append_col");
  return std::make_unique<append>(name == "append_row");
}

}  // namespace ppl::stdlib
