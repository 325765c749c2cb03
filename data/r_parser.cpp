// R's dump format by recursive descent: the part of R that dump() (R, rjags) and OpenBUGS
// write for data and initial values — numbers, NA, TRUE and FALSE, c(), a:b, structure()
// with its dimensions, list() — and nothing that needs R to run. Each rule is the comment
// above its function; the functions R's dump writes are in one sorted table
// (data_r_functions.cpp).
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "data/r_parser.hpp"

namespace ppl::data::r_dump {

parser::parser(ppl::source_view src, std::function<void(std::size_t)> release) : src_(src), release_(std::move(release)) {
  // A byte-order mark, which editors on Windows put at the start of UTF-8 text.
  pos_ = src.text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  advance();
}

void parser::advance() {
  look_ = lex(src_, pos_);
  pos_ = look_.end;
  constexpr std::size_t every = std::size_t{16} << 20;
  if (release_ && look_.at >= released_ + every) {
    released_ = look_.at;
    release_(released_);
  }
}

token parser::peek() const { return lex(src_, pos_); }

void parser::fail(std::size_t at, std::string message) const { ppl::fail_at(src_, at, std::move(message)); }

bool parser::names_something() const {
  return look_.kind == tok::name || look_.kind == tok::string || look_.kind == tok::quoted_name;
}

std::string parser::name_of(const token& t) const {
  return t.kind == tok::name ? std::string(t.text) : unescape(t.text);
}

// file -> 'list' args | (statement | ';')*
std::vector<field> parser::file() {
  if (look_.kind == tok::name && look_.text == "list" && peek().kind == tok::open) {
    // OpenBUGS's form: R itself would read the list and drop it, so it is BUGS's file,
    // and BUGS fills .Dim's arrays row by row.
    const token list = look_;
    bugs_ = true;
    value v = parse_value();
    bugs_ = false;
    while (look_.kind == tok::semicolon) advance();
    if (look_.kind == tok::close) fail(look_.at, "this `)` closes no `(`");
    if (look_.kind != tok::end)
      fail(look_.at, "expected the end of the file after the list(...) at line " + std::to_string(ppl::locate(src_.text, list.at).line) +
                         ", found " + describe(look_) + ": a file holds one list of data or of initial values");
    std::vector<field> out;
    take_fields(v, out);
    return out;
  }
  std::vector<field> out;
  while (look_.kind != tok::end) {
    if (look_.kind == tok::semicolon) advance();
    else statement(out);
  }
  return out;
}

// statement -> target ('<-' | '=') value ; target -> NAME | STRING | QUOTED_NAME
// A list's elements are variables of their own (`data <- list(N = 3, y = ...)`).
void parser::statement(std::vector<field>& out) {
  if (look_.kind == tok::close) fail(look_.at, "this `)` closes no `(`");
  if (!names_something())
    fail(look_.at, "expected `name <- value`, found " + describe(look_) + " (R data are written as R's dump() writes them)");
  const token target = look_;
  advance();
  if (look_.kind != tok::arrow && look_.kind != tok::equals)
    fail(look_.at, "expected `<-` after " + describe(target) + ", found " + describe(look_));
  advance();
  value v = parse_value();
  if (v.what == value::kind::list) take_fields(v, out);
  else out.push_back({name_of(target), true, target.at, std::move(v)});
}

void parser::take_fields(value& list, std::vector<field>& out) const {
  for (auto& f : list.fields) {
    if (!f.named) fail(f.at, "an element of list(...) without a name: write name = value");
    out.push_back(std::move(f));
  }
}

// value -> call | scalar_or_range | STRING | 'NULL'
value parser::parse_value() {
  if (look_.kind == tok::name && peek().kind == tok::open) return call();
  if (look_.kind == tok::string) {
    value v;
    v.what = value::kind::text;
    v.at = look_.at;
    v.first_text = unescape(look_.text);
    advance();
    return v;
  }
  if (look_.kind == tok::name && look_.text == "NULL") {
    value v;
    v.what = value::kind::null;
    v.at = look_.at;
    advance();
    return v;
  }
  if (look_.kind == tok::number || look_.kind == tok::sign || look_.kind == tok::name) return scalar_or_range();
  fail(look_.at, "expected a value, found " + describe(look_));
}

// call -> NAME args
value parser::call() {
  call_site site{src_, look_, {}, generated_, bugs_};
  const function_builder build = find_function(look_.text);
  if (!build)
    fail(look_.at, "`" + ppl::printable(look_.text) + "(...)` is R code, which ppl does not run: it reads values written out. "
                   "Run it in R and write the result with dump() (dump(\"x\", file = \"data.R\")), or write the values with c(...)");
  if (++depth_ > max_depth) fail(look_.at, "values nested more than " + std::to_string(max_depth) + " deep");
  advance();
  arguments(site);
  --depth_;
  return build(site);
}

// args -> '(' [arg (',' arg)*] ')' ; arg -> [target '='] value
void parser::arguments(call_site& site) {
  const token open = look_;
  advance();
  // A c(...) of a million numbers is most of a large file: each run of numbers in it is
  // one argument, not an argument (and a value) per number.
  const bool concatenating = site.name.text == "c";
  bool in_run = false;
  while (look_.kind != tok::close) {
    if (in_run && starts_number()) {
      numbers_into(site.args.back().v);
    } else {
      argument a;
      a.at = look_.at;
      if (names_something() && peek().kind == tok::equals) {
        a.name = name_of(look_);
        a.named = true;
        advance();
        advance();
      }
      in_run = concatenating && !a.named && starts_number();
      a.v = parse_value();
      site.args.push_back(std::move(a));
    }
    if (look_.kind == tok::comma) {
      advance();
      if (look_.kind == tok::close) fail(look_.at, "expected a value after `,`, found `)`");
    } else if (look_.kind == tok::end) {
      fail(open.at, "this `(` of " + describe(site.name) + " is never closed");
    } else if (look_.kind != tok::close) {
      fail(look_.at, "expected `,` or `)` in " + describe(site.name) + "(...), found " + describe(look_));
    }
  }
  advance();
}

bool parser::starts_number() const {
  if (look_.kind == tok::number || look_.kind == tok::sign) return true;
  const std::string_view t = look_.text;
  const bool constant = t == "NA" || t == "NA_integer_" || t == "NA_real_" || t == "TRUE" || t == "FALSE";
  return look_.kind == tok::name && constant && peek().kind != tok::equals;
}

// scalar_or_range -> scalar [':' scalar]
value parser::scalar_or_range() {
  value v;
  v.at = look_.at;
  v.scalar = !numbers_into(v);
  return v;
}

bool parser::numbers_into(value& v) {
  const number from = scalar();
  if (look_.kind != tok::colon) {
    add(v, from);
    return false;
  }
  advance();
  const number to = scalar();
  if (from.missing || to.missing) fail(from.missing ? from.at : to.at, "NA cannot end a range a:b");
  // R's `:` counts from `from` in steps of one towards `to`, never past it; its values
  // are integers when `from` is one.
  const double count = std::floor(std::abs(to.x - from.x) + 1e-10) + 1;
  if (count > static_cast<double>(max_generated - generated_))
    fail(from.at, "`" + ppl::printable(std::string_view(src_.text).substr(from.at, to.end - from.at)) +
                      "` makes more values than ranges and integer(n) may make in one file (" + std::to_string(max_generated) + ")");
  generated_ += static_cast<index_t>(count);
  const double step = to.x >= from.x ? 1 : -1;
  const std::size_t first = v.x.size();
  v.x.resize(first + static_cast<std::size_t>(count));
  for (std::size_t k = 0; k < static_cast<std::size_t>(count); ++k) v.x[first + k] = from.x + step * static_cast<double>(k);
  v.integer = v.integer && from.x == std::floor(from.x);
  return true;
}

void parser::add(value& v, const number& n) {
  if (n.missing && v.first_na == std::string::npos) {
    v.first_na = n.at;
    v.first_na_index = v.x.size();
  }
  v.integer = v.integer && n.integer;
  v.x.push_back(n.x);
}

// scalar -> ['-' | '+'] (NUMBER | 'NA' | 'NA_integer_' | 'NA_real_' | 'TRUE' | 'FALSE')
parser::number parser::scalar() {
  number n;
  n.at = look_.at;
  double sign = 1;
  if (look_.kind == tok::sign) {
    sign = look_.text == "-" ? -1 : 1;
    advance();
  }
  const token t = look_;
  n.end = t.end;
  if (t.kind == tok::number) {
    n.x = sign * number_value(t, n.integer);
  } else if (t.kind == tok::name && (t.text == "NA" || t.text == "NA_integer_" || t.text == "NA_real_")) {
    n.missing = true;
    n.x = std::nan("");
  } else if (t.kind == tok::name && (t.text == "TRUE" || t.text == "FALSE")) {
    n.x = sign * (t.text == "TRUE" ? 1 : 0);
  } else if (t.kind == tok::name && (t.text == "Inf" || t.text == "NaN")) {
    fail(t.at, "`" + std::string(t.text) + "` is not a finite number; data must be finite (a missing value is NA)");
  } else if (t.kind == tok::name) {
    fail(t.at, "`" + ppl::printable(t.text) + "` is a name, not a value: ppl reads values written out, as R's dump() writes them");
  } else {
    fail(t.at, "expected a number, found " + describe(t));
  }
  advance();
  return n;
}

double parser::number_value(const token& t, bool& integer) const {
  std::string_view digits = t.text;
  const bool long_suffix = digits.ends_with('L');
  if (long_suffix) digits.remove_suffix(1);
  integer = long_suffix || digits.find_first_of(".eE") == std::string_view::npos;
  double x = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), x);
  if (r.ec == std::errc::result_out_of_range) {
    // Too large, or so small that it is 0 or subnormal: strtod tells them apart.
    x = std::strtod(std::string(digits).c_str(), nullptr);
    if (!std::isfinite(x)) fail(t.at, "`" + std::string(t.text) + "` is too large for a number (a double)");
  } else if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
    fail(t.at, "`" + std::string(t.text) + "` is not a number");
  }
  integer = integer && x == std::floor(x);
  return x;
}

}  // namespace ppl::data::r_dump
