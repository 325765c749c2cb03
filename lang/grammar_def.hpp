#pragma once
// The grammar of .ppl models (Boost.Spirit X3). Included only by lang/parser.cpp, the one
// translation unit that instantiates it. Each rule is preceded by its production, as in
// Lua's lparser.c: `a | b` either, `[a]` optional, `{a}` any number of times (none too),
// quoted tokens as written.
#include <boost/spirit/home/x3.hpp>
#include <type_traits>

#include "lang/ast.hpp"
#include "lang/ast_adapted.hpp"
#include "lang/grammar_common.hpp"
#include "lang/syntax_error.hpp"

namespace ppl::lang::grammar {

namespace x3 = boost::spirit::x3;
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
PPL_RULE(conditional_tail, ast::conditional_tail, "an expression")
PPL_RULE(or_expr, ast::operand, "an expression")
PPL_RULE(and_expr, ast::operand, "an expression")
PPL_RULE(equality_expr, ast::operand, "an expression")
PPL_RULE(relational_expr, ast::operand, "an expression")
PPL_RULE(additive_expr, ast::operand, "an expression")
PPL_RULE(multiplicative_expr, ast::operand, "an expression")
PPL_RULE(unary_expr, ast::operand, "an expression")
PPL_RULE(unary_op, ast::unary, "an expression")
PPL_RULE(power_expr, ast::operand, "an expression")
PPL_RULE(postfix_expr, ast::operand, "an expression")
PPL_RULE(suffixes, std::vector<ast::suffix>, "an index or '")
PPL_RULE(primary, ast::operand, "an expression")
PPL_RULE(call, ast::call, "a function call")
PPL_RULE(expression_list, std::vector<ast::operand>, "an expression")
PPL_RULE(call_arguments, std::vector<ast::operand>, "an expression")
PPL_RULE(first_argument, ast::operand, "an expression")
PPL_RULE(given_tail, ast::given_tail, "an expression")
PPL_RULE(vector_literal, ast::vector_literal, "a vector")
PPL_RULE(index_item, ast::index_item, "an index")
PPL_RULE(range_tail, ast::range_tail, "a range")
PPL_RULE(index_list, ast::index_list, "an index list")
PPL_RULE(index_items, std::vector<ast::index_item>, "an index")
PPL_RULE(transpose_mark, ast::transpose_mark, "'")
PPL_RULE(bound, ast::bound, "'lower' or 'upper'")
PPL_RULE(bounds, std::vector<ast::bound>, "a bound, 'lower' or 'upper' (`real<lower=0>`)")
PPL_RULE(dimensions, std::vector<ast::operand>, "a size (`real[N]`)")
PPL_RULE(type_spec, ast::type_spec, "a type ('int' or 'real')")
PPL_RULE(param_type_spec, ast::type_spec, "a type ('int', 'real', 'ordered' or 'positive_ordered')")
PPL_RULE(data_decl, ast::data_decl, "a data declaration")
PPL_RULE(data_name, ast::identifier, expected::data_name)
PPL_RULE(param_decl, ast::param_decl, "a param declaration")
PPL_RULE(param_name, ast::identifier, "a name for the unknown (`param beta: real[K]`)")
PPL_RULE(target, ast::target, "a variable")
PPL_RULE(target_indices, std::vector<ast::index_item>, "an index (`x[i]`)")
PPL_RULE(distribution, ast::call, "a distribution (`Normal(0, 1)`)")
PPL_RULE(restriction, ast::restriction, "a censoring or truncation (`C[0, ]`, `T[, 10]`)")
PPL_RULE(sample_stmt, ast::sample_stmt, "a statement")
PPL_RULE(assign_stmt, ast::assign_stmt, "a statement")
PPL_RULE(factor_stmt, ast::factor_stmt, "a statement")
PPL_RULE(function_def, ast::function_def, "a function definition (`function f(x, y) = x * y`)")
PPL_RULE(print_stmt, ast::print_stmt, "a statement")
PPL_RULE(function_params, std::vector<ast::identifier>, "the function's parameters, names in parentheses (`(x, y)`)")
PPL_RULE(loop_range, ast::loop_range, "a loop range (`i in 1:N`)")
PPL_RULE(loop_ranges, std::vector<ast::loop_range>, expected::loop_variable)
PPL_RULE(for_stmt, ast::for_stmt, "a for loop")
PPL_RULE(if_stmt, ast::if_stmt, "an if statement")
PPL_RULE(condition, ast::operand, "a condition in parentheses (`if (x > 0)`)")
PPL_RULE(body, std::vector<ast::statement>, "a statement or '{'")
PPL_RULE(statement, ast::statement, expected::statement)
PPL_RULE(program, std::vector<ast::statement>, "a program")
// Each precedence level is `operand {op operand}`; an `op operand` pair is a rule of its
// own so that its attribute is an ast::operation, not a flattened sequence.
PPL_RULE(or_operation, ast::operation, "an expression")
PPL_RULE(and_operation, ast::operation, "an expression")
PPL_RULE(equality_operation, ast::operation, "an expression")
PPL_RULE(relational_operation, ast::operation, "an expression")
PPL_RULE(additive_operation, ast::operation, "an expression")
PPL_RULE(multiplicative_operation, ast::operation, "an expression")
PPL_RULE(power_operation, ast::operation, "an expression")

struct tilde_or_equals_class {};
x3::rule<tilde_or_equals_class> const tilde_or_equals = expected::tilde_or_equals;
struct in_keyword_class {};
x3::rule<in_keyword_class> const in_keyword = "'in'";
struct end_class {};
x3::rule<end_class> const end_of_program = expected::statement;

auto const word_end = !(alnum | '_');
auto keyword(char const* w) { return lexeme[lit(w) >> word_end]; }
auto const reserved = keyword("data") | keyword("for") | keyword("in") | keyword("factor") |
                      keyword("int") | keyword("real") | keyword("if") | keyword("else") | keyword("param") |
                      keyword("function") | keyword("print");

// identifier -> name   (not a keyword: data, for, in, factor, int, real, if, else, param, function, print)
auto const identifier_def = !reserved >> name;
// name -> (letter | '_') {letter | digit | '_'}
auto const name_def = lexeme[(alpha | char_('_')) >> *(alnum | char_('_'))];
// int_literal -> digit {digit}   (not followed by a letter, digit or '_')
auto const int_literal_def = lexeme[x3::ulong_long >> word_end];
// real_literal -> digits '.' [digits] [exponent] | '.' digits [exponent] | digits exponent   (exponent -> ('e' | 'E') ['+' | '-'] digits)
auto const real_literal_def = lexeme[x3::real_parser<double, number_policies>{} >> word_end];

// The same for a conditional: `c ? a : b`, or c alone when no `?` follows.
struct fold_conditional {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto& cond = boost::fusion::at_c<0>(x3::_attr(ctx));
    auto& tail = boost::fusion::at_c<1>(x3::_attr(ctx));
    if (!tail) x3::_val(ctx) = std::move(cond);
    else x3::_val(ctx) = ast::conditional{std::move(cond), std::move(*tail)};
  }
};

