// Elementwise maps: the unary and binary map classes shared with operators.cpp and
// special_functions.cpp, the table of elementary functions, each a row {name, f, df, kind},
// and ifelse(cond, a, b), the one map of three arguments.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "core/lane_sum.hpp"
#include "stdlib/link.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

scalar_kind kind_of(result_kind k, std::span<const type_sig> args) {
  if (k == result_kind::real) return scalar_kind::real;
  if (k == result_kind::integer) return scalar_kind::integer;
  for (const auto& a : args)
    if (a.kind == scalar_kind::real) return scalar_kind::real;
  return scalar_kind::integer;
}

std::string count_error(std::string_view name, std::size_t wanted, std::size_t given) {
  return display_name(name) + " takes " + std::to_string(wanted) + " argument" + (wanted == 1 ? "" : "s") + ", got " +
         std::to_string(given);
}

class unary_map final : public function {
 public:
  explicit unary_map(const unary_math& m) : m_(m) {}
  std::string_view name() const override { return m_.name; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 1) return count_error(m_.name, 1, args.size());
    return type_sig{kind_of(m_.kind, args), args[0].rank};
  }
  shape result_shape(std::span<const view> args) const override { return args[0].shape; }
  bool shape_from_shapes() const override { return true; }
  void eval(std::span<const view> args, double* out) const override {
    const view& x = args[0];
    for (index_t i = 0; i < x.size(); ++i) out[i] = m_.f(x[i]);
  }
  void backward(std::span<const view> args, view out, const double* d_out,
                std::span<double* const> d_args) const override {
    if (!m_.df || !d_args[0]) return;
    const view& x = args[0];
    for (index_t i = 0; i < x.size(); ++i) d_args[0][i] += m_.df(x[i], out[i]) * d_out[i];
  }
  bool differentiable() const override { return m_.df != nullptr; }
  bool elementwise() const override { return true; }
  scalar_formulas formulas() const override { return {&m_, nullptr}; }

 private:
  unary_math m_;
};

// A scalar operand is broadcast by reading its one element at every position (stride 0).
index_t stride_of(const view& v) { return v.shape.rank == 0 ? 0 : 1; }

// to += c d (stride 1), or to[0] += c sum(d) (stride 0: a broadcast scalar operand).
void scaled_add(double* to, index_t stride, double c, const double* d, index_t n) {
  if (!to) return;
  if (stride == 0) {
    to[0] += c * sum_in_lanes(d, n);
    return;
  }
  for (index_t i = 0; i < n; ++i) to[i] += c * d[i];
}

// out = a op b, the operands' strides known to the compiler so that it vectorises the loop.
template <typename Op>
void map_pair(const Op& op, const view& a, const view& b, double* out) {
  const index_t n = std::max(a.size(), b.size());
  const double *x = a.data, *y = b.data;
  if (stride_of(a) == 0) {
    const double c = x[0];
    for (index_t i = 0; i < n; ++i) out[i] = op(c, y[i]);
  } else if (stride_of(b) == 0) {
    const double c = y[0];
    for (index_t i = 0; i < n; ++i) out[i] = op(x[i], c);
  } else {
    for (index_t i = 0; i < n; ++i) out[i] = op(x[i], y[i]);
  }
}

// The four arithmetic operators, applied inline rather than through the table's pointer.
enum class arithmetic { other, add, subtract, multiply, divide };

arithmetic arithmetic_of(std::string_view name) {
  if (name == "+") return arithmetic::add;
  if (name == "-") return arithmetic::subtract;
  if (name == ".*") return arithmetic::multiply;
  if (name == "/" || name == "./") return arithmetic::divide;
  return arithmetic::other;
}

