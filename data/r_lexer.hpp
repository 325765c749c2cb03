#pragma once
// The tokens of R's dump format, for data/r_parser.cpp.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/source_error.hpp"

namespace ppl::data::r_dump {

enum class tok { end, number, name, string, quoted_name, open, close, comma, arrow, equals, colon, sign, semicolon };

struct token {
  tok kind = tok::end;
  std::size_t at = 0;     // offset of its first byte
  std::size_t end = 0;    // offset after its last byte
  std::string_view text;  // as written; a string's or `quoted name`'s without the quotes
};

// The token at or after `from` (blanks and # comments skipped). Throws ppl::source_error
// at a character R's data never hold there, an unclosed quote or a malformed number.
token lex(ppl::source_view src, std::size_t from);

// "`c`", "\"abc\"", "the end of the file": a token as messages name it.
std::string describe(const token& t);

// A name as R reads it from a quoted string: backslash escapes undone.
std::string unescape(std::string_view text);

// Whether a text's first statement reads as R (`list(` or `name <-`), after blanks and
// comments: for a data file whose extension does not say what it is (OpenBUGS's
// examples come as .txt). No CSV header starts so.
bool looks_like_r(std::string_view text);

}  // namespace ppl::data::r_dump