// The same for the first argument of a call: `y | mu` in normal_lpdf(y | mu, sigma).
struct fold_conditioned {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto& value = boost::fusion::at_c<0>(x3::_attr(ctx));
    auto& tail = boost::fusion::at_c<1>(x3::_attr(ctx));
    if (!tail) x3::_val(ctx) = std::move(value);
    else x3::_val(ctx) = ast::conditioned{std::move(value), std::move(*tail)};
  }
};

// expression -> or_expr [conditional_tail]
auto const expression_def = (or_expr >> -conditional_tail)[fold_conditional{}];
// conditional_tail -> '?' expression ':' expression   (right-associative)
auto const conditional_tail_def = lit('?') > expression > ':' > expression;
// or_expr -> and_expr {or_operation}
auto const or_expr_def = (and_expr >> *or_operation)[fold_chain{}];
// or_operation -> '||' and_expr
auto const or_operation_def = x3::string("||") > and_expr;
// and_expr -> equality_expr {and_operation}
auto const and_expr_def = (equality_expr >> *and_operation)[fold_chain{}];
// and_operation -> '&&' equality_expr
auto const and_operation_def = x3::string("&&") > equality_expr;
// equality_expr -> relational_expr {equality_operation}
auto const equality_expr_def = (relational_expr >> *equality_operation)[fold_chain{}];
// equality_operation -> ('==' | '!=') relational_expr
auto const equality_operation_def = (x3::string("==") | x3::string("!=")) > relational_expr;
// relational_expr -> additive_expr {relational_operation}
auto const relational_expr_def = (additive_expr >> *relational_operation)[fold_chain{}];
// relational_operation -> ('<=' | '>=' | '<' | '>') additive_expr
auto const relational_operation_def =
    (x3::string("<=") | x3::string(">=") | x3::string("<") | x3::string(">")) > additive_expr;
