#pragma once
// The syntax tree as the parser produces it: plain structs, x3 variants, and byte offsets
// into the source on every node that an error may point at. An expression is an
// `operand`. Operator precedence is encoded by the grammar as chains (`first op operand op
// operand ...`), one per precedence level that has an operator: a lone name or number is
// the operand itself, not a chain at each of the eight levels. The checker folds chains
// into the typed tree of lang/ir.hpp.
#include <boost/optional.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <cstddef>
#include <string>
#include <vector>

namespace ppl::lang::ast {

namespace x3 = boost::spirit::x3;

// Byte offsets of a node in its source, set by the grammar's on_success handler.
struct tagged {
  std::size_t pos = 0;
  std::size_t end = 0;
};

struct nil {};
struct int_literal : tagged { unsigned long long value = 0; };  // as parsed (x3::ulong_long): 2^64 - 1 must not wrap to -1
struct real_literal : tagged { double value = 0; };
struct identifier : tagged { std::string name; };

struct call;
struct vector_literal;
struct postfix;
struct unary;
struct chain;
struct conditional;
struct conditioned;

struct operand : x3::variant<nil, int_literal, real_literal, identifier, x3::forward_ast<call>,
                             x3::forward_ast<vector_literal>, x3::forward_ast<postfix>,
                             x3::forward_ast<unary>, x3::forward_ast<chain>, x3::forward_ast<conditional>,
                             x3::forward_ast<conditioned>> {
  using base_type::base_type;
  using base_type::operator=;
};

// One binary operation of a chain: `op rhs`.
struct operation : tagged {
  std::string op;
  operand rhs;
};

// `first op1 rhs1 op2 rhs2 ...` at one precedence level, left-associative (`^` is parsed
// right-associatively by nesting); `rest` is never empty.
struct chain {
  operand first;
  std::vector<operation> rest;
};

// `? yes : no`, the tail of a conditional expression.
struct conditional_tail : tagged {
  operand yes;
  operand no;
};

// `cond ? yes : no`: yes where cond is non-zero, else no (lowered to ifelse).
struct conditional {
  operand cond;
  conditional_tail tail;
};

// `| given`, the tail of a log-density call's first argument.
struct given_tail : tagged {
  char bar = '|';  // a second member keeps Fusion from treating this as a bare operand
  operand given;
};

// `value | given` as the first argument of `normal_lpdf(y | mu, sigma)`: the value whose
// log density is asked, then the distribution's first parameter.
struct conditioned {
  operand value;
  given_tail tail;
};

struct unary : tagged {
  char op = '-';  // '-', '+' or '!'
  operand rhs;
};

// `f(a, b)` or `Dist(a, b)`.
struct call : tagged {
  identifier callee;
  std::vector<operand> args;
};

struct vector_literal : tagged {
  char open = '[';  // a second member keeps Fusion from treating this as a bare container
  std::vector<operand> elements;
};

// One position of an index list: `e`, `a:b`, `a:`, `:b`, `:` or empty (all).
struct range_tail {
  char colon = ':';
  boost::optional<operand> hi;
};
struct index_item : tagged {
  boost::optional<operand> lo;
  boost::optional<range_tail> tail;
};
struct index_list : tagged {
  char open = '[';
  std::vector<index_item> items;
};
struct transpose_mark : tagged {
  char mark = '\'';
};
struct suffix : x3::variant<index_list, transpose_mark> {
  using base_type::base_type;
  using base_type::operator=;
};

// A primary followed by indexing and transposes: `W1'`, `theta[doc[n]]`, `X[:, 2]`.
struct postfix {
  operand base;
  std::vector<suffix> suffixes;
};

// ---- statements -------------------------------------------------------------------------

struct bound : tagged {
  std::string which;  // "lower" or "upper"
  operand value;
};

struct type_spec : tagged {
  std::string scalar;           // "int" or "real" (a param also "ordered", "positive_ordered")
  std::vector<bound> bounds;    // <lower=0, upper=1>
  std::vector<operand> dims;    // [N, P]
};

struct data_decl : tagged {
  identifier name;
  type_spec type;
  boost::optional<operand> default_value;
};

// `param NAME: TYPE`: an unknown's type, shape and bounds; without a `~` it has the
// improper flat prior on that support.
struct param_decl : tagged {
  identifier name;
  type_spec type;
};

// The left side of `~` or `=`: a name with optional indices.
struct target : tagged {
  identifier name;
  std::vector<index_item> indices;  // single indices, or `:` (a whole dimension, for `~`)
};

// After a distribution: `C[lower, upper]` (censored: the value is only known to lie in
// the interval) or `T[lower, upper]` (truncated: the distribution renormalised to it);
// either bound may be left out.
struct restriction : tagged {
  std::string which;  // "C" or "T"
  boost::optional<operand> lower;
  boost::optional<operand> upper;
};

struct sample_stmt : tagged {
  target lhs;
  call dist;
  boost::optional<restriction> restricted;
};

struct assign_stmt : tagged {
  target lhs;
  operand value;
};

struct factor_stmt : tagged {
  operand value;
};

// `function name(a, b) = expression`: a function of its parameters, written into each
// call's place before the model is checked (lang/functions.cpp).
struct function_def : tagged {
  identifier name;
  std::vector<identifier> params;
  operand value;
};

// `print(a, b[i], ...)`: the values, printed at each kept draw (lang/prints.cpp).
struct print_stmt : tagged {
  std::vector<operand> args;
};

struct loop_range : tagged {
  identifier var;
  operand lo;
  operand hi;
};

struct for_stmt;
struct if_stmt;

struct statement : x3::variant<data_decl, param_decl, sample_stmt, assign_stmt, factor_stmt, function_def, print_stmt,
                               x3::forward_ast<for_stmt>, x3::forward_ast<if_stmt>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct for_stmt : tagged {
  std::vector<loop_range> ranges;
  std::vector<statement> body;
};

// `if (cond) { ... } else { ... }`; `else if` is an else whose body is one if_stmt.
struct if_stmt : tagged {
  operand cond;
  std::vector<statement> then_body;
  boost::optional<std::vector<statement>> else_body;
};

struct program {
  std::vector<statement> statements;
};

}  // namespace ppl::lang::ast
