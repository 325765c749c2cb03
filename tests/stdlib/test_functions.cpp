// Built-in functions and operators: values (including broadcasting and numerically hard
// inputs), result types and their error messages, and run-time shape errors. Gradients
// are in test_function_gradients.cpp.
#include <cmath>
#include <numbers>
#include <set>

#include "stdlib/function_groups.hpp"
#include "tests/stdlib/function_cases.hpp"

namespace test_functions {

using namespace ppl::testing;
using ppl::stdlib::type_sig;

namespace {

const double e = std::numbers::e;

std::vector<value_case> math_cases() {
  return {
      {"exp", {scalar(0)}, scalar(1)},
      {"exp", {mat(2, 2, {0, 1, -1, 2})}, mat(2, 2, {1, e, 1 / e, e * e})},
      {"log", {vec({1, e})}, vec({0, 1})},
      {"log", {scalar(0)}, scalar(-INFINITY)},
      {"log1p", {scalar(1e-12)}, scalar(1e-12)},
      {"expm1", {scalar(1e-12)}, scalar(1e-12)},
      {"sqrt", {vec({4, 2.25})}, vec({2, 1.5})},
      {"abs", {vec({-3, 0, 2.5})}, vec({3, 0, 2.5})},
      {"inv_logit", {vec({0, -800, 800, std::log(3.0)})}, vec({0.5, 0, 1, 0.75})},
      {"logit", {vec({0.5, 0.25})}, vec({0, std::log(1.0 / 3)})},
      {"tanh", {scalar(0.5)}, scalar(std::tanh(0.5))},
      {"softplus", {vec({0, 800, -800, 2})}, vec({std::log(2.0), 800, 0, std::log1p(std::exp(2.0))})},
      {"softplus", {scalar(-40)}, scalar(std::exp(-40.0))},  // not rounded to 0
      {"pow", {scalar(2), scalar(10)}, scalar(1024)},
      {"pow", {vec({1, 2, 3}), scalar(2)}, vec({1, 4, 9})},
      {"pow", {scalar(2), vec({0, 3})}, vec({1, 8})},
      {"^", {scalar(2), scalar(-1)}, scalar(0.5)},
      {"^", {mat(1, 2, {3, 4}), mat(1, 2, {2, 0.5})}, mat(1, 2, {9, 2})},
  };
}

std::vector<value_case> reduction_cases() {
  return {
      {"sum", {vec({1, 2, 3.5})}, scalar(6.5)},
      {"sum", {mat(2, 2, {1, 2, 3, 4})}, scalar(10)},
      {"sum", {vec({})}, scalar(0)},
      {"mean", {vec({1, 2, 6})}, scalar(3)},
      {"sd", {vec({2, 4, 4, 4, 5, 5, 7, 9})}, scalar(std::sqrt(32.0 / 7))},  // n - 1 denominator
      {"log_sum_exp", {vec({1000, 1000})}, scalar(1000 + std::log(2.0))},
      {"log_sum_exp", {vec({0, std::log(3.0)})}, scalar(std::log(4.0))},
      {"log_sum_exp", {vec({-INFINITY, -INFINITY})}, scalar(-INFINITY)},
      {"log_sum_exp", {mat(1, 2, {0, 0})}, scalar(std::log(2.0))},
      {"max", {vec({3, -1, 7, 2})}, scalar(7)},
      {"max", {mat(2, 2, {3, -1, 7, 2})}, scalar(7)},
      {"max", {scalar(2), scalar(5)}, scalar(5)},
      {"min", {vec({3, -1, 7, 2})}, scalar(-1)},
      {"min", {scalar(2), scalar(5)}, scalar(2)},
      {"softmax", {vec({1, 2, 3})}, vec({1 / (1 + e + e * e), e / (1 + e + e * e), e * e / (1 + e + e * e)})},
      {"softmax", {vec({1000, 1000})}, vec({0.5, 0.5})},
  };
}

std::vector<value_case> shape_cases() {
  return {
      {"dot", {vec({1, 2, 3}), vec({4, 5, 6})}, scalar(32)},
      {"transpose", {mat(2, 3, {1, 2, 3, 4, 5, 6})}, mat(3, 2, {1, 4, 2, 5, 3, 6})},
      {"'", {mat(2, 3, {1, 2, 3, 4, 5, 6})}, mat(3, 2, {1, 4, 2, 5, 3, 6})},
      {"rep", {scalar(1.5), scalar(3)}, vec({1.5, 1.5, 1.5})},
      {"rep", {scalar(2), scalar(0)}, vec({})},
      {"length", {mat(2, 3, std::vector<double>(6, 0.0))}, scalar(6)},
      {"length", {vec({1, 2, 3})}, scalar(3)},
      {"length", {scalar(4)}, scalar(1)},
      {"*", {scalar(2), vec({1, -2})}, vec({2, -4})},
      // A factor of exactly 0 gives 0 beside an infinite one, as JAGS's 0 * log(0) does.
      {"*", {scalar(0), scalar(-INFINITY)}, scalar(0)},
      {"*", {scalar(INFINITY), vec({0, 2})}, vec({0, INFINITY})},
      {"*", {mat(1, 2, {1, -2}), scalar(3)}, mat(1, 2, {3, -6})},
      {"*", {mat(2, 2, {1, 2, 3, 4}), vec({1, 1})}, vec({3, 7})},
      {"*", {vec({1, 1}), mat(2, 3, {1, 2, 3, 4, 5, 6})}, vec({5, 7, 9})},  // v' M
      {"*", {mat(2, 3, {1, 2, 3, 4, 5, 6}), mat(3, 1, {1, 0, -1})}, mat(2, 1, {-2, -2})},
  };
}

std::vector<value_case> operator_cases() {
  return {
      {"+", {scalar(2), scalar(3)}, scalar(5)},
      {"+", {vec({1, 2}), vec({10, 20})}, vec({11, 22})},
      {"+", {scalar(1), mat(1, 2, {1, 2})}, mat(1, 2, {2, 3})},
      {"-", {vec({1, 2}), scalar(1)}, vec({0, 1})},
      {"-", {scalar(1), vec({1, 2})}, vec({0, -1})},
      {".*", {vec({1, 2}), vec({3, 4})}, vec({3, 8})},
      {".*", {vec({0, 1}), vec({-INFINITY, -INFINITY})}, vec({0, -INFINITY})},
      {"./", {vec({1, 2}), vec({4, 4})}, vec({0.25, 0.5})},
      {"/", {scalar(1), scalar(2)}, scalar(0.5)},  // two integers: real division
      {"/", {vec({1, 2}), scalar(4)}, vec({0.25, 0.5})},
      {"%", {scalar(7), scalar(3)}, scalar(1)},
      {"%", {vec({4, 1, 0, -1}), scalar(4)}, vec({0, 1, 0, 3})},  // i % L + 1 wraps to 1..L
      {"==", {vec({1, 2, 3}), scalar(2)}, vec({0, 1, 0})},
      {"!=", {vec({1, 2, 3}), scalar(2)}, vec({1, 0, 1})},
      {"<", {vec({1, 2, 3}), scalar(2)}, vec({1, 0, 0})},
      {"<=", {vec({1, 2, 3}), scalar(2)}, vec({1, 1, 0})},
      {">", {vec({1, 2, 3}), scalar(2)}, vec({0, 0, 1})},
      {">=", {scalar(2), vec({1, 2, 3})}, vec({1, 1, 0})},
      {"&&", {vec({0, 0, 1, 2}), vec({0, 1, 0, 3})}, vec({0, 0, 0, 1})},
      {"||", {vec({0, 0, 1, 2}), vec({0, 1, 0, 3})}, vec({0, 1, 1, 1})},
      {"neg", {mat(1, 2, {1, -2})}, mat(1, 2, {-1, 2})},
      {"!", {vec({0, 2, -1})}, vec({1, 0, 0})},
  };
}

// A function that says its result_shape() reads shapes only (a tape then asks it once)
// must give the same shape, and accept, whatever the values: here all NaN, then all 0.
void check_shape_from_shapes(const value_case& c) {
  const auto& f = fn(c.name);
  if (!f.shape_from_shapes()) return;
  for (const double fill : {static_cast<double>(NAN), 0.0}) {
    std::vector<tensor> other = c.args;
    for (auto& a : other) std::fill(a.data.begin(), a.data.end(), fill);
    CHECK(f.result_shape(views(other)) == c.expected.shape);
  }
}

void check_values(const std::vector<value_case>& cases, std::set<std::string>& seen) {
  for (const auto& c : cases) {
    INFO(c.name, " case with first argument of shape ", c.args[0].shape.str());
    seen.insert(c.name);
    const tensor out = call(c.name, c.args);
    REQUIRE(out.shape == c.expected.shape);
    check_shape_from_shapes(c);
    for (std::size_t i = 0; i < out.data.size(); ++i) {
      if (std::isinf(c.expected.data[i]))
        CHECK(out.data[i] == c.expected.data[i]);
      else
        CHECK(out.data[i] == doctest::Approx(c.expected.data[i]).epsilon(1e-12));
    }
  }
}

}  // namespace

TEST_CASE("every built-in's values, on a table of cases covering them all") {
  std::set<std::string> seen;
  check_values(math_cases(), seen);
  check_values(reduction_cases(), seen);
  check_values(shape_cases(), seen);
  check_values(operator_cases(), seen);
  check_values(special_value_cases(), seen);
  check_values(array_value_cases(), seen);
  for (const auto& name : ppl::stdlib::library().function_names()) {
    INFO("no value case for ", name);
    CHECK(seen.count(name) == 1);
  }
}

TEST_CASE("a product keeps a NaN factor's NaN, and only 0 times an infinity is 0") {
  using ppl::stdlib::times;
  CHECK(times(0, -INFINITY) == 0);
  CHECK(times(-INFINITY, 0) == 0);
  CHECK(std::isnan(times(0, NAN)));
  CHECK(std::isnan(times(NAN, 0)));
  CHECK(times(-2, INFINITY) == -INFINITY);
  CHECK(times(3, 4) == 12);
}

TEST_CASE("the required built-ins are registered, and only the non-smooth ones are not differentiable") {
  // Comparisons, logic, %, the extremes, rounding, steps, equality, integer counts and
  // orderings switch or jump; everything else is smooth (abs and fabs but for a kink at 0).
  const std::set<std::string> not_differentiable = {
      "!", "!=", "%", "&&", "<", "<=", "==", ">", ">=", "||", "max", "min", "fmax", "fmin", "fdim", "floor", "ceil",
      "round", "step", "int_step", "is_nan", "equals", "choose", "sort_asc", "sort_desc", "rank", "to_int"};
  const std::vector<std::string> required = {
      "exp", "log", "log1p", "expm1", "sqrt", "pow", "abs", "inv_logit", "logit", "tanh", "softplus", "softmax",
      "log_sum_exp", "sum", "mean", "sd", "max", "min", "dot", "transpose", "rep", "length", "+", "-", "*", "/",
      "%", "^", ".*", "./", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "neg", "!", "'",
      // issue 21: what a Stan or JAGS user expects
      "Phi", "lgamma", "log1m", "step", "equals", "ifelse", "Phi_approx", "inv_Phi", "probit", "log_inv_logit",
      "log1m_inv_logit", "log1p_exp", "fabs", "floor", "ceil", "round", "cos", "sin", "tan", "atan", "atan2", "exp2",
      "log2", "log10", "square", "inv", "inv_sqrt", "cbrt", "lbeta", "tgamma", "digamma", "lchoose", "choose",
      "logfact", "erf", "erfc", "fmin", "fmax", "fdim", "int_step", "cloglog", "inv_cloglog", "cumulative_sum", "log_mix", "hmm_marginal",
      "inverse", "cholesky", "log_determinant", "prod", "variance", "rows", "cols", "diag_matrix", "rep_matrix",
      "append_row", "append_col", "identity_matrix", "sort_asc", "sort_desc", "rank",
      // Stan's covariance from a correlation's factor and scales (with LKJCorrCholesky)
      "multiply_lower_tri_self_transpose", "diag_pre_multiply", "quad_form_diag"};
  for (const auto& name : required) CHECK(fn(name).name() == name);
  for (const auto& name : ppl::stdlib::library().function_names()) {
    INFO(name);
    CHECK(fn(name).differentiable() == (not_differentiable.count(name) == 0));
  }
}

TEST_CASE("run-time shape and value errors") {
  std::vector<error_case> cases = {
      {"dot", {vec({1, 2}), vec({1, 2, 3})}, "dot: arguments have sizes 2 and 3"},
      {"*", {mat(2, 3, std::vector<double>(6, 1.0)), vec({1, 2})}, "`*`: inner sizes differ: [2, 3] * [2]"},
      {"*", {vec({1, 2}), mat(3, 2, std::vector<double>(6, 1.0))}, "`*`: inner sizes differ"},
      {"*", {mat(2, 2, std::vector<double>(4, 1.0)), mat(3, 2, std::vector<double>(6, 1.0))}, "inner sizes differ"},
      {"+", {vec({1}), vec({1, 2})}, "`+`: operands have shapes [1] and [2]"},
      {".*", {mat(2, 2, std::vector<double>(4, 1.0)), mat(2, 3, std::vector<double>(6, 1.0))},
       "`.*`: operands have shapes [2, 2] and [2, 3]"},
      {"pow", {vec({1, 2}), vec({1, 2, 3})}, "pow: operands have shapes [2] and [3]"},
      {"<", {vec({1, 2}), vec({1, 2, 3})}, "`<`: operands have shapes"},
      {"%", {scalar(7), scalar(0)}, "`%`: the divisor is 0"},
      {"%", {scalar(7), vec({1, 0})}, "`%`: the divisor is 0"},
      {"sd", {vec({1})}, "sd needs at least 2 values, got 1"},
      {"mean", {vec({})}, "mean needs at least 1 value, got 0"},
      {"log_sum_exp", {vec({})}, "log_sum_exp needs at least 1 value"},
      {"max", {vec({})}, "max needs at least 1 value, got 0"},
      {"min", {vec({})}, "min needs at least 1 value, got 0"},
      {"softmax", {vec({})}, "softmax needs at least 1 value, got 0"},
      {"rep", {scalar(1), scalar(-1)}, "rep: the count n is -1; it must be a non-negative integer"},
      {"rep", {scalar(1), scalar(1e300)}, "rep: the count n is 1e+300, more than the limit of 268435456 (2^28)"},
  };
  for (const auto& more : {special_error_cases(), array_error_cases()}) cases.insert(cases.end(), more.begin(), more.end());
  for (const auto& c : cases) {
    INFO(c.name);
    CHECK_THROWS_WITH_AS(call(c.name, c.args), doctest::Contains(c.message.c_str()), ppl::stdlib::argument_error);
  }
}

}  // namespace test_functions
