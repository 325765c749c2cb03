#pragma once
// Reusable shapes of built-in functions: elementwise unary and binary maps (broadcasting a
// scalar against an array) and reductions of an array to a scalar. Each built-in that fits
// one of them is a row in a table (stdlib/functions.cpp) rather than a class of its own.
#include <memory>
#include <string>

#include "stdlib/function.hpp"

namespace ppl::stdlib {

using unary_fn = double (*)(double);
// The derivative of a unary function given x and f(x).
using unary_grad = double (*)(double x, double fx);
using binary_fn = double (*)(double, double);
// Partial derivatives of a binary function with respect to a and b.
using binary_grad = void (*)(double a, double b, double fab, double& da, double& db);

enum class result_kind {
  real,          // always real
  follow,        // integer when every argument is an integer
  integer,       // always integer (comparisons, logic)
};

std::unique_ptr<function> make_unary(std::string name, unary_fn f, unary_grad g, result_kind k);
std::unique_ptr<function> make_binary(std::string name, binary_fn f, binary_grad g, result_kind k,
                                      bool integer_only = false);

// Reductions of any array to a scalar: f(values, n); gradient d f / d x_i into `grad`.
using reduce_fn = double (*)(const double* x, index_t n);
using reduce_grad = void (*)(const double* x, index_t n, double fx, double* grad);
std::unique_ptr<function> make_reduction(std::string name, reduce_fn f, reduce_grad g, result_kind k,
                                         index_t min_size = 0);

}  // namespace ppl::stdlib
