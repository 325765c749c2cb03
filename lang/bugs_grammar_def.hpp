#pragma once
// The grammar of the BUGS language, as OpenBUGS and JAGS read it (Boost.Spirit X3).
// Included only by lang/bugs_parser.cpp, the one translation unit that instantiates it.
// Each rule is preceded by its production, written as in grammar_def.hpp (the counts of
// nesting below, expression_level and loop_level, change no production). Names may hold
// dots (`alpha.c`); operators are JAGS's, with its precedence: `||`, `&&`, `!`,
// comparisons, `+ -`, `* /`, `%*%` (and any `%name%`), unary minus, `^`.
#include <boost/spirit/home/x3.hpp>

#include "lang/ast.hpp"
#include "lang/ast_adapted.hpp"
#include "lang/bugs_ast.hpp"
#include "lang/grammar_common.hpp"

BOOST_FUSION_ADAPT_STRUCT(ppl::lang::bugs::linked, link, lhs, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::bugs::for_loop, var, lo, hi, body)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::bugs::block, which, body)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::bugs::program, blocks)

namespace ppl::lang::bugs_grammar {

namespace x3 = boost::spirit::x3;
using grammar::annotate_position;
using grammar::fold_chain;
using grammar::fold_postfix;
using x3::alnum;
using x3::alpha;
using x3::char_;
using x3::lexeme;
using x3::lit;

PPL_RULE(identifier, ast::identifier, "a name")
PPL_RULE(name, std::string, "a name")
PPL_RULE(int_literal, ast::int_literal, "an integer")
PPL_RULE(real_literal, ast::real_literal, "a number")
PPL_RULE(expression, ast::operand, "an expression")
PPL_RULE(and_expr, ast::operand, "an expression")
PPL_RULE(not_expr, ast::operand, "an expression")
PPL_RULE(not_op, ast::unary, "an expression")
PPL_RULE(relational_expr, ast::operand, "an expression")
PPL_RULE(additive_expr, ast::operand, "an expression")
PPL_RULE(multiplicative_expr, ast::operand, "an expression")
PPL_RULE(special_expr, ast::operand, "an expression")
PPL_RULE(unary_expr, ast::operand, "an expression")
PPL_RULE(unary_op, ast::unary, "an expression")
PPL_RULE(power_expr, ast::operand, "an expression")
PPL_RULE(postfix_expr, ast::operand, "an expression")
PPL_RULE(suffixes, std::vector<ast::suffix>, "an index")
PPL_RULE(primary, ast::operand, "an expression")
PPL_RULE(call, ast::call, "a function call")
PPL_RULE(call_arguments, std::vector<ast::operand>, "an expression")
PPL_RULE(index_item, ast::index_item, "an index")
PPL_RULE(range_tail, ast::range_tail, "a range")
PPL_RULE(index_list, ast::index_list, "an index list")
PPL_RULE(index_items, std::vector<ast::index_item>, "an index")
PPL_RULE(or_operation, ast::operation, "an expression")
PPL_RULE(and_operation, ast::operation, "an expression")
PPL_RULE(relational_operation, ast::operation, "an expression")
PPL_RULE(additive_operation, ast::operation, "an expression")
PPL_RULE(multiplicative_operation, ast::operation, "an expression")
PPL_RULE(special_operation, ast::operation, "an expression")
PPL_RULE(special_operator, std::string, "an operator (`%*%`)")
PPL_RULE(power_operation, ast::operation, "an expression")
PPL_RULE(target, ast::target, "a node (`x[i]`)")
PPL_RULE(target_indices, std::vector<ast::index_item>, "an index (`x[i]`)")
PPL_RULE(distribution, ast::call, "a distribution (`dnorm(0, 1)`)")
PPL_RULE(restriction, ast::restriction, "a censoring or truncation (`T(0, )`, `I(, 10)`)")
PPL_RULE(stochastic, bugs::stochastic, "a relation")
PPL_RULE(logical, bugs::logical, "a relation")
PPL_RULE(linked, bugs::linked, "a relation")
PPL_RULE(link_name, ast::identifier, "a link function")
PPL_RULE(for_loop, bugs::for_loop, "a for loop")
PPL_RULE(loop_variable, ast::identifier, "a loop variable (`for (i in 1:N)`)")
PPL_RULE(statement, bugs::statement, "a relation (`y ~ dnorm(mu, tau)`, `mu <- a + b`) or a for loop")
PPL_RULE(statements, std::vector<bugs::statement>, "a relation or a for loop")
PPL_RULE(block, bugs::block, "a block")
PPL_RULE(var_block, bugs::block, "a var block")
PPL_RULE(var_item, ast::target, "a variable (`var x[N]`)")
PPL_RULE(block_name, std::string, "'model', 'data' or 'var'")
PPL_RULE(program, std::vector<bugs::block>, "a program")

struct arrow_class {};
x3::rule<arrow_class> const arrow = "'<-' or '~'";
struct in_keyword_class {};
x3::rule<in_keyword_class> const in_keyword = "'in'";
struct end_class {};
x3::rule<end_class> const end_of_program = "'model {', 'data {' or 'var' (a block)";

auto const name_char = alnum | char_('_') | char_('.');
auto const word_end = !name_char;
auto keyword(char const* w) { return lexeme[lit(w) >> word_end]; }
auto const reserved = keyword("for") | keyword("in");

// Recursion that check_nesting (lang/parser.cpp) cannot bound. A for loop's body need not
// be in braces, so `for (i in 1:2) for (j in 1:2) ...` nests with no bracket to count;
// and check_nesting bounds brackets, runs of prefix operators and powers each on its own,
// while `f(- - - f(- - - ...` stacks them (fuzz/bugs/crash-prefix-runs-in-calls: 170
// calls, each with a run of minus signs, exhausted the stack). The grammar counts what it
// is inside instead, loops in one count and expressions (brackets, calls, indices, prefix
// operators and powers together) in another: deeper than max_nesting is refused where the
// next level would begin, before it can exhaust the stack.
constexpr int max_nesting = 256;
struct loop_depth_tag;        // an int& in the parse context
struct expression_depth_tag;  // likewise
template <typename It>
struct too_deep {
  It where;          // where the level that is one too many begins
  const char* what;  // the message
};

template <typename Tag, typename Start, typename Subject>
struct nesting_directive : x3::unary_parser<Subject, nesting_directive<Tag, Start, Subject>> {
  using base_type = x3::unary_parser<Subject, nesting_directive<Tag, Start, Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr nesting_directive(Start const& start, const char* what, Subject const& subject)
      : base_type(subject), start(start), what(what) {}

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, Attr& attr) const {
    int& depth = x3::get<Tag>(ctx);
    if (depth >= max_nesting) {  // refused if the subject would begin here, without trying it
      It at = first;
      x3::skip_over(at, last, ctx);
      It after = at;
      if (start.parse(after, last, ctx, rctx, x3::unused)) throw too_deep<It>{at, what};
      return false;
    }
    struct leave {
      int& depth;
      ~leave() { --depth; }
    } const guard{++depth};
    return this->subject.parse(first, last, ctx, rctx, attr);
  }

