// The elementwise operators: arithmetic, comparisons, logic, and the prefix neg and !.
// `*` and the postfix ' are linear algebra (linear_algebra.cpp); ^ is pow (elementwise.cpp).
#include <cmath>
#include <stdexcept>

#include "stdlib/function_groups.hpp"

namespace ppl::stdlib {

namespace {

void sum_grad(double, double, double, double& da, double& db) { da = 1, db = 1; }
void difference_grad(double, double, double, double& da, double& db) { da = 1, db = -1; }
void product_grad(double a, double b, double, double& da, double& db) { da = b, db = a; }
void quotient_grad(double, double b, double fab, double& da, double& db) { da = 1 / b, db = -fab / b; }

// The floored remainder, always in 0..b-1 for b > 0, so that wrap-around indices such as
// (i - 2) % L + 1 stay in 1..L even when i - 2 is negative (C's % would give -1).
double floored_remainder(double a, double b) {
  const double r = std::fmod(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}
const char* zero_divisor(double, double b) { return b == 0 ? "the divisor is 0" : nullptr; }

const binary_math operator_binary_table[] = {
    {"!=", [](double a, double b) { return truth(a != b); }, nullptr, result_kind::integer},
    {"%", floored_remainder, nullptr, result_kind::integer, true, zero_divisor},
    {"&&", [](double a, double b) { return truth(a != 0 && b != 0); }, nullptr, result_kind::integer},
    {"+", [](double a, double b) { return a + b; }, sum_grad, result_kind::follow, false, nullptr, true},
    {"-", [](double a, double b) { return a - b; }, difference_grad, result_kind::follow, false, nullptr, true},
    {".*", times, product_grad, result_kind::follow},
    {"./", [](double a, double b) { return a / b; }, quotient_grad, result_kind::real},
    // Real division even for two integers: 1 / 2 is 0.5, as a statistician reads it.
    {"/", [](double a, double b) { return a / b; }, quotient_grad, result_kind::real},
    {"<", [](double a, double b) { return truth(a < b); }, nullptr, result_kind::integer},
    {"<=", [](double a, double b) { return truth(a <= b); }, nullptr, result_kind::integer},
    {"==", [](double a, double b) { return truth(a == b); }, nullptr, result_kind::integer},
    {">", [](double a, double b) { return truth(a > b); }, nullptr, result_kind::integer},
    {">=", [](double a, double b) { return truth(a >= b); }, nullptr, result_kind::integer},
    {"||", [](double a, double b) { return truth(a != 0 || b != 0); }, nullptr, result_kind::integer},
};

const unary_math operator_unary_table[] = {
    {"!", [](double x) { return truth(x == 0); }, nullptr, result_kind::integer},
    {"neg", [](double x) { return -x; }, [](double, double) { return -1.0; }, result_kind::follow},
};

}  // namespace

std::unique_ptr<function> make_operator(std::string_view name) {
  for (const auto& m : operator_binary_table)
    if (m.name == name) return make_binary_map(m);
  for (const auto& m : operator_unary_table)
    if (m.name == name) return make_unary_map(m);
  throw std::logic_error("no operator " + std::string(name));
}

}  // namespace ppl::stdlib
