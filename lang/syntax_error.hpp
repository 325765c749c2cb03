#pragma once
// A syntax error in words: what the parser expected, named by its rule, and advice where
// the text reads like BUGS, JAGS or Stan. Kept apart from the grammar, which only names
// its rules; these names are how the two agree.
#include <cstddef>
#include <string>
#include <string_view>

namespace ppl::lang {

// Names of the rules that advice keys on (each also what a message says was expected).
namespace expected {
inline constexpr char loop_variable[] = "a loop variable (`for i in 1:N`)";
inline constexpr char tilde_or_equals[] = "'~' or '='";
inline constexpr char data_name[] = "a name for the data (`data y: real[N]`)";
inline constexpr char statement[] = "a statement";
}  // namespace expected

struct syntax_error {
  std::size_t offset;  // where the caret goes
  std::string message;
};

// The error for a parse that failed expecting `what` (a rule's name, a quoted literal, or
// for a parser without a name a C++ type name, which is never shown). `after` is where the
// failure was found, `offset` the start of the next token after any white space.
syntax_error explain_syntax_error(std::string_view text, std::size_t after, std::size_t offset, std::string_view what);

// The same without the advice for other languages (the BUGS grammar's errors): "expected
// WHAT but found TOKEN", with near keywords for a misspelt one.
syntax_error plain_syntax_error(std::string_view text, std::size_t offset, std::string_view what);

}  // namespace ppl::lang
