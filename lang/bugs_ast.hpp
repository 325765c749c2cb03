#pragma once
// The syntax tree of a model in the BUGS language (OpenBUGS, JAGS), as lang/bugs_parser.cpp
// produces it. Expressions, targets and distribution calls are ppl's own nodes (ast.hpp)
// with the names as BUGS writes them (dots and all); lang/bugs_lower.cpp turns the whole
// into ppl's syntax tree, which the checker takes as it takes a .ppl file.
#include <boost/optional.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <string>
#include <vector>

#include "lang/ast.hpp"

namespace ppl::lang::bugs {

namespace x3 = boost::spirit::x3;

// `target ~ dist(args)` with an optional `T(lower, upper)`, `I(lower, upper)` or
// `C(lower, upper)` after it (ast::restriction's `which` is the letter).
using stochastic = ast::sample_stmt;

// `target <- expression` (JAGS also takes `=`).
using logical = ast::assign_stmt;

// `link(target) <- expression`: logit, log, cloglog or probit of the node.
struct linked : ast::tagged {
  ast::identifier link;
  ast::target lhs;
  ast::operand value;
};

struct for_loop;

struct statement : x3::variant<stochastic, logical, linked, x3::forward_ast<for_loop>> {
  using base_type::base_type;
  using base_type::operator=;
};

// `for (i in lo:hi) { ... }`.
struct for_loop : ast::tagged {
  ast::identifier var;
  ast::operand lo;
  ast::operand hi;
  std::vector<statement> body;
};

// `model { ... }` or JAGS's `data { ... }`; JAGS's `var` declarations are read and
// dropped (shapes come from the data and the statements).
struct block : ast::tagged {
  std::string which;  // "model", "data" or "var"
  std::vector<statement> body;
};

struct program {
  std::vector<block> blocks;
};

}  // namespace ppl::lang::bugs
