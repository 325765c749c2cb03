// Functions that build arrays or describe them: rep(x, n) and length(v).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

// rep(x, n): a vector of n copies of the scalar x. Its size is the value of n, known only
// when n is (as with rep(eta, V) for V = max(word)).
class rep final : public function {
 public:
  std::string_view name() const override { return "rep"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 2 || a[0].rank != 0 || a[1].rank != 0 || a[1].kind != scalar_kind::integer)
      return "rep expects a scalar and an integer count, rep(x, n), got " + describe_types(a);
    return type_sig{a[0].kind, 1};
  }
  shape result_shape(std::span<const view> a) const override {
    const double n = a[1][0];
    if (!(n >= 0) || n != std::floor(n)) {
      std::ostringstream message;
      message << "rep: the count n is " << n << "; it must be a non-negative integer";
      throw argument_error(message.str());
    }
    // Larger counts are refused here, where converting them to an integer would be
    // undefined; the evaluator refuses any result over 2^28 elements.
    if (n > 0x1p53) {
      std::ostringstream message;
      message << "rep: the count n is " << n << ", more than the limit of 268435456 (2^28)";
      throw argument_error(message.str());
    }
    return shape::vector(static_cast<index_t>(n));
  }
  void eval(std::span<const view> a, double* out) const override {
    std::fill(out, out + static_cast<index_t>(a[1][0]), a[0][0]);
  }
  // Every copy passes its adjoint back to x; the count n has no derivative.
  void backward(std::span<const view>, view out, const double* d_out, std::span<double* const> d) const override {
    if (!d[0]) return;
    for (index_t i = 0; i < out.size(); ++i) d[0][0] += d_out[i];
  }
};

// length(v): the number of elements of an array of any rank (1 for a scalar). Its
// derivative is zero rather than undefined, so it stays differentiable: sum(x) / length(x)
// must not block gradients of x.
class length final : public function {
 public:
  std::string_view name() const override { return "length"; }
  type_result result_type(std::span<const type_sig> a) const override {
    if (a.size() != 1) return "length takes 1 argument, got " + std::to_string(a.size());
    return type_sig{scalar_kind::integer, 0};
  }
  shape result_shape(std::span<const view>) const override { return shape::scalar(); }
  void eval(std::span<const view> a, double* out) const override { out[0] = static_cast<double>(a[0].size()); }
  void backward(std::span<const view>, view, const double*, std::span<double* const>) const override {}
};

}  // namespace

std::unique_ptr<function> make_rep(std::string_view name) {
  expect_name(name, "rep");
  return std::make_unique<rep>();
}

std::unique_ptr<function> make_length(std::string_view name) {
  expect_name(name, "length");
  return std::make_unique<length>();
}

}  // namespace ppl::stdlib
