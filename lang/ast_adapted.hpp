#pragma once
// Fusion adaptations of the syntax tree, seen only by the grammar.
#include <boost/fusion/include/adapt_struct.hpp>

#include "lang/ast.hpp"

BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::int_literal, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::real_literal, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::identifier, name)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::operation, op, rhs)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::chain, first, rest)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::unary, op, rhs)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::conditional_tail, yes, no)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::given_tail, bar, given)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::call, callee, args)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::vector_literal, open, elements)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::range_tail, colon, hi)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::index_item, lo, tail)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::index_list, open, items)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::transpose_mark, mark)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::postfix, base, suffixes)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::bound, which, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::type_spec, scalar, bounds, dims)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::data_decl, name, type, default_value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::param_decl, name, type)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::target, name, indices)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::restriction, which, lower, upper)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::sample_stmt, lhs, dist, restricted)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::assign_stmt, lhs, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::factor_stmt, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::function_def, name, params, value)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::loop_range, var, lo, hi)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::for_stmt, ranges, body)
BOOST_FUSION_ADAPT_STRUCT(ppl::lang::ast::if_stmt, cond, then_body, else_body)
