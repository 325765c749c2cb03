// The one translation unit that instantiates the grammar (STYLE.md: nothing else sees the
// rules, which keeps build times down).
#include "lang/parser.hpp"

#include "lang/grammar_def.hpp"

namespace ppl::lang {

namespace {

namespace x3 = boost::spirit::x3;
using iterator = std::string::const_iterator;

// The token at an offset, for "expected X but found Y".
std::string found_at(const std::string& text, std::size_t offset) {
  if (offset >= text.size() || text.find_first_not_of(" \t\r\n", offset) == std::string::npos)
    return "end of input";
  char c = text[offset];
  std::size_t end = offset + 1;
  auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'; };
  if (word(c))
    while (end < text.size() && word(text[end])) ++end;
  if (c == '\n' || c == '\r') return "end of line";
  return "'" + text.substr(offset, end - offset) + "'";
}

}  // namespace

ast::program parse(const source_file& src) {
  ast::program prog;
  iterator first = src.text.begin();
  const iterator last = src.text.end();
  const iterator start = src.text.begin();
  try {
    auto const parser = x3::with<grammar::source_start_tag>(start)[grammar::program];
    x3::phrase_parse(first, last, parser, grammar::skipper, prog.statements);
  } catch (const x3::expectation_failure<iterator>& e) {
    auto where = e.where();
    grammar::skip_blank(where, last);
    auto offset = static_cast<std::size_t>(where - start);
    // At the end of input, point just past the last token rather than at an empty line.
    if (offset == src.text.size())
      while (offset > 0 && std::isspace(static_cast<unsigned char>(src.text[offset - 1]))) --offset;
    fail_at(src, offset, "expected " + e.which() + " but found " + found_at(src.text, offset));
  }
  return prog;
}

}  // namespace ppl::lang
