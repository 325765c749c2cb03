// The one translation unit that instantiates the BUGS grammar (STYLE.md: one grammar per
// translation unit keeps build times down).
#include "lang/bugs_parser.hpp"

#include <cctype>

#include "lang/bugs_grammar_def.hpp"
#include "lang/parser.hpp"

namespace ppl::lang {

namespace {

namespace x3 = boost::spirit::x3;
using iterator = std::string::const_iterator;

// A `/*` comment that is never closed: the grammar would stop at its `/` with a message
// about what it expected there instead.
void refuse_open_comment(const source_file& src, const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '#') {
      i = std::min(text.find('\n', i), text.size());
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t close = text.find("*/", i + 2);
      if (close == std::string::npos) fail_at(src, i, "this comment is never closed: a `/*` comment ends at `*/`");
      i = close + 1;
    }
  }
}

}  // namespace

bugs::program parse_bugs(const source_file& src) {
  bugs::program prog;
  const std::string text = checked_text(src, false);  // the grammar counts its nesting itself
  refuse_open_comment(src, text);
  iterator first = text.begin();
  const iterator last = text.end();
  const iterator start = text.begin();
  int loop_depth = 0, expression_depth = 0;
  try {
    auto const parser = x3::with<grammar::source_start_tag>(start)[x3::with<bugs_grammar::loop_depth_tag>(loop_depth)[
        x3::with<bugs_grammar::expression_depth_tag>(expression_depth)[bugs_grammar::program]]];
    x3::phrase_parse(first, last, parser, bugs_grammar::skipper, prog.blocks);
  } catch (const x3::expectation_failure<iterator>& e) {
    fail_syntax(src, static_cast<std::size_t>(e.where() - start), e.which(), false);
  } catch (const bugs_grammar::too_deep<iterator>& e) {
    fail_at(src, static_cast<std::size_t>(e.where - start), e.what);
  }
  return prog;
}

bool looks_like_bugs(std::string_view path, std::string_view text) {
  if (path.ends_with(".bug") || path.ends_with(".bugs") || path.ends_with(".jags")) return true;
  if (!path.ends_with(".txt")) return false;
  auto it = text.begin();
  grammar::skip_blank(it, text.end());
  std::string_view rest = text.substr(static_cast<std::size_t>(it - text.begin()));
  for (std::string_view word : {"model", "data", "var"}) {
    if (!rest.starts_with(word)) continue;
    std::string_view after = rest.substr(word.size());
    auto next = after.begin();
    grammar::skip_blank(next, after.end());
    if (next == after.end()) return false;
    if (*next == '{') return true;
    if (word == "var" && next != after.begin() && std::isalpha(static_cast<unsigned char>(*next))) return true;
  }
  return false;
}

}  // namespace ppl::lang
