#pragma once
// Semantic checks: names, types, shapes (ranks), distribution arguments, roles and the
// dependency order. Errors throw lang::source_error at the offending token.
#include "lang/ast.hpp"
#include "lang/ir.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang {

ir::model check(const source_file& src, const ast::program& program, const stdlib::registry& lib);

// Parse and check in one step.
ir::model compile(const source_file& src, const stdlib::registry& lib);

}  // namespace ppl::lang
