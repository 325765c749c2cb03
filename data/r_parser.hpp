#pragma once
// The parser of R's dump format (data_r_parser.cpp) and the functions it knows
// (data_r_functions.cpp). Private to those and data_r.cpp.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "data/r_dump.hpp"
#include "data/r_lexer.hpp"

namespace ppl::data::r_dump {

struct argument {
  std::string name;  // empty unless named
  bool named = false;
  std::size_t at = 0;  // offset of the argument (its name, if named)
  value v;
};

// A call of one of the functions the format uses, its arguments parsed.
struct call_site {
  ppl::source_view src;
  token name;
  std::vector<argument> args;
  index_t& generated;     // values made so far by ranges and integer(n), against max_generated
  bool bugs = false;      // inside OpenBUGS's bare list(...), where .Dim is row by row
};

using function_builder = value (*)(call_site&);

// The builder of c, structure, list, integer, ..., or nullptr for any other name.
function_builder find_function(std::string_view name);

class parser {
 public:
  // `release(offset)`, if given, is called as the parse passes each 16 MB of the text with
  // the offset before which it reads no more (a mapped file's pages go back); messages
  // may read the text there again.
  explicit parser(ppl::source_view src, std::function<void(std::size_t)> release = {});
  std::vector<field> file();

 private:
  struct number {
    double x = 0;
    bool integer = true;
    bool missing = false;
    std::size_t at = 0, end = 0;
  };
  // c(c(c(...))) and list(list(...)) recurse; this bounds the stack a file can take.
  static constexpr int max_depth = 100;

  void advance();
  token peek() const;
  [[noreturn]] void fail(std::size_t at, std::string message) const;
  bool names_something() const;
  std::string name_of(const token& t) const;
  void statement(std::vector<field>& out);
  // A list's elements as variables, each of which must have a name.
  void take_fields(value& list, std::vector<field>& out) const;
  value parse_value();
  value call();
  void arguments(call_site& site);
  bool starts_number() const;
  value scalar_or_range();
  // Appends the scalar or range a:b at the current token to v; whether it was a range.
  bool numbers_into(value& v);
  number scalar();
  double number_value(const token& t, bool& integer) const;
  static void add(value& v, const number& n);

  ppl::source_view src_;
  std::function<void(std::size_t)> release_;
  std::size_t released_ = 0;  // the offset last given to release_
  token look_;            // the current token
  std::size_t pos_ = 0;   // where the token after it starts
  int depth_ = 0;
  bool bugs_ = false;
  index_t generated_ = 0;
};

}  // namespace ppl::data::r_dump
