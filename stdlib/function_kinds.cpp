#include "stdlib/function_kinds.hpp"

namespace ppl::stdlib {

namespace {

scalar_kind kind_of(result_kind k, std::span<const type_sig> args) {
  if (k == result_kind::real) return scalar_kind::real;
  if (k == result_kind::integer) return scalar_kind::integer;
  for (const auto& a : args)
    if (a.kind == scalar_kind::real) return scalar_kind::real;
  return scalar_kind::integer;
}

class unary final : public function {
 public:
  unary(std::string name, unary_fn f, unary_grad g, result_kind k) : name_(std::move(name)), f_(f), g_(g), kind_(k) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 1) return name_ + " takes 1 argument, got " + std::to_string(args.size());
    return type_sig{kind_of(kind_, args), args[0].rank};
  }
  shape result_shape(std::span<const view> args) const override { return args[0].shape; }
  void eval(std::span<const view> args, double* out) const override {
    for (index_t i = 0; i < args[0].size(); ++i) out[i] = f_(args[0][i]);
  }
  void backward(std::span<const view> args, view out, const double* d_out, std::span<double* const> d_args) const override {
    if (!g_ || !d_args[0]) return;
    for (index_t i = 0; i < args[0].size(); ++i) d_args[0][i] += g_(args[0][i], out[i]) * d_out[i];
  }
  bool differentiable() const override { return g_ != nullptr; }

 private:
  std::string name_;
  unary_fn f_;
  unary_grad g_;
  result_kind kind_;
};

class binary final : public function {
 public:
  binary(std::string name, binary_fn f, binary_grad g, result_kind k, bool integer_only)
      : name_(std::move(name)), f_(f), g_(g), kind_(k), integer_only_(integer_only) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 2) return name_ + " takes 2 arguments, got " + std::to_string(args.size());
    if (integer_only_ && (args[0].kind != scalar_kind::integer || args[1].kind != scalar_kind::integer))
      return "`" + name_ + "` needs integers, got " + to_string(args[0]) + " and " + to_string(args[1]);
    if (args[0].rank != args[1].rank && args[0].rank != 0 && args[1].rank != 0)
      return "`" + name_ + "` needs operands of the same shape or a scalar, got " + to_string(args[0]) + " and " + to_string(args[1]);
    return type_sig{kind_of(kind_, args), std::max(args[0].rank, args[1].rank)};
  }
  shape result_shape(std::span<const view> args) const override {
    if (args[0].shape.rank == 0) return args[1].shape;
    if (args[1].shape.rank == 0) return args[0].shape;
    if (!(args[0].shape == args[1].shape))
      throw argument_error("`" + name_ + "`: operands have shapes " + args[0].shape.str() + " and " + args[1].shape.str());
    return args[0].shape;
  }
  void eval(std::span<const view> args, double* out) const override {
    index_t n = result_shape(args).size();
    index_t sa = args[0].size() == 1 && args[0].shape.rank == 0 ? 0 : 1;
    index_t sb = args[1].size() == 1 && args[1].shape.rank == 0 ? 0 : 1;
    for (index_t i = 0; i < n; ++i) out[i] = f_(args[0][i * sa], args[1][i * sb]);
  }
  void backward(std::span<const view> args, view out, const double* d_out, std::span<double* const> d_args) const override {
    if (!g_) return;
    index_t sa = args[0].shape.rank == 0 ? 0 : 1;
    index_t sb = args[1].shape.rank == 0 ? 0 : 1;
    for (index_t i = 0; i < out.size(); ++i) {
      double da = 0, db = 0;
      g_(args[0][i * sa], args[1][i * sb], out[i], da, db);
      if (d_args[0]) d_args[0][i * sa] += da * d_out[i];
      if (d_args[1]) d_args[1][i * sb] += db * d_out[i];
    }
  }
  bool differentiable() const override { return g_ != nullptr; }

 private:
  std::string name_;
  binary_fn f_;
  binary_grad g_;
  result_kind kind_;
  bool integer_only_;
};

class reduction final : public function {
 public:
  reduction(std::string name, reduce_fn f, reduce_grad g, result_kind k, index_t min_size)
      : name_(std::move(name)), f_(f), g_(g), kind_(k), min_size_(min_size) {}
  std::string_view name() const override { return name_; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 1) return name_ + " takes 1 argument, got " + std::to_string(args.size());
    return type_sig{kind_of(kind_, args), 0};
  }
  shape result_shape(std::span<const view> args) const override {
    if (args[0].size() < min_size_)
      throw argument_error(name_ + " needs at least " + std::to_string(min_size_) + " element" + (min_size_ == 1 ? "" : "s") +
                           ", got " + std::to_string(args[0].size()));
    return shape::scalar();
  }
  void eval(std::span<const view> args, double* out) const override { out[0] = f_(args[0].data, args[0].size()); }
  void backward(std::span<const view> args, view out, const double* d_out, std::span<double* const> d_args) const override {
    if (!g_ || !d_args[0]) return;
    std::vector<double> grad(static_cast<std::size_t>(args[0].size()), 0.0);
    g_(args[0].data, args[0].size(), out[0], grad.data());
    for (index_t i = 0; i < args[0].size(); ++i) d_args[0][i] += grad[static_cast<std::size_t>(i)] * d_out[0];
  }
  bool differentiable() const override { return g_ != nullptr; }

 private:
  std::string name_;
  reduce_fn f_;
  reduce_grad g_;
  result_kind kind_;
  index_t min_size_;
};

}  // namespace

std::unique_ptr<function> make_unary(std::string name, unary_fn f, unary_grad g, result_kind k) {
  return std::make_unique<unary>(std::move(name), f, g, k);
}
std::unique_ptr<function> make_binary(std::string name, binary_fn f, binary_grad g, result_kind k, bool integer_only) {
  return std::make_unique<binary>(std::move(name), f, g, k, integer_only);
}
std::unique_ptr<function> make_reduction(std::string name, reduce_fn f, reduce_grad g, result_kind k, index_t min_size) {
  return std::make_unique<reduction>(std::move(name), f, g, k, min_size);
}

}  // namespace ppl::stdlib