  Start start;  // the first tokens of the subject
  const char* what;
};
template <typename Tag, typename Start>
struct nesting_gen {
  template <typename Subject>
  constexpr nesting_directive<Tag, Start, typename x3::extension::as_parser<Subject>::value_type> operator[](Subject const& subject) const {
    return {start, what, x3::as_parser(subject)};
  }
  Start start;
  const char* what;
};
template <typename Start>
constexpr nesting_gen<loop_depth_tag, Start> loop_level(Start const& start) {
  return {start, "for loops nested more than 256 deep; write the model in steps"};
}
template <typename Start>
constexpr nesting_gen<expression_depth_tag, typename x3::extension::as_parser<Start>::value_type> expression_level(Start const& start) {
  return {x3::as_parser(start), "the expression is nested more than 256 levels deep (brackets, calls, indices, prefix operators "
                                "and powers together); write it in steps"};
}

// identifier -> name   (not 'for' or 'in')
auto const identifier_def = !reserved >> name;
// name -> letter {letter | digit | '_' | '.'}
auto const name_def = lexeme[alpha >> *name_char];
// Numbers: an integer has no point and no exponent (`1.0E-6` and `1E3` are reals). Spirit's
// own policies take any of them, and nan and inf, which here are names.
struct number_policies : x3::real_policies<double> {
  template <typename It, typename Attribute>
  static bool parse_nan(It&, It const&, Attribute&) { return false; }
  template <typename It, typename Attribute>
  static bool parse_inf(It&, It const&, Attribute&) { return false; }
};
// int_literal -> digit {digit}   (not followed by a letter, digit, '_' or '.')
auto const int_literal_def = lexeme[x3::ulong_long >> !(name_char | char_('e') | char_('E'))];
// real_literal -> digits ['.' [digits]] [exponent] | '.' digits [exponent]   (exponent -> ('e' | 'E') ['+' | '-'] digits)
auto const real_literal_def = lexeme[x3::real_parser<double, number_policies>{} >> word_end];

