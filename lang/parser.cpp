// The one translation unit that instantiates the grammar (STYLE.md: nothing else sees the
// rules, which keeps build times down).
#include "lang/parser.hpp"

#include <algorithm>

#include "lang/grammar_def.hpp"
#include "lang/syntax_error.hpp"

namespace ppl::lang {

namespace {

namespace x3 = boost::spirit::x3;
using iterator = std::string::const_iterator;

// The parser recurses once per level of brackets, prefix operator or `^`: text nested
// deeper than this is refused before parsing, so that no input can exhaust the stack
// (a million opening parentheses is a few megabytes).
constexpr int max_nesting = 256;

std::string fmt_byte(char c) {
  static const char* hex = "0123456789abcdef";
  const auto b = static_cast<unsigned char>(c);
  return std::string("the byte 0x") + hex[b >> 4] + hex[b & 15];
}

// A model is text: a NUL byte means a binary file (an image, an archive) was given as the
// model, and other control characters mean a damaged one. Comments included; the message
// shows the byte escaped, never raw.
void check_text(const source_file& src) {
  if (auto nul = src.text.find('\0'); nul != std::string::npos)
    fail_at(src, nul, "the file holds a NUL byte (0x00): it is binary data, not the text of a model");
  for (std::size_t i = 0; i < src.text.size(); ++i) {
    const auto b = static_cast<unsigned char>(src.text[i]);
    if ((b < 0x20 && !grammar::is_space(src.text[i])) || b == 0x7f)
      fail_at(src, i, fmt_byte(src.text[i]) + " is a control character, not text");
  }
}

// Also refuses bytes outside ASCII except in comments (the grammar's character classes are
// ASCII ones). Without `limits`, only that: the BUGS grammar counts its own nesting.
void check_nesting(const source_file& src, bool limits) {
  const std::string& t = src.text;
  int depth = 0, run = 0, powers = 0;  // brackets open; prefix operators in a row; `^` in this chain
  // A line break at the top level after an operand may end a statement, and so the chain of
  // `^`, unless the next line goes on with `^`: the count is put aside until that is known
  // (the grammar takes line breaks as spaces, so `a^` and `^b` on lines of their own chain).
  int put_aside = 0;
  bool line_start = false;
  bool comment = false, operand_before = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (comment) {
      comment = c != '\n';
      if (comment) continue;  // the line break that ends it is a line break like any other
    }
    if (c == '#') {
      comment = true;
      continue;
    }
    if (static_cast<unsigned char>(c) >= 0x80)
      fail_at(src, i, fmt_byte(c) + " is not an ASCII character; names and operators are ASCII (comments may hold any text)");
    if (!limits) continue;
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (c == '\n' && depth == 0 && operand_before && !line_start) put_aside = powers, powers = 0, line_start = true;
      continue;
    }
    if (line_start && c == '^') powers = put_aside;
    line_start = false;
    const bool prefix = (c == '-' || c == '+' || c == '!') && !operand_before;
    run = prefix ? run + 1 : 0;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') depth = std::max(0, depth - 1);
    if (c == '^') ++powers;
    if (depth > max_nesting || run > max_nesting || powers > max_nesting)
      fail_at(src, i, "the text is nested more than " + std::to_string(max_nesting) +
                          " levels deep (brackets, prefix operators or powers); write it in steps");
    operand_before = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ')' || c == ']' || c == '}' || c == '\'';
  }
}

// check_nesting lets bytes outside ASCII through only in comments. Spirit's character
// classes assert on them, so the grammar reads a copy in which they are spaces: were it
// ever to disagree with check_nesting about where a comment ends (fuzzing found two such
// ways, a lone '\r' and `nan(#)`), it still could not fail on one. Offsets are unchanged.
std::string ascii_copy(const std::string& text) {
  std::string copy = text;
  for (char& c : copy)
    if (static_cast<unsigned char>(c) >= 0x80) c = ' ';
  return copy;
}

}  // namespace

std::string checked_text(const source_file& src, bool nesting_limits) {
  check_text(src);
  check_nesting(src, nesting_limits);
  return ascii_copy(src.text);
}

void fail_syntax(const source_file& src, std::size_t after, std::string_view what, bool ppl_advice) {
  auto where = src.text.cbegin() + static_cast<std::ptrdiff_t>(std::min(after, src.text.size()));
  grammar::skip_blank(where, src.text.cend());
  const auto offset = static_cast<std::size_t>(where - src.text.cbegin());
  syntax_error error = ppl_advice ? explain_syntax_error(src.text, after, offset, what) : plain_syntax_error(src.text, offset, what);
  // At the end of input, point just past the last token rather than at an empty line.
  if (error.offset == src.text.size())
    while (error.offset > 0 && grammar::is_space(src.text[error.offset - 1])) --error.offset;
  fail_at(src, error.offset, std::move(error.message));
}

ast::program parse(const source_file& src) {
  ast::program prog;
  const std::string text = checked_text(src);
  iterator first = text.begin();
  const iterator last = text.end();
  const iterator start = text.begin();
  try {
    auto const parser = x3::with<grammar::source_start_tag>(start)[grammar::program];
    x3::phrase_parse(first, last, parser, grammar::skipper, prog.statements);
  } catch (const x3::expectation_failure<iterator>& e) {
    fail_syntax(src, static_cast<std::size_t>(e.where() - start), e.which(), true);
  }
  return prog;
}

}  // namespace ppl::lang
