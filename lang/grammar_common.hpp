#pragma once
// What the two grammars (grammar_def.hpp for .ppl models, bugs_grammar_def.hpp for the
// BUGS language) share: white space, comments and the byte offsets put on tagged nodes.
// Included only by the parsers' translation units.
#include <boost/spirit/home/x3.hpp>
#include <type_traits>

#include "lang/ast.hpp"

namespace ppl::lang::grammar {

namespace x3 = boost::spirit::x3;

// The start of the source, passed through the parse context so that on_success can turn
// iterators into byte offsets.
struct source_start_tag;

// White space as std::isspace has it in the C locale, without a call per byte (the
// skipper runs between every two tokens).
constexpr bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Advances past white space and comments, `#` and BUGS's `/* ... */` (the skipper's job,
// done again here because rule iterators are taken before the skipper runs).
template <typename It>
void skip_blank(It& first, It const& last) {
  while (first != last) {
    It next = first;
    if (*first == '#') {
      while (first != last && *first != '\n') ++first;
    } else if (*first == '/' && ++next != last && *next == '*') {
      for (++next; next != last; ++next) {
        It star = next;
        if (*star == '*' && ++star != last && *star == '/') {
          next = ++star;
          break;
        }
      }
      first = next;
    } else if (is_space(*first)) {
      ++first;
    } else {
      break;
    }
  }
}

// Records byte offsets on every tagged node (STYLE.md: rule tags annotate on success).
struct annotate_position {
  template <typename It, typename Ctx, typename Node>
  void on_success(It first, It const& last, Node& node, Ctx const& ctx) {
    if constexpr (std::is_base_of_v<ast::tagged, Node>) {
      It const& start = x3::get<source_start_tag>(ctx);
      skip_blank(first, last);
      node.pos = static_cast<std::size_t>(first - start);
      node.end = static_cast<std::size_t>(last - start);
    }
  }
};

// Every rule has a name, and every parser after an expectation point (`>`) is a rule or
// a literal: an expectation failure reports the name, which is all a user reads of the
// grammar ("expected a size (`real[N]`) but found ']'").
#define PPL_RULE(name, attr, what)                                   \
  struct name##_class : ::ppl::lang::grammar::annotate_position {};  \
  ::boost::spirit::x3::rule<name##_class, attr> const name = what;

// Numbers as written: digits, a point, an exponent. Spirit's policies also read `nan` and
// `inf`, and a parenthesised payload after `nan` that swallowed a comment (`nan(#)`) and
// led past it; here those are names.
struct number_policies : x3::strict_real_policies<double> {
  template <typename It, typename Attribute>
  static bool parse_nan(It&, It const&, Attribute&) { return false; }
  template <typename It, typename Attribute>
  static bool parse_inf(It&, It const&, Attribute&) { return false; }
};

// A precedence level `operand {op operand}` is its first operand alone when no operator
// follows, and a chain otherwise: most expressions are a lone name or number, which would
// otherwise sit at the bottom of eight nested chains, each a node on the heap.
struct fold_chain {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto& first = boost::fusion::at_c<0>(x3::_attr(ctx));
    auto& rest = boost::fusion::at_c<1>(x3::_attr(ctx));
    if (rest.empty()) x3::_val(ctx) = std::move(first);
    else x3::_val(ctx) = ast::chain{std::move(first), std::move(rest)};
  }
};
// The same for a primary and its indices and transposes.
struct fold_postfix {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto& base = boost::fusion::at_c<0>(x3::_attr(ctx));
    auto& tail = boost::fusion::at_c<1>(x3::_attr(ctx));
    if (tail.empty()) x3::_val(ctx) = std::move(base);
    else x3::_val(ctx) = ast::postfix{std::move(base), std::move(tail)};
  }
};

}  // namespace ppl::lang::grammar
