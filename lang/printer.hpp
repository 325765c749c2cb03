#pragma once
// ppl's syntax tree written back as ppl text: what `ppl translate` prints for a BUGS model.
// Parentheses are put where ppl's precedence needs them, whatever the tree came from;
// numbers are written so that they read back as the same kind and value.
#include <string>
#include <string_view>

#include "lang/ast.hpp"

namespace ppl::lang {

// The program, two spaces per loop level. With `comments_from`, the text the tree's
// offsets point into, its `#` comments are carried over: each before the statement it
// preceded, or after the one it followed on the same line. `data` declarations come
// first, without comments. A name that is a keyword of ppl (`data`, `factor`, ...) throws
// std::runtime_error.
std::string print_program(const ast::program& program, std::string_view comments_from = {});

std::string print_expression(const ast::operand& e);

}  // namespace ppl::lang
