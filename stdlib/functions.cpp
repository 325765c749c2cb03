// The table of built-in functions and operators. Elementwise maps and reductions are rows
// here; functions with a shape of their own live in linear_algebra.cpp.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "stdlib/function_kinds.hpp"
#include "stdlib/library.hpp"
#include "stdlib/linear_algebra.hpp"

namespace ppl::stdlib {

namespace {

double inv_logit(double x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

double sum(const double* x, index_t n) { return std::accumulate(x, x + n, 0.0); }
double mean(const double* x, index_t n) { return sum(x, n) / static_cast<double>(n); }
double sd(const double* x, index_t n) {
  double m = mean(x, n), ss = 0;
  for (index_t i = 0; i < n; ++i) ss += (x[i] - m) * (x[i] - m);
  return std::sqrt(ss / static_cast<double>(n - 1));
}
double log_sum_exp(const double* x, index_t n) {
  double m = *std::max_element(x, x + n);
  if (!std::isfinite(m)) return m;
  double s = 0;
  for (index_t i = 0; i < n; ++i) s += std::exp(x[i] - m);
  return m + std::log(s);
}

struct unary_row {
  const char* name;
  unary_fn f;
  unary_grad g;
  result_kind kind;
};

// Sorted by name.
const unary_row unary_table[] = {
    {"!", [](double x) { return x == 0 ? 1.0 : 0.0; }, nullptr, result_kind::integer},
    {"abs", [](double x) { return std::fabs(x); }, [](double x, double) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }, result_kind::follow},
    {"exp", [](double x) { return std::exp(x); }, [](double, double fx) { return fx; }, result_kind::real},
    {"expm1", [](double x) { return std::expm1(x); }, [](double, double fx) { return fx + 1; }, result_kind::real},
    {"inv_logit", inv_logit, [](double, double fx) { return fx * (1 - fx); }, result_kind::real},
    {"log", [](double x) { return std::log(x); }, [](double x, double) { return 1 / x; }, result_kind::real},
    {"log1p", [](double x) { return std::log1p(x); }, [](double x, double) { return 1 / (1 + x); }, result_kind::real},
    {"logit", [](double x) { return std::log(x / (1 - x)); }, [](double x, double) { return 1 / (x * (1 - x)); }, result_kind::real},
    {"neg", [](double x) { return -x; }, [](double, double) { return -1.0; }, result_kind::follow},
    {"softplus", softplus, [](double x, double) { return inv_logit(x); }, result_kind::real},
    {"sqrt", [](double x) { return std::sqrt(x); }, [](double, double fx) { return 0.5 / fx; }, result_kind::real},
    {"tanh", [](double x) { return std::tanh(x); }, [](double, double fx) { return 1 - fx * fx; }, result_kind::real},
};

struct binary_row {
  const char* name;
  binary_fn f;
  binary_grad g;
  result_kind kind;
  bool integer_only;
};

void pow_grad(double a, double b, double fab, double& da, double& db) {
  da = b == 0 ? 0 : b * std::pow(a, b - 1);
  db = a > 0 ? fab * std::log(a) : 0;
}

// Sorted by name. `/` is real division even for integers: 1/2 is 0.5, as a statistician
// expects; `%` is the integer remainder used for wrap-around indices (i % L + 1).
const binary_row binary_table[] = {
    {"!=", [](double a, double b) { return a != b ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {"%", [](double a, double b) { return std::fmod(std::fmod(a, b) + b, b); }, nullptr, result_kind::integer, true},
    {"&&", [](double a, double b) { return a != 0 && b != 0 ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {"+", [](double a, double b) { return a + b; }, [](double, double, double, double& da, double& db) { da = 1; db = 1; }, result_kind::follow, false},
    {"-", [](double a, double b) { return a - b; }, [](double, double, double, double& da, double& db) { da = 1; db = -1; }, result_kind::follow, false},
    {".*", [](double a, double b) { return a * b; }, [](double a, double b, double, double& da, double& db) { da = b; db = a; }, result_kind::follow, false},
    {"./", [](double a, double b) { return a / b; }, [](double a, double b, double, double& da, double& db) { da = 1 / b; db = -a / (b * b); }, result_kind::real, false},
    {"/", [](double a, double b) { return a / b; }, [](double a, double b, double, double& da, double& db) { da = 1 / b; db = -a / (b * b); }, result_kind::real, false},
    {"<", [](double a, double b) { return a < b ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {"<=", [](double a, double b) { return a <= b ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {"==", [](double a, double b) { return a == b ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {">", [](double a, double b) { return a > b ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {">=", [](double a, double b) { return a >= b ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
    {"^", [](double a, double b) { return std::pow(a, b); }, pow_grad, result_kind::real, false},
    {"pow", [](double a, double b) { return std::pow(a, b); }, pow_grad, result_kind::real, false},
    {"||", [](double a, double b) { return a != 0 || b != 0 ? 1.0 : 0.0; }, nullptr, result_kind::integer, false},
};

struct reduction_row {
  const char* name;
  reduce_fn f;
  reduce_grad g;
  result_kind kind;
  index_t min_size;
};

const reduction_row reduction_table[] = {
    {"log_sum_exp", log_sum_exp,
     [](const double* x, index_t n, double fx, double* g) { for (index_t i = 0; i < n; ++i) g[i] = std::exp(x[i] - fx); },
     result_kind::real, 1},
    {"mean", mean, [](const double*, index_t n, double, double* g) { std::fill(g, g + n, 1.0 / static_cast<double>(n)); }, result_kind::real, 1},
    {"sd", sd,
     [](const double* x, index_t n, double fx, double* g) {
       double m = mean(x, n);
       for (index_t i = 0; i < n; ++i) g[i] = (x[i] - m) / (static_cast<double>(n - 1) * fx);
     },
     result_kind::real, 2},
    {"sum", sum, [](const double*, index_t n, double, double* g) { std::fill(g, g + n, 1.0); }, result_kind::follow, 0},
};

}  // namespace

void register_functions(registry& r) {
  for (const auto& row : unary_table) r.add(make_unary(row.name, row.f, row.g, row.kind));
  for (const auto& row : binary_table) r.add(make_binary(row.name, row.f, row.g, row.kind, row.integer_only));
  for (const auto& row : reduction_table) r.add(make_reduction(row.name, row.f, row.g, row.kind, row.min_size));
  register_linear_algebra(r);
}

}  // namespace ppl::stdlib