// expression -> and_expr {or_operation}
auto const expression_def = (and_expr >> *or_operation)[fold_chain{}];
// or_operation -> '||' and_expr
auto const or_operation_def = x3::string("||") > and_expr;
// and_expr -> not_expr {and_operation}
auto const and_expr_def = (not_expr >> *and_operation)[fold_chain{}];
// and_operation -> '&&' not_expr
auto const and_operation_def = x3::string("&&") > not_expr;
// not_expr -> not_op | relational_expr
auto const not_expr_def = expression_level(lit('!') >> !lit('='))[not_op] | relational_expr;
// not_op -> '!' not_expr   ('!' not before '=')
auto const not_op_def = (char_('!') >> !lit('=')) > not_expr;
// relational_expr -> additive_expr [relational_operation]   (comparisons do not chain)
auto const relational_expr_def = (additive_expr >> x3::repeat(0, 1)[relational_operation])[fold_chain{}];
// relational_operation -> ('==' | '!=' | '<=' | '>=' | '<' | '>') additive_expr   ('<' not before '-': `<-` is an arrow)
auto const relational_operation_def = (x3::string("==") | x3::string("!=") | x3::string("<=") | x3::string(">=") |
                                       lexeme[x3::string("<") >> !lit('-')] | x3::string(">")) > additive_expr;
// additive_expr -> multiplicative_expr {additive_operation}
auto const additive_expr_def = (multiplicative_expr >> *additive_operation)[fold_chain{}];
// additive_operation -> ('+' | '-') multiplicative_expr
auto const additive_operation_def = (x3::string("+") | x3::string("-")) > multiplicative_expr;
// multiplicative_expr -> special_expr {multiplicative_operation}
auto const multiplicative_expr_def = (special_expr >> *multiplicative_operation)[fold_chain{}];
// multiplicative_operation -> ('*' | '/') special_expr
auto const multiplicative_operation_def = (x3::string("*") | x3::string("/")) > special_expr;
// special_expr -> unary_expr {special_operation}
auto const special_expr_def = (unary_expr >> *special_operation)[fold_chain{}];
// special_operation -> special_operator unary_expr
auto const special_operation_def = special_operator > unary_expr;
// special_operator -> '%' {a character but '%', ' ', '\t', '\r' or '\n'} '%'   (`%*%`)
auto const special_operator_def = lexeme[char_('%') >> *(char_ - char_("% \t\r\n")) >> char_('%')];
// unary_expr -> unary_op | power_expr
auto const unary_expr_def = expression_level(char_("-+"))[unary_op] | power_expr;
// unary_op -> ('-' | '+') unary_expr
auto const unary_op_def = (char_('-') | char_('+')) > unary_expr;
// power_expr -> postfix_expr {power_operation}   (right-associative: the unary_expr after '^' takes any '^' that follows)
auto const power_expr_def = (postfix_expr >> *expression_level(lit('^'))[power_operation])[fold_chain{}];
// power_operation -> '^' unary_expr
auto const power_operation_def = x3::string("^") > unary_expr;
// postfix_expr -> primary suffixes
auto const postfix_expr_def = (primary >> suffixes)[fold_postfix{}];
// suffixes -> {index_list}
auto const suffixes_def = *expression_level(lit('['))[index_list];
// primary -> int_literal | real_literal | call | identifier | '(' expression ')'
auto const primary_def = int_literal | real_literal | expression_level(identifier >> '(')[call] | identifier |
                         expression_level(lit('('))['(' > expression > ')'];
// call -> identifier '(' [call_arguments] ')'
auto const call_def = identifier >> '(' >> -call_arguments > ')';
// call_arguments -> expression {',' expression}
auto const call_arguments_def = expression % ',';
// index_list -> '[' index_items ']'
auto const index_list_def = char_('[') > index_items > ']';
// index_items -> index_item {',' index_item}
auto const index_items_def = index_item % ',';
// index_item -> [expression] [range_tail]
auto const index_item_def = -expression >> -range_tail;
// range_tail -> ':' [expression]
auto const range_tail_def = char_(':') >> -expression;

