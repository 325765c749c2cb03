#pragma once
// The groups of built-in functions, each a factory from a name to its implementation, so
// that stdlib/functions.cpp can register the whole library from one table of
// {name, group}. Internal to stdlib/.
//   elementwise.cpp        math maps over any rank: exp, log, ..., pow and ^; ifelse
//   special_functions.cpp  maps of probability and combinatorics: Phi, lgamma, lchoose, ...
//   operators.cpp          arithmetic, comparison and logical operators, neg and !
//   reductions.cpp         arrays to scalars (sum, prod, mean, variance, sd, log_sum_exp,
//                          max, min), softmax
//   log_mix.cpp            log_mix, the log density of a mixture
//   hmm_marginal.cpp       hmm_marginal, a hidden Markov model's states summed out
//   sequences.cpp          cumulative_sum, sort_asc, sort_desc, rank
//   linear_algebra.cpp     *, dot, transpose and the postfix '
//   matrix_functions.cpp   inverse, log_determinant, cholesky, mdivide_left(_tri_low)
//   constructors.cpp       rep, rep_matrix, diag_matrix, identity_matrix; length, rows, cols
//   concatenation.cpp      append_row, append_col
//   selections.cpp         head, tail, segment, row, col, to_vector, to_array_1d, take
//   covariance_functions.cpp
//                          multiply_lower_tri_self_transpose, diag_pre_multiply,
//                          quad_form_diag (a covariance from a correlation and scales)
#include <memory>
#include <string>
#include <string_view>

#include "stdlib/function.hpp"

namespace ppl::stdlib {

// Each throws std::logic_error for a name its group does not define.
using function_factory = std::unique_ptr<function> (*)(std::string_view name);

std::unique_ptr<function> make_math_function(std::string_view name);
std::unique_ptr<function> make_operator(std::string_view name);
std::unique_ptr<function> make_reduction(std::string_view name);
std::unique_ptr<function> make_softmax(std::string_view name);
std::unique_ptr<function> make_product(std::string_view name);
std::unique_ptr<function> make_dot(std::string_view name);
std::unique_ptr<function> make_transpose(std::string_view name);
std::unique_ptr<function> make_rep(std::string_view name);
std::unique_ptr<function> make_size(std::string_view name);  // length, num_elements, size, rows, cols
std::unique_ptr<function> make_special_function(std::string_view name);
std::unique_ptr<function> make_ifelse(std::string_view name);
std::unique_ptr<function> make_log_mix(std::string_view name);
std::unique_ptr<function> make_hmm_marginal(std::string_view name);
std::unique_ptr<function> make_cumulative_sum(std::string_view name);
std::unique_ptr<function> make_sort(std::string_view name);  // sort_asc, sort_desc
std::unique_ptr<function> make_rank(std::string_view name);
std::unique_ptr<function> make_inverse(std::string_view name);
std::unique_ptr<function> make_left_division(std::string_view name);  // mdivide_left, mdivide_left_tri_low
std::unique_ptr<function> make_log_determinant(std::string_view name);
std::unique_ptr<function> make_cholesky(std::string_view name);  // cholesky, cholesky_decompose
std::unique_ptr<function> make_rep_matrix(std::string_view name);
std::unique_ptr<function> make_diagonal(std::string_view name);  // diag_matrix, identity_matrix
std::unique_ptr<function> make_append(std::string_view name);    // append_row, append_col
// multiply_lower_tri_self_transpose, diag_pre_multiply, quad_form_diag
std::unique_ptr<function> make_covariance_function(std::string_view name);
// head, tail, segment, row, col, to_vector, to_array_1d, take
std::unique_ptr<function> make_selection(std::string_view name);

// The kind of an elementwise result.
enum class result_kind {
  real,     // always real (exp, /)
  follow,   // integer when every argument is an integer (+, abs)
  integer,  // always integer (comparisons, logic, %)
};

// A comparison's or a logical function's value: 1 for true, 0 for false.
inline double truth(bool b) { return b ? 1.0 : 0.0; }

// a * b with a factor of exactly 0 giving 0 even when the other is infinite, as JAGS
// multiplies (its 0 * log(0) is 0, the convention of a deviance's y log(y / mu) at y = 0).
// A NaN factor stays NaN; the branch is taken only when the IEEE product is NaN.
inline double times(double a, double b) {
  const double p = a * b;
  if (p == p) [[likely]] return p;
  return (a == 0 && b == b) || (b == 0 && a == a) ? 0.0 : p;
}

// A scalar function and its derivative given x and f(x); a null derivative makes the map
// non-differentiable.
struct unary_math {
  std::string_view name;
  double (*f)(double x);
  double (*df)(double x, double fx);
  result_kind kind;
};

// A scalar function of two arguments and its partial derivatives. `invalid`, when set,
// returns a message for operands the function refuses (a zero divisor of %).
struct binary_math {
  std::string_view name;
  double (*f)(double a, double b);
  void (*df)(double a, double b, double fab, double& da, double& db);
  result_kind kind;
  bool integer_only = false;
  const char* (*invalid)(double a, double b) = nullptr;
  // The partial derivatives are constants (+, -): df is asked once and the adjoints are
  // plain scaled sums, which vectorise.
  bool constant_partials = false;
};

// Elementwise maps (elementwise.cpp): unary over any rank; binary over operands of one
// shape, or a scalar against an array of any rank.
std::unique_ptr<function> make_unary_map(const unary_math& m);
std::unique_ptr<function> make_binary_map(const binary_math& m);

// Helpers for messages (function_groups.cpp).
// How a function's name reads in messages: operators in backquotes (`+`), names bare.
std::string display_name(std::string_view name);

// For the factories of a single function: throws std::logic_error unless name == expected,
// so that a misspelt row in the registration table cannot pass unnoticed.
void expect_name(std::string_view name, std::string_view expected);

// The types of the arguments as messages list them: "real[,] and real[]"; "nothing".
std::string describe_types(std::span<const type_sig> args);

}  // namespace ppl::stdlib
