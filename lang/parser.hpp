#pragma once
// Parsing a model's source into the syntax tree. Syntax errors throw lang::source_error
// saying what was expected where.
#include "lang/ast.hpp"
#include "lang/diagnostics.hpp"

namespace ppl::lang {

ast::program parse(const source_file& src);

}  // namespace ppl::lang