class binary_map final : public function {
 public:
  explicit binary_map(const binary_math& m) : m_(m), op_(arithmetic_of(m.name)) {}
  std::string_view name() const override { return m_.name; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 2) return count_error(m_.name, 2, args.size());
    const std::string got = ", got " + describe_types(args);
    if (m_.integer_only && (args[0].kind != scalar_kind::integer || args[1].kind != scalar_kind::integer))
      return display_name(m_.name) + " needs integers" + got;
    if (args[0].rank != args[1].rank && args[0].rank != 0 && args[1].rank != 0)
      return display_name(m_.name) + " needs operands of the same shape, or one a scalar" + got;
    return type_sig{kind_of(m_.kind, args), std::max(args[0].rank, args[1].rank)};
  }
  shape result_shape(std::span<const view> args) const override {
    const view &a = args[0], &b = args[1];
    if (a.shape.rank != 0 && b.shape.rank != 0 && !(a.shape == b.shape))
      throw argument_error(display_name(m_.name) + ": operands have shapes " + a.shape.str() + " and " + b.shape.str() +
                           "; they must be the same, or one a scalar");
    if (m_.invalid) check_values(a, b);
    return a.shape.rank == 0 ? b.shape : a.shape;
  }
  bool shape_from_shapes() const override { return !m_.invalid; }
  void eval(std::span<const view> args, double* out) const override {
    const view &a = args[0], &b = args[1];
    switch (op_) {
      case arithmetic::add: return map_pair([](double x, double y) { return x + y; }, a, b, out);
      case arithmetic::subtract: return map_pair([](double x, double y) { return x - y; }, a, b, out);
      case arithmetic::multiply: return map_pair(times, a, b, out);
      case arithmetic::divide: return map_pair([](double x, double y) { return x / y; }, a, b, out);
      case arithmetic::other: return map_pair(m_.f, a, b, out);
    }
  }
  void backward(std::span<const view> args, view out, const double* d_out,
                std::span<double* const> d_args) const override {
    if (!m_.df) return;
    const view &a = args[0], &b = args[1];
    const index_t sa = stride_of(a), sb = stride_of(b);
    if (m_.constant_partials) {
      double ca = 0, cb = 0;
      m_.df(0, 0, 0, ca, cb);
      scaled_add(d_args[0], sa, ca, d_out, out.size());
      scaled_add(d_args[1], sb, cb, d_out, out.size());
      return;
    }
    for (index_t i = 0; i < out.size(); ++i) {
      double da = 0, db = 0;
      m_.df(a[i * sa], b[i * sb], out[i], da, db);
      if (d_args[0]) d_args[0][i * sa] += da * d_out[i];
      if (d_args[1]) d_args[1][i * sb] += db * d_out[i];
    }
  }
  bool differentiable() const override { return m_.df != nullptr; }
  bool elementwise() const override { return true; }
  scalar_formulas formulas() const override { return {nullptr, &m_}; }

 private:
  void check_values(const view& a, const view& b) const {
    const index_t n = std::max(a.size(), b.size()), sa = stride_of(a), sb = stride_of(b);
    for (index_t i = 0; i < n; ++i)
      if (const char* why = m_.invalid(a[i * sa], b[i * sb])) throw argument_error(display_name(m_.name) + ": " + why);
  }
  binary_math m_;
  arithmetic op_;
};

