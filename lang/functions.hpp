#pragma once
// User functions, `function name(a, b) = expression` (docs/language.md, "Functions of your
// own"): each call written into its place, the function's parameters replaced by the
// call's arguments, before the model is checked. The body may read its parameters and
// call built-ins and the functions defined above it (so none is recursive); the checker
// then types, vectorises and differentiates the written-out expression as any other.
#include "core/source_error.hpp"
#include "lang/ast.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang {

// Every call of a user function in the program written out and the definitions left out,
// in place; errors (a definition inside a loop, a name taken, a parameter twice, a name the
// body reads that is no parameter, a call with the wrong number of arguments) at their
// place.
void expand_functions(const source_file& src, ast::program& program, const stdlib::registry& lib);

}  // namespace ppl::lang
