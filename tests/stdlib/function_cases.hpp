#pragma once
// The tables of cases for the built-in functions, shared by test_functions.cpp (values),
// test_function_types.cpp (types) and test_function_gradients.cpp (gradients), each of
// which fails its coverage check until every registered function has a case. The tables
// of the later functions live beside them: cases_special_functions.cpp (elementwise maps
// of probability and combinatorics, the elementary ones after exp and log, ifelse) and
// cases_array_functions.cpp (reductions, log_mix, orderings, constructors, matrices).
#include <string>
#include <vector>

#include "tests/stdlib/function_checks.hpp"

namespace ppl::testing {

// A call and its expected result (infinities compared exactly).
struct value_case {
  std::string name;
  std::vector<tensor> args;
  tensor expected;
};

// Either the type expected, or (when `error` is set) a substring of the message.
struct type_case {
  std::string name;
  std::vector<stdlib::type_sig> args;
  stdlib::type_sig expected;
  std::string error;
};

inline type_case ok(std::string name, std::vector<stdlib::type_sig> args, stdlib::type_sig t) {
  return {std::move(name), std::move(args), t, {}};
}
inline type_case bad(std::string name, std::vector<stdlib::type_sig> args, std::string error) {
  return {std::move(name), std::move(args), {}, std::move(error)};
}

// A differentiable call whose backward() is compared with finite differences.
struct gradient_case {
  std::string name;
  std::vector<tensor> args;
  std::vector<bool> integer = {};  // arguments not to perturb (rep's count); empty: none
  // A function of a symmetric matrix (cholesky), which refuses an asymmetric one: its
  // entries are perturbed in pairs, A[i, j] with A[j, i], and the sum of their two
  // adjoints is compared.
  bool symmetric = false;
};

// A call that result_shape (or eval) must refuse, with a substring of the message.
struct error_case {
  std::string name;
  std::vector<tensor> args;
  std::string message;
};

std::vector<value_case> special_value_cases();
std::vector<type_case> special_type_cases();
std::vector<gradient_case> special_gradient_cases();
std::vector<error_case> special_error_cases();

std::vector<value_case> array_value_cases();
std::vector<type_case> array_type_cases();
std::vector<gradient_case> array_gradient_cases();
std::vector<error_case> array_error_cases();

}  // namespace ppl::testing