// ifelse(cond, a, b): a where cond is non-zero, else b, element by element; each argument
// is a scalar (broadcast) or of the common shape. The condition must be an integer (a
// comparison, a data flag): a real unknown there would make a jump that no gradient sees.
// The derivative passes to the branch taken; the condition has none.
class ifelse final : public function {
 public:
  std::string_view name() const override { return "ifelse"; }
  type_result result_type(std::span<const type_sig> args) const override {
    if (args.size() != 3) return count_error("ifelse", 3, args.size());
    const std::string got = ", got " + describe_types(args);
    if (args[0].kind != scalar_kind::integer)
      return "ifelse needs an integer condition (a comparison such as x > 0)" + got;
    int rank = 0;
    for (const auto& a : args) {
      if (a.rank != 0 && rank != 0 && a.rank != rank)
        return "ifelse needs arguments of the same shape, or scalars" + got;
      rank = std::max(rank, a.rank);
    }
    return type_sig{kind_of(result_kind::follow, args.subspan(1)), rank};
  }
  shape result_shape(std::span<const view> args) const override {
    shape s;
    for (const auto& a : args) {
      if (a.shape.rank == 0) continue;
      if (s.rank != 0 && !(s == a.shape))
        throw argument_error("ifelse: arguments have shapes " + s.str() + " and " + a.shape.str() +
                             "; they must be the same, or scalars");
      s = a.shape;
    }
    return s;
  }
  void eval(std::span<const view> args, double* out) const override {
    const index_t n = result_shape(args).size(), sc = stride_of(args[0]), sa = stride_of(args[1]), sb = stride_of(args[2]);
    for (index_t i = 0; i < n; ++i) out[i] = args[0][i * sc] != 0 ? args[1][i * sa] : args[2][i * sb];
  }
  void backward(std::span<const view> args, view out, const double* d_out,
                std::span<double* const> d_args) const override {
    const index_t sc = stride_of(args[0]);
    for (std::size_t k = 1; k <= 2; ++k) {
      if (!d_args[k]) continue;
      const index_t stride = stride_of(args[k]);
      for (index_t i = 0; i < out.size(); ++i)
        if ((args[0][i * sc] != 0) == (k == 1)) d_args[k][i * stride] += d_out[i];
    }
  }
  bool elementwise() const override { return true; }
};

double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

void power_grad(double a, double b, double fab, double& da, double& db) {
  da = b == 0 ? 0 : b * std::pow(a, b - 1);
  // d/db a^b = a^b log a; at a = 0 the limit is 0 (b > 0), and a < 0 has no real log.
  db = a > 0 ? fab * std::log(a) : 0;
}

// Rows without a derivative (floor, step, ...) are not differentiable: NUTS declines unknowns
// that reach a term through them.
const unary_math math_unary_table[] = {
    {"abs", [](double x) { return std::fabs(x); }, [](double x, double) { return sign(x); }, result_kind::follow},
    {"atan", [](double x) { return std::atan(x); }, [](double x, double) { return 1 / (1 + x * x); }, result_kind::real},
    {"cbrt", [](double x) { return std::cbrt(x); }, [](double, double fx) { return 1 / (3 * fx * fx); },
     result_kind::real},
    {"ceil", [](double x) { return std::ceil(x); }, nullptr, result_kind::follow},
    {"cos", [](double x) { return std::cos(x); }, [](double x, double) { return -std::sin(x); }, result_kind::real},
    {"exp", [](double x) { return std::exp(x); }, [](double, double fx) { return fx; }, result_kind::real},
    {"exp2", [](double x) { return std::exp2(x); }, [](double, double fx) { return fx * std::numbers::ln2; },
     result_kind::real},
    {"expm1", [](double x) { return std::expm1(x); }, [](double, double fx) { return fx + 1; }, result_kind::real},
    {"fabs", [](double x) { return std::fabs(x); }, [](double x, double) { return sign(x); }, result_kind::real},
    {"floor", [](double x) { return std::floor(x); }, nullptr, result_kind::follow},
    // Stan's: 1 where x > 0, else 0 (NaN too).
    {"int_step", [](double x) { return truth(x > 0); }, nullptr, result_kind::integer},
    // Stan's: toward zero, as an integer (an index computed in real arithmetic, to_int(round(x))).
    {"to_int", [](double x) { return std::trunc(x); }, nullptr, result_kind::integer},
    {"inv", [](double x) { return 1 / x; }, [](double, double fx) { return -fx * fx; }, result_kind::real},
    {"inv_logit", inv_logit, [](double, double fx) { return fx * (1 - fx); }, result_kind::real},
    {"inv_sqrt", [](double x) { return 1 / std::sqrt(x); }, [](double x, double fx) { return -0.5 * fx / x; },
     result_kind::real},
    // 1 where x is NaN: a missing value in the data (NA, null), else 0.
    {"is_nan", [](double x) { return truth(std::isnan(x)); }, nullptr, result_kind::integer},
    {"log", [](double x) { return std::log(x); }, [](double x, double) { return 1 / x; }, result_kind::real},
    {"log10", [](double x) { return std::log10(x); }, [](double x, double) { return 1 / (x * std::numbers::ln10); },
     result_kind::real},
    {"log1p", [](double x) { return std::log1p(x); }, [](double x, double) { return 1 / (1 + x); }, result_kind::real},
    {"log2", [](double x) { return std::log2(x); }, [](double x, double) { return 1 / (x * std::numbers::ln2); },
     result_kind::real},
    {"logit", [](double x) { return std::log(x) - std::log1p(-x); }, [](double x, double) { return 1 / (x * (1 - x)); },
     result_kind::real},
    // Halves away from zero, as C's round and Stan's.
    {"round", [](double x) { return std::round(x); }, nullptr, result_kind::follow},
    {"sin", [](double x) { return std::sin(x); }, [](double x, double) { return std::cos(x); }, result_kind::real},
    {"softplus", softplus, [](double x, double) { return inv_logit(x); }, result_kind::real},
    {"sqrt", [](double x) { return std::sqrt(x); }, [](double, double fx) { return 0.5 / fx; }, result_kind::real},
    {"square", [](double x) { return x * x; }, [](double x, double) { return 2 * x; }, result_kind::follow},
    // JAGS's and Stan's: 1 where x >= 0, else 0 (Stan's step(NaN) is 1, as here).
    {"step", [](double x) { return truth(!(x < 0)); }, nullptr, result_kind::integer},
    {"tan", [](double x) { return std::tan(x); }, [](double, double fx) { return 1 + fx * fx; }, result_kind::real},
    {"tanh", [](double x) { return std::tanh(x); }, [](double, double fx) { return 1 - fx * fx; }, result_kind::real},
};

