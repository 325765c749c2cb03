#pragma once
// Semantic checks: names, types, shapes (ranks), distribution arguments, roles and the
// dependency order. Errors throw ppl::source_error at the offending token.
#include <set>
#include <string>

#include "lang/ast.hpp"
#include "lang/ir.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang {

// What the checker needs to know of the data: the data variables with missing values
// (NaN: NA in CSV, null in JSON), which it splits into their given values and unknowns for
// the missing ones (lang/checker_missing.cpp).
struct check_options {
  std::set<std::string> partly_observed;
};

ir::model check(const source_file& src, const ast::program& program, const stdlib::registry& lib, check_options options = {});

// Parse and check in one step.
ir::model compile(const source_file& src, const stdlib::registry& lib, check_options options = {});

}  // namespace ppl::lang
