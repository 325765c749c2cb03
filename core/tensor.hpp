#pragma once
// Shapes and non-owning views of row-major double arrays: the one currency in which the
// graph, the evaluator and the standard library exchange values. Integers are stored as
// doubles (exact below 2^53), which keeps every kernel on one element type.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <string>
#include <string_view>
#include <vector>

namespace ppl {

using index_t = std::int64_t;
constexpr int max_rank = 4;

struct shape {
  int rank = 0;
  std::array<index_t, max_rank> dims{};

  static shape scalar() { return {}; }
  static shape vector(index_t n) { shape s; s.rank = 1; s.dims[0] = n; return s; }
  static shape matrix(index_t r, index_t c) {
    shape s; s.rank = 2; s.dims[0] = r; s.dims[1] = c; return s;
  }
  index_t operator[](int i) const { return dims[static_cast<std::size_t>(i)]; }
  index_t size() const {
    index_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[static_cast<std::size_t>(i)];
    return n;
  }
  // Elements spanned by one step of dimension i (row-major).
  index_t stride(int i) const {
    index_t n = 1;
    for (int k = i + 1; k < rank; ++k) n *= dims[static_cast<std::size_t>(k)];
    return n;
  }
  friend bool operator==(const shape& a, const shape& b) {
    if (a.rank != b.rank) return false;
    for (int i = 0; i < a.rank; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  // "[3, 4]"; the empty string for a scalar.
  std::string str() const {
    if (rank == 0) return {};
    std::string s = "[";
    for (int i = 0; i < rank; ++i) s += (i ? ", " : "") + std::to_string(dims[static_cast<std::size_t>(i)]);
    return s + "]";
  }
};

// A read-only window on contiguous row-major data.
struct view {
  const double* data = nullptr;
  ppl::shape shape;

  index_t size() const { return shape.size(); }
  double operator[](index_t i) const { return data[i]; }
  double scalar() const { return data[0]; }
  index_t rows() const { return shape[0]; }
  index_t cols() const { return shape.rank >= 2 ? shape[1] : 1; }
  double at(index_t i, index_t j) const { return data[i * cols() + j]; }
  const double* begin() const { return data; }
  const double* end() const { return data + size(); }
};

// Up to N views on the stack, each constructed as it is added. A std::array<view, N> would
// initialise all N (view's members have default initialisers): on the evaluator's path,
// once per node visited, that zeroing was a quarter of a recursion's gradient
// (bench/RESULTS.md, "Where a gradient's time goes").
template <std::size_t N>
class view_buffer {
  static_assert(std::is_trivially_destructible_v<view>);

 public:
  void push_back(const view& v) { std::construct_at(data() + size_++, v); }
  view* data() { return std::launder(reinterpret_cast<view*>(raw_)); }
  view& operator[](std::size_t i) { return data()[i]; }
  std::size_t size() const { return size_; }
  std::span<const view> span() { return {data(), size_}; }

 private:
  alignas(view) unsigned char raw_[sizeof(view) * N];
  std::size_t size_ = 0;
};

// A value over the rows of a batch (the instances of a plate evaluated at once): row r's
// value has shape `per` and starts at data + r * stride; a stride of 0 gives every row the
// same value (a plate-invariant argument, evaluated once).
struct column {
  const double* data = nullptr;
  ppl::shape per;
  index_t stride = 0;

  bool varies() const { return stride != 0; }
  ppl::view row(index_t r) const { return {data + r * stride, per}; }
  // Rows packed one after another (stride = the row's size), so that n rows read as one
  // flat array of n * size values.
  bool packed() const { return stride == per.size(); }
};

// An owning array with a shape.
struct tensor {
  std::vector<double> data;
  ppl::shape shape;

  tensor() = default;
  explicit tensor(ppl::shape s, double fill = 0.0)
      : data(static_cast<std::size_t>(s.size()), fill), shape(s) {}
  static tensor scalar(double x) { tensor t(shape::scalar()); t.data[0] = x; return t; }
  ppl::view as_view() const { return {data.data(), shape}; }
  index_t size() const { return shape.size(); }
};

// "y[2, 3]" for element `flat` (row-major) of an array of shape `s`, "y" for a scalar: in
// messages with ", " between the indices, in the columns of draws files with ",".
std::string element_name(const std::string& name, const shape& s, index_t flat, std::string_view separator = ", ");

}  // namespace ppl