void atan2_grad(double y, double x, double, double& dy, double& dx) {
  const double r2 = x * x + y * y;
  dy = x / r2, dx = -y / r2;
}

// x ^ y and pow(x, y) are real even for integers: 2 ^ -1 is 0.5. fmin, fmax and fdim
// (max(a - b, 0)) switch branches, like max and min: not differentiable.
const binary_math math_binary_table[] = {
    {"^", [](double a, double b) { return std::pow(a, b); }, power_grad, result_kind::real},
    {"atan2", [](double y, double x) { return std::atan2(y, x); }, atan2_grad, result_kind::real},
    // JAGS's equals(a, b): 1 where a == b, else 0.
    {"equals", [](double a, double b) { return truth(a == b); }, nullptr, result_kind::integer},
    {"fdim", [](double a, double b) { return std::fdim(a, b); }, nullptr, result_kind::follow},
    {"fmax", [](double a, double b) { return std::fmax(a, b); }, nullptr, result_kind::follow},
    {"fmin", [](double a, double b) { return std::fmin(a, b); }, nullptr, result_kind::follow},
    {"pow", [](double a, double b) { return std::pow(a, b); }, power_grad, result_kind::real},
};

}  // namespace

std::unique_ptr<function> make_unary_map(const unary_math& m) { return std::make_unique<unary_map>(m); }
std::unique_ptr<function> make_binary_map(const binary_math& m) { return std::make_unique<binary_map>(m); }

std::unique_ptr<function> make_ifelse(std::string_view name) {
  expect_name(name, "ifelse");
  return std::make_unique<ifelse>();
}

std::unique_ptr<function> make_math_function(std::string_view name) {
  for (const auto& m : math_unary_table)
    if (m.name == name) return make_unary_map(m);
  for (const auto& m : math_binary_table)
    if (m.name == name) return make_binary_map(m);
  throw std::logic_error("no elementwise function " + std::string(name));
}

}  // namespace ppl::stdlib
