// Reductions of an array of any rank to a scalar (sum, prod, mean, variance, sd,
// log_sum_exp, and max and min, which also take two scalars), and softmax, the gradient of
// log_sum_exp.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "stdlib/function_groups.hpp"
#include "stdlib/moments.hpp"

namespace ppl::stdlib {

namespace {

double sum(const double* x, index_t n) { return std::accumulate(x, x + n, 0.0); }

double prod(const double* x, index_t n) { return std::accumulate(x, x + n, 1.0, std::multiplies<>()); }

// Shifted by the maximum so that no exp overflows.
double log_sum_exp(const double* x, index_t n) {
  const double m = *std::max_element(x, x + n);
  if (std::isinf(m)) return m;
  double s = 0;
  for (index_t i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

void sum_grad(const double*, index_t n, double, double* g) { std::fill(g, g + n, 1.0); }
void mean_grad(const double*, index_t n, double, double* g) { std::fill(g, g + n, 1.0 / static_cast<double>(n)); }
// The product of the others, from products to the left and to the right: exact when some
// x_i are 0, where prod / x_i would be 0 / 0.
void prod_grad(const double* x, index_t n, double, double* g) {
  double left = 1, right = 1;
  for (index_t i = 0; i < n; ++i) g[i] = left, left *= x[i];
  for (index_t i = n - 1; i >= 0; --i) g[i] *= right, right *= x[i];
}
void variance_grad(const double* x, index_t n, double, double* g) {
  const double m = sample_mean(x, n);
  for (index_t i = 0; i < n; ++i) g[i] = 2 * (x[i] - m) / static_cast<double>(n - 1);
}
void sd_grad(const double* x, index_t n, double fx, double* g) {
  const double m = sample_mean(x, n);
  for (index_t i = 0; i < n; ++i) g[i] = (x[i] - m) / (static_cast<double>(n - 1) * fx);
}
// The weights softmax(x); an infinite result (every x = -inf, or one +inf) has none.
void log_sum_exp_grad(const double* x, index_t n, double fx, double* g) {
  for (index_t i = 0; i < n; ++i) g[i] = std::isinf(fx) ? 0.0 : std::exp(x[i] - fx);
}

struct reduction_math {
  std::string_view name;
  double (*f)(const double* x, index_t n);
  void (*df)(const double* x, index_t n, double fx, double* grad);
  result_kind kind;
  index_t min_size;  // mean of nothing is undefined; sd needs two values
};

const reduction_math reduction_table[] = {
    {"log_sum_exp", log_sum_exp, log_sum_exp_grad, result_kind::real, 1},
    {"mean", sample_mean, mean_grad, result_kind::real, 1},
    {"prod", prod, prod_grad, result_kind::follow, 0},
    {"sd", sample_sd, sd_grad, result_kind::real, 2},
    {"sum", sum, sum_grad, result_kind::follow, 0},
    {"variance", sample_variance, variance_grad, result_kind::real, 2},
};

class reduction final : public function {
 public:
  explicit reduction(const reduction_math& m) : m_(m) {}
  std::string_view name() const override { return m_.name; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (pair(args.size()) && args[0].rank == 0 && args[1].rank == 0) return type_sig{scalar_kind::real, 0};
    if (args.size() != 1)
      return std::string(m_.name) + (m_.f == log_sum_exp ? " takes one array or two scalars, got " : " takes 1 argument, got ") +
             std::to_string(args.size());
    const bool integer = m_.kind == result_kind::follow && args[0].kind == scalar_kind::integer;
    return type_sig{integer ? scalar_kind::integer : scalar_kind::real, 0};
  }
  shape result_shape(std::span<const view> args) const override {
    if (args[0].size() < m_.min_size)
      throw argument_error(std::string(m_.name) + " needs at least " + std::to_string(m_.min_size) + " value" +
                           (m_.min_size == 1 ? "" : "s") + ", got " + std::to_string(args[0].size()));
    return shape::scalar();
  }
  bool shape_from_shapes() const override { return true; }
  void eval(std::span<const view> args, double* out) const override {
    if (pair(args.size())) {  // log_sum_exp(a, b)
      const double x[2] = {args[0][0], args[1][0]};
      out[0] = m_.f(x, 2);
      return;
    }
    out[0] = m_.f(args[0].data, args[0].size());
  }
  void backward(std::span<const view> args, view out, const double* d_out,
                std::span<double* const> d_args) const override {
    if (pair(args.size())) {
      const double x[2] = {args[0][0], args[1][0]};
      double g[2];
      m_.df(x, 2, out[0], g);
      for (std::size_t k = 0; k < 2; ++k)
        if (d_args[k]) d_args[k][0] += g[k] * d_out[0];
      return;
    }
    if (!d_args[0]) return;
    const index_t n = args[0].size();
    // One buffer per thread, kept: a fresh vector per call was a malloc per log_sum_exp.
    thread_local std::vector<double> grad;
    if (grad.size() < static_cast<std::size_t>(n)) grad.resize(static_cast<std::size_t>(n));
    m_.df(args[0].data, n, out[0], grad.data());
    for (index_t i = 0; i < n; ++i) d_args[0][i] += grad[static_cast<std::size_t>(i)] * d_out[0];
  }

 private:
  // log_sum_exp(a, b) of two scalars, as Stan has it beside log_sum_exp(v).
  bool pair(std::size_t count) const { return count == 2 && m_.f == log_sum_exp; }
  reduction_math m_;
};

// max(v) / min(v) of one array, or max(a, b) / min(a, b) of two scalars. Not
// differentiable where the choice switches, so the checker keeps gradients out; backward
// still passes the adjoint to the chosen element, the derivative everywhere else.
class extreme final : public function {
 public:
  explicit extreme(bool is_max) : is_max_(is_max) {}
  std::string_view name() const override { return is_max_ ? "max" : "min"; }
  type_result result_type(std::span<const type_sig> args) const override {
    const bool two_scalars = args.size() == 2 && args[0].rank == 0 && args[1].rank == 0;
    if (args.size() != 1 && !two_scalars)
      return std::string(name()) + " expects one array or two scalars, got " + describe_types(args);
    const bool integer =
        std::all_of(args.begin(), args.end(), [](const type_sig& t) { return t.kind == scalar_kind::integer; });
    return type_sig{integer ? scalar_kind::integer : scalar_kind::real, 0};
  }
  shape result_shape(std::span<const view> args) const override {
    if (args.size() == 1 && args[0].size() == 0) throw argument_error(std::string(name()) + " needs at least 1 value, got 0");
    return shape::scalar();
  }
  void eval(std::span<const view> args, double* out) const override { out[0] = *chosen(args); }
  void backward(std::span<const view> args, view, const double* d_out, std::span<double* const> d_args) const override {
    const double* p = chosen(args);
    if (args.size() == 1) {
      if (d_args[0]) d_args[0][p - args[0].data] += d_out[0];
      return;
    }
    const std::size_t k = p == args[0].data ? 0 : 1;
    if (d_args[k]) d_args[k][0] += d_out[0];
  }
  bool differentiable() const override { return false; }

 private:
  const double* chosen(std::span<const view> args) const {
    if (args.size() == 2) {
      const bool second = is_max_ ? args[1][0] > args[0][0] : args[1][0] < args[0][0];
      return second ? args[1].data : args[0].data;
    }
    const view& v = args[0];
    return is_max_ ? std::max_element(v.begin(), v.end()) : std::min_element(v.begin(), v.end());
  }
  bool is_max_;
};

// softmax(x)_i = exp(x_i - log_sum_exp(x)): a vector of the same size on the simplex.
class softmax final : public function {
 public:
  std::string_view name() const override { return "softmax"; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 1 || args[0].rank != 1) return "softmax expects one vector, got " + describe_types(args);
    return type_sig{scalar_kind::real, 1};
  }
  shape result_shape(std::span<const view> args) const override {
    if (args[0].size() == 0) throw argument_error("softmax needs at least 1 value, got 0");
    return args[0].shape;
  }
  void eval(std::span<const view> args, double* out) const override {
    const view& x = args[0];
    const double lse = log_sum_exp(x.data, x.size());
    for (index_t i = 0; i < x.size(); ++i) out[i] = std::exp(x[i] - lse);
  }
  // The Jacobian diag(s) - s s' applied to d_out: s_i (d_out_i - s . d_out).
  void backward(std::span<const view>, view out, const double* d_out, std::span<double* const> d_args) const override {
    if (!d_args[0]) return;
    double inner = 0;
    for (index_t i = 0; i < out.size(); ++i) inner += out[i] * d_out[i];
    for (index_t i = 0; i < out.size(); ++i) d_args[0][i] += out[i] * (d_out[i] - inner);
  }
};

}  // namespace

std::unique_ptr<function> make_reduction(std::string_view name) {
  if (name == "max" || name == "min") return std::make_unique<extreme>(name == "max");
  for (const auto& m : reduction_table)
    if (m.name == name) return std::make_unique<reduction>(m);
  throw std::logic_error("no reduction " + std::string(name));
}

std::unique_ptr<function> make_softmax(std::string_view name) {
  expect_name(name, "softmax");
  return std::make_unique<softmax>();
}

}  // namespace ppl::stdlib