// target -> identifier ['[' target_indices ']']
auto const target_def = identifier >> -('[' > target_indices > ']');
// target_indices -> index_item {',' index_item}
auto const target_indices_def = index_item % ',';
// distribution -> identifier '(' [call_arguments] ')'
auto const distribution_def = identifier > '(' > -call_arguments > ')';
// restriction -> ('T' | 'I' | 'C') '(' [expression] ',' [expression] ')'
auto const restriction_def = lexeme[(x3::string("T") | x3::string("I") | x3::string("C")) >> word_end] >> '(' >>
                             -expression >> ',' > -expression > ')';
// stochastic -> target '~' distribution [restriction]
auto const stochastic_def = target >> '~' > distribution > -restriction;
// logical -> target ('<-' | '=') expression   ('=' not before '=')
auto const logical_def = target >> (lit("<-") | (lit('=') >> !lit('='))) > expression;
// link_name -> 'logit' | 'log' | 'cloglog' | 'probit'
auto const link_name_def = lexeme[(x3::string("logit") | x3::string("log") | x3::string("cloglog") | x3::string("probit")) >> word_end];
// linked -> link_name '(' target ')' ('<-' | '=') expression
auto const linked_def = link_name >> '(' >> target >> ')' >> (lit("<-") | (lit('=') >> !lit('='))) > expression;
// in_keyword -> 'in'
auto const in_keyword_def = keyword("in");
// loop_variable -> identifier
auto const loop_variable_def = identifier;
// for_loop -> 'for' '(' loop_variable 'in' additive_expr ':' additive_expr ')' ('{' statements '}' | statement)
auto const for_loop_def = keyword("for") > '(' > loop_variable > in_keyword > additive_expr > ':' > additive_expr > ')' >
                          (('{' > statements > '}') | x3::repeat(1)[statement]);
// arrow -> '<-' | '~' | '='
auto const arrow_def = lit("<-") | lit('~') | lit('=');
// statement -> for_loop | linked | stochastic | logical   (a target then no arrow: expected '<-' or '~')
auto const statement_def = loop_level(keyword("for"))[for_loop] | linked | stochastic | logical | (x3::omit[target] > arrow);
// statements -> {statement {';'}}
auto const statements_def = *(statement >> *lit(';'));
// block_name -> 'model' | 'data'
auto const block_name_def = lexeme[(x3::string("model") | x3::string("data")) >> word_end];
// block -> block_name '{' statements '}'
auto const block_def = block_name > '{' > statements > '}';
// var_item -> target
auto const var_item_def = target;
// var_block -> 'var' var_item {',' var_item} {';'}   (declarations ppl does not need: an empty block)
auto const var_block_def = lexeme[x3::string("var") >> word_end] > x3::omit[var_item % ','] > x3::attr(std::vector<bugs::statement>{}) >> *lit(';');
// end_of_program -> the end of the text
auto const end_of_program_def = x3::eoi;
// program -> {var_block | block} end_of_program
auto const program_def = *(var_block | block) > end_of_program;

BOOST_SPIRIT_DEFINE(identifier, name, int_literal, real_literal, expression, and_expr, not_expr, not_op, relational_expr,
                    additive_expr, multiplicative_expr, special_expr, unary_expr, unary_op, power_expr, postfix_expr,
                    suffixes, primary, call, call_arguments, index_item, range_tail, index_list, index_items,
                    or_operation, and_operation, relational_operation, additive_operation, multiplicative_operation,
                    special_operation, special_operator, power_operation, target, target_indices, distribution,
                    restriction, stochastic, logical, linked, link_name, for_loop, loop_variable, statement, statements,
                    block, var_block, var_item, block_name, program, arrow, in_keyword, end_of_program)

// The skipper: white space, `#` comments to the end of the line, as in .ppl files, and
// JAGS's `/* ... */` comments (not nested, as in C).
auto const skipper = char_(" \t\n\v\f\r") | lexeme['#' >> *(char_ - '\n')] | lexeme["/*" >> *(char_ - "*/") >> "*/"];

}  // namespace ppl::lang::bugs_grammar