// additive_expr -> multiplicative_expr {additive_operation}
auto const additive_expr_def = (multiplicative_expr >> *additive_operation)[fold_chain{}];
// additive_operation -> ('+' | '-') multiplicative_expr
auto const additive_operation_def = (x3::string("+") | x3::string("-")) > multiplicative_expr;
// multiplicative_expr -> unary_expr {multiplicative_operation}
auto const multiplicative_expr_def = (unary_expr >> *multiplicative_operation)[fold_chain{}];
// multiplicative_operation -> ('.*' | './' | '*' | '/' | '%') unary_expr
auto const multiplicative_operation_def =
    (x3::string(".*") | x3::string("./") | x3::string("*") | x3::string("/") | x3::string("%")) >
    unary_expr;
// unary_expr -> unary_op | power_expr
auto const unary_expr_def = unary_op | power_expr;
// unary_op -> ('-' | '+' | '!') unary_expr   ('!' not before '=')
auto const unary_op_def = (char_('-') | char_('+') | (char_('!') >> !lit('='))) > unary_expr;
// power_expr -> postfix_expr {power_operation}   (right-associative: the unary_expr after '^' takes any '^' that follows)
auto const power_expr_def = (postfix_expr >> *power_operation)[fold_chain{}];
// power_operation -> '^' unary_expr
auto const power_operation_def = x3::string("^") > unary_expr;
// postfix_expr -> primary suffixes
auto const postfix_expr_def = (primary >> suffixes)[fold_postfix{}];
// suffixes -> {index_list | transpose_mark}
auto const suffixes_def = *(index_list | transpose_mark);
// transpose_mark -> "'"
auto const transpose_mark_def = char_('\'');
// primary -> real_literal | int_literal | call | vector_literal | identifier | '(' expression ')'
auto const primary_def = real_literal | int_literal | call | vector_literal | identifier |
                         ('(' > expression > ')');
// expression_list -> expression {',' expression}
auto const expression_list_def = expression >> *(',' > expression);
// call -> identifier '(' [call_arguments] ')'
auto const call_def = identifier >> '(' >> -call_arguments > ')';
// call_arguments -> first_argument {',' expression}
auto const call_arguments_def = first_argument >> *(',' > expression);
// first_argument -> expression [given_tail]
auto const first_argument_def = (expression >> -given_tail)[fold_conditioned{}];
// given_tail -> '|' expression   ('|' not before '|'; after the value of a log density)
auto const given_tail_def = (char_('|') >> !lit('|')) > expression;
// vector_literal -> '[' [expression_list] ']'
auto const vector_literal_def = char_('[') > -expression_list > ']';
// index_list -> '[' index_items ']'
auto const index_list_def = char_('[') > index_items > ']';
// index_items -> index_item {',' index_item}
auto const index_items_def = index_item % ',';
// index_item -> [expression] [range_tail]
auto const index_item_def = -expression >> -range_tail;
// range_tail -> ':' [expression]
auto const range_tail_def = char_(':') >> -expression;

// bound -> ('lower' | 'upper') '=' additive_expr
auto const bound_def = (x3::string("lower") | x3::string("upper")) > '=' > additive_expr;
// type_spec -> ('int' | 'real') ['<' bounds '>'] ['[' dimensions ']']
auto const type_spec_def = lexeme[(x3::string("int") | x3::string("real")) >> word_end] >
                           -('<' > bounds > '>') > -('[' > dimensions > ']');
// bounds -> bound {',' bound}
auto const bounds_def = bound % ',';
// dimensions -> expression {',' expression}
auto const dimensions_def = expression % ',';
// data_decl -> 'data' data_name ':' type_spec ['=' expression]
auto const data_decl_def = keyword("data") > data_name > ':' > type_spec > -('=' > expression);
// data_name -> identifier
auto const data_name_def = identifier;
// param_type_spec -> ('int' | 'real' | 'ordered' | 'positive_ordered') ['<' bounds '>'] ['[' dimensions ']']
auto const param_type_spec_def =
    lexeme[(x3::string("int") | x3::string("real") | x3::string("ordered") | x3::string("positive_ordered")) >> word_end] >
    -('<' > bounds > '>') > -('[' > dimensions > ']');
