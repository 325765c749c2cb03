#pragma once
// Parsing a model's source into the syntax tree. Syntax errors throw ppl::source_error
// saying what was expected where.
#include <cstddef>
#include <string>
#include <string_view>

#include "lang/ast.hpp"
#include "core/source_error.hpp"

namespace ppl::lang {

ast::program parse(const source_file& src);

// What both grammars (this and lang/bugs_parser.cpp) do around a parse: the source checked
// for binary content, control characters and (with `nesting_limits`: the BUGS grammar
// counts its own as it parses) runaway nesting, and returned with any byte outside ASCII
// (only comments may hold one) made a space, offsets unchanged.
std::string checked_text(const source_file& src, bool nesting_limits = true);

// Throws the syntax error of a parse that failed at byte `after` expecting `what` (a
// rule's name); with `ppl_advice`, advice for other languages' habits where they apply.
[[noreturn]] void fail_syntax(const source_file& src, std::size_t after, std::string_view what, bool ppl_advice);

}  // namespace ppl::lang
