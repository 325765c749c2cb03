// Functions of a vector's order: cumulative_sum, sort_asc, sort_desc and rank(v, s), the
// number of entries of v below v[s] (Stan's). Sorting and ranking are not differentiable
// where ties change the order; sort's backward still routes each adjoint to the entry that
// landed there, the derivative everywhere else.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "stdlib/checks.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

// One vector in, one of the same size out: the kind follows the argument's.
type_result vector_map_type(std::string_view name, std::span<const type_sig> a) {
  if (a.size() != 1 || a[0].rank != 1) return std::string(name) + " expects one vector, got " + describe_types(a);
  return a[0];
}

class cumulative_sum final : public function {
 public:
  std::string_view name() const override { return "cumulative_sum"; }
  type_result result_type(std::span<const type_sig> a) const override { return vector_map_type(name(), a); }
  shape result_shape(std::span<const view> a) const override { return a[0].shape; }
  void eval(std::span<const view> a, double* out) const override {
    std::partial_sum(a[0].begin(), a[0].end(), out);
  }
  // Entry i reaches every partial sum from i on: its adjoint is the sum of theirs.
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    double tail = 0;
    for (index_t i = a[0].size() - 1; i >= 0; --i) d[0][i] += tail += d_out[i];
  }
};

// NaN has no place in an order (std::sort would be undefined): refused.
void check_ordered(std::string_view name, const view& v) {
  for (index_t i = 0; i < v.size(); ++i)
    if (std::isnan(v[i]))
      throw argument_error(std::string(name) + ": v[" + std::to_string(i + 1) + "] is nan, which has no place in an order");
}

class sort final : public function {
 public:
  explicit sort(bool ascending) : ascending_(ascending) {}
  std::string_view name() const override { return ascending_ ? "sort_asc" : "sort_desc"; }
  type_result result_type(std::span<const type_sig> a) const override { return vector_map_type(name(), a); }
  shape result_shape(std::span<const view> a) const override {
    check_ordered(name(), a[0]);
    return a[0].shape;
  }
  void eval(std::span<const view> a, double* out) const override {
    const auto order = permutation(a[0]);
    for (std::size_t i = 0; i < order.size(); ++i) out[i] = a[0][order[i]];
  }
  void backward(std::span<const view> a, view, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    const auto order = permutation(a[0]);
    for (std::size_t i = 0; i < order.size(); ++i) d[0][order[i]] += d_out[i];
  }
  bool differentiable() const override { return false; }

 private:
  // The indices of v in sorted order; ties keep their order, so eval and backward agree.
  std::vector<index_t> permutation(const view& v) const {
    std::vector<index_t> order(static_cast<std::size_t>(v.size()));
    std::iota(order.begin(), order.end(), index_t{0});
    if (ascending_)
      std::stable_sort(order.begin(), order.end(), [&](index_t i, index_t j) { return v[i] < v[j]; });
    else
      std::stable_sort(order.begin(), order.end(), [&](index_t i, index_t j) { return v[i] > v[j]; });
    return order;
  }
  bool ascending_;
};

class rank final : public function {
 public:
  std::string_view name() const override { return "rank"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 1 || a[1].rank != 0 || a[1].kind != scalar_kind::integer)
      return "rank expects a vector and an integer index, rank(v, s), got " + describe_types(a);
    return type_sig{scalar_kind::integer, 0};
  }
  shape result_shape(std::span<const view> a) const override {
    const double s = a[1][0];
    if (!(s >= 1 && s <= static_cast<double>(a[0].size())) || s != std::floor(s))
      throw argument_error("rank: index s is " + format_number(s) + " but v has size " + std::to_string(a[0].size()));
    return shape::scalar();
  }
  void eval(std::span<const view> a, double* out) const override {
    const double pivot = a[0][static_cast<index_t>(a[1][0]) - 1];
    out[0] = static_cast<double>(std::count_if(a[0].begin(), a[0].end(), [=](double x) { return x < pivot; }));
  }
  // A count: its derivative is zero wherever it is defined.
  void backward(std::span<const view>, view, const double*, std::span<double* const>) const override {}
  bool differentiable() const override { return false; }
};

}  // namespace

std::unique_ptr<function> make_cumulative_sum(std::string_view name) {
  expect_name(name, "cumulative_sum");
  return std::make_unique<cumulative_sum>();
}

std::unique_ptr<function> make_sort(std::string_view name) {
  if (name != "sort_asc") expect_name(name, "sort_desc");
  return std::make_unique<sort>(name == "sort_asc");
}

std::unique_ptr<function> make_rank(std::string_view name) {
  expect_name(name, "rank");
  return std::make_unique<rank>();
}

}  // namespace ppl::stdlib