// param_decl -> 'param' param_name ':' param_type_spec
auto const param_decl_def = keyword("param") > param_name > ':' > param_type_spec;
// param_name -> identifier
auto const param_name_def = identifier;
// target -> identifier ['[' target_indices ']']
auto const target_def = identifier >> -('[' > target_indices > ']');
// target_indices -> index_item {',' index_item}
auto const target_indices_def = index_item % ',';
// distribution -> identifier '(' [expression_list] ')'
auto const distribution_def = identifier > '(' > -expression_list > ')';
// Up to the comma it may backtrack: `T[1] ~ ...` on the next line is a statement.
// restriction -> ('C' | 'T') '[' [expression] ',' [expression] ']'
auto const restriction_def = lexeme[(x3::string("C") | x3::string("T")) >> word_end] >> '[' >> -expression >> ',' >
                             -expression > ']';
// sample_stmt -> target '~' distribution [restriction]
auto const sample_stmt_def = target >> '~' > distribution > -restriction;
// assign_stmt -> target '=' expression
auto const assign_stmt_def = target >> '=' > expression;
// factor_stmt -> 'factor' expression
auto const factor_stmt_def = keyword("factor") > expression;
// function_def -> 'function' identifier function_params '=' expression
auto const function_def_def = keyword("function") > identifier > function_params > '=' > expression;
// print_stmt -> 'print' '(' expression {',' expression} ')'
auto const print_stmt_def = keyword("print") > '(' > expression_list > ')';
// function_params -> '(' [identifier {',' identifier}] ')'
auto const function_params_def = '(' > -(identifier % ',') > ')';
// in_keyword -> 'in'
auto const in_keyword_def = keyword("in");
// loop_range -> identifier 'in' additive_expr ':' additive_expr
auto const loop_range_def = identifier > in_keyword > additive_expr > ':' > additive_expr;
// for_stmt -> 'for' loop_ranges body
auto const for_stmt_def = keyword("for") > loop_ranges > body;
// loop_ranges -> loop_range {',' loop_range}
auto const loop_ranges_def = loop_range % ',';
// if_stmt -> 'if' condition body ['else' body]   (`else if` is an else of one if)
auto const if_stmt_def = keyword("if") > condition > body > -(keyword("else") > body);
// condition -> '(' expression ')'
auto const condition_def = '(' > expression > ')';
// body -> '{' {statement {';'}} '}' | statement
auto const body_def = ('{' > *(statement >> *lit(';')) > '}') | x3::repeat(1)[statement];
// tilde_or_equals -> '~' | '='
auto const tilde_or_equals_def = lit('~') | lit('=');
// statement -> data_decl | param_decl | function_def | print_stmt | for_stmt | if_stmt | factor_stmt | sample_stmt | assign_stmt   (a target then neither: expected '~' or '=')
auto const statement_def = data_decl | param_decl | function_def | print_stmt | for_stmt | if_stmt | factor_stmt | sample_stmt |
                           assign_stmt |
                           (x3::omit[target] > tilde_or_equals);
// end_of_program -> the end of the text
auto const end_of_program_def = x3::eoi;
// program -> {statement {';'}} end_of_program
auto const program_def = *(statement >> *lit(';')) > end_of_program;

BOOST_SPIRIT_DEFINE(expression_list, call_arguments, first_argument, given_tail, identifier, name, range_tail, or_operation, and_operation,
                    equality_operation, relational_operation, additive_operation,
                    multiplicative_operation, power_operation, int_literal, real_literal, expression, or_expr, and_expr,
                    equality_expr, relational_expr, additive_expr, multiplicative_expr,
                    unary_expr, unary_op, power_expr, postfix_expr, suffixes, primary, call,
                    vector_literal, index_item, index_list, index_items, transpose_mark, bound, bounds,
                    dimensions, type_spec, param_type_spec, data_decl, data_name, param_decl, param_name, target, target_indices, distribution, restriction,
                    sample_stmt, assign_stmt, factor_stmt, loop_range, loop_ranges, for_stmt, if_stmt, condition,
                    conditional_tail, body,
                    statement, program, tilde_or_equals,
                    in_keyword, end_of_program)
BOOST_SPIRIT_DEFINE(function_def, function_params, print_stmt)  // one macro takes at most 64 rules

// The skipper: white space and `#` comments to the end of the line — the line feed, as for
// skip_blank, check_nesting (parser.cpp) and line numbers. (x3::eol also ends a comment at
// a lone '\r', and a byte outside ASCII after one then reached the ASCII character
// classes, which assert on it.)
auto const skipper = char_(" \t\n\v\f\r") | lexeme['#' >> *(char_ - '\n')];

}  // namespace ppl::lang::grammar
