#pragma once
// Parsing a model in the BUGS language (.bug, .jags) into its syntax tree
// (lang/bugs_ast.hpp). Syntax errors throw ppl::source_error at the BUGS text.
#include <string_view>

#include "lang/bugs_ast.hpp"
#include "core/source_error.hpp"

namespace ppl::lang {

bugs::program parse_bugs(const source_file& src);

// Whether a model file is in the BUGS language: by its extension (.bug, .bugs, .jags), or
// for a .txt file, whether its first word is `model`, `data` or `var` followed by `{`
// (or, for `var`, a name) as BUGS files begin.
bool looks_like_bugs(std::string_view path, std::string_view text);

}  // namespace ppl::lang
