// The tokens of R's dump format: R's own rules for names, numbers and strings, on ASCII
// (R allows letters of the locale in names; data files that ppl reads are text in any
// locale, so a byte above 0x7f is accepted only inside quotes and comments).
#include "data/r_lexer.hpp"

namespace ppl::data::r_dump {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// A character that continues an R name (or would glue itself to a number: `12abc`).
bool in_name(char c) { return is_letter(c) || is_digit(c) || c == '.' || c == '_'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::size_t skip_blanks(std::string_view t, std::size_t i) {
  while (i < t.size()) {
    if (t[i] == '#') {
      i = t.find('\n', i);
      if (i == std::string_view::npos) return t.size();
    } else if (is_blank(t[i])) {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

std::size_t digits(std::string_view t, std::size_t i) {
  while (i < t.size() && is_digit(t[i])) ++i;
  return i;
}

// number -> digits ['.' digits] [('e' | 'E') ['+' | '-'] digits] ['L'] | '.' digits ...
token number(ppl::source_view src, std::size_t at) {
  const std::string_view t = src.text;
  std::size_t i = digits(t, at);
  if (i < t.size() && t[i] == '.') i = digits(t, i + 1);
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    std::size_t e = i + 1;
    if (e < t.size() && (t[e] == '+' || t[e] == '-')) ++e;
    if (e == t.size() || !is_digit(t[e])) ppl::fail_at(src, at, "a number's exponent needs digits (1e5, 2.5e-3)");
    i = digits(t, e);
  }
  if (i < t.size() && t[i] == 'L') ++i;
  if (i < t.size() && in_name(t[i])) {
    std::size_t end = i;
    while (end < t.size() && in_name(t[end])) ++end;
    ppl::fail_at(src, at, "`" + ppl::printable(t.substr(at, end - at)) + "` is not a number");
  }
  return {tok::number, at, i, t.substr(at, i - at)};
}

// string -> '"' (any byte but '"' | '\' any byte)* '"', the same with ' or ` (a name).
token quoted(ppl::source_view src, std::size_t at, tok kind) {
  const std::string_view t = src.text;
  const char quote = t[at];
  std::size_t i = at + 1;
  while (i < t.size() && t[i] != quote) i += t[i] == '\\' ? 2 : 1;
  if (i >= t.size()) ppl::fail_at(src, at, std::string("this ") + (quote == '`' ? "backquote" : "quote") + " is never closed");
  return {kind, at, i + 1, t.substr(at + 1, i - at - 1)};
}

token punctuation(ppl::source_view src, std::size_t at) {
  const std::string_view t = src.text;
  const char c = t[at];
  const char next = at + 1 < t.size() ? t[at + 1] : '\0';
  auto one = [&](tok kind) { return token{kind, at, at + 1, t.substr(at, 1)}; };
  switch (c) {
    case '(': return one(tok::open);
    case ')': return one(tok::close);
    case ',': return one(tok::comma);
    case ':': return one(tok::colon);
    case ';': return one(tok::semicolon);
    case '+':
    case '-':
      if (c == '-' && next == '>') ppl::fail_at(src, at, "`->` is not read: write `name <- value`, as R's dump() does");
      return one(tok::sign);
    case '=':
      if (next != '=') return one(tok::equals);
      break;
    case '<':
      if (next == '-') return {tok::arrow, at, at + 2, t.substr(at, 2)};
      break;
    default: break;
  }
  ppl::fail_at(src, at, "unexpected `" + ppl::printable(t.substr(at, 1)) + "`: R data hold names, numbers, quotes, ( ) , = <- : + -");
}

}  // namespace

token lex(ppl::source_view src, std::size_t from) {
  const std::string_view t = src.text;
  const std::size_t at = skip_blanks(t, from);
  if (at == t.size()) return {tok::end, at, at, {}};
  const char c = t[at];
  const bool dot_number = c == '.' && at + 1 < t.size() && is_digit(t[at + 1]);
  if (is_digit(c) || dot_number) return number(src, at);
  if (is_letter(c) || c == '.') {
    std::size_t end = at;
    while (end < t.size() && in_name(t[end])) ++end;
    return {tok::name, at, end, t.substr(at, end - at)};
  }
  if (c == '"' || c == '\'') return quoted(src, at, tok::string);
  if (c == '`') return quoted(src, at, tok::quoted_name);
  return punctuation(src, at);
}

std::string describe(const token& t) {
  std::string_view shown = t.text.substr(0, 40);
  const char* more = t.text.size() > 40 ? "..." : "";
  switch (t.kind) {
    case tok::end: return "the end of the file";
    case tok::string: return "\"" + ppl::printable(shown) + more + "\"";
    default: return "`" + ppl::printable(shown) + more + "`";
  }
}

std::string unescape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
  }
  return out;
}

bool looks_like_r(std::string_view text) {
  std::size_t i = skip_blanks(text, text.starts_with("\xEF\xBB\xBF") ? 3 : 0);
  if (i == text.size()) return false;
  std::size_t end = i + 1;
  if (text[i] == '"' || text[i] == '\'' || text[i] == '`') {
    end = text.find(text[i], i + 1);
    if (end == std::string_view::npos) return false;
    ++end;
  } else if (is_letter(text[i]) || text[i] == '.') {
    while (end < text.size() && in_name(text[end])) ++end;
  } else {
    return false;
  }
  const std::string_view name = text.substr(i, end - i), rest = text.substr(skip_blanks(text, end));
  return rest.starts_with("<-") || (name == "list" && rest.starts_with("("));
}

}  // namespace ppl::data::r_dump
