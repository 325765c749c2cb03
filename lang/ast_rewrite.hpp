#pragma once
// Rewriting the operands of ppl's syntax tree in place: the passes over a whole program
// (BUGS's rewrites, lang/bugs_rewrites.hpp; user functions, lang/functions.cpp).
#include <functional>

#include "lang/ast.hpp"

namespace ppl::lang {

// Applies `f` to every operand below `o` (and `o` itself), outermost first; where `f`
// returns true it has replaced the operand, and what it put there is not visited.
inline void rewrite(ast::operand& o, const std::function<bool(ast::operand&)>& f) {
  if (f(o)) return;
  auto each = [&](ast::operand& x) { rewrite(x, f); };
  if (auto* c = boost::get<ast::x3::forward_ast<ast::call>>(&o)) {
    for (auto& a : c->get().args) each(a);
  } else if (auto* v = boost::get<ast::x3::forward_ast<ast::vector_literal>>(&o)) {
    for (auto& e : v->get().elements) each(e);
  } else if (auto* p = boost::get<ast::x3::forward_ast<ast::postfix>>(&o)) {
    each(p->get().base);
    for (auto& s : p->get().suffixes)
      if (auto* l = boost::get<ast::index_list>(&s))
        for (auto& ix : l->items) {
          if (ix.lo) each(*ix.lo);
          if (ix.tail && ix.tail->hi) each(*ix.tail->hi);
        }
  } else if (auto* u = boost::get<ast::x3::forward_ast<ast::unary>>(&o)) {
    each(u->get().rhs);
  } else if (auto* ch = boost::get<ast::x3::forward_ast<ast::chain>>(&o)) {
    each(ch->get().first);
    for (auto& op : ch->get().rest) each(op.rhs);
  } else if (auto* k = boost::get<ast::x3::forward_ast<ast::conditional>>(&o)) {
    each(k->get().cond);
    each(k->get().tail.yes);
    each(k->get().tail.no);
  } else if (auto* g = boost::get<ast::x3::forward_ast<ast::conditioned>>(&o)) {
    each(g->get().value);
    each(g->get().tail.given);
  }
}

// Applies `rewrite(o, f)` to every operand of a statement, its targets' indices, bounds,
// sizes and loop ranges included, and the statements of its bodies.
inline void rewrite_statement(ast::statement& s, const std::function<bool(ast::operand&)>& f) {
  using ast::x3::forward_ast;
  auto each = [&](ast::operand& o) { rewrite(o, f); };
  auto target = [&](ast::target& t) {
    for (auto& ix : t.indices) {
      if (ix.lo) each(*ix.lo);
      if (ix.tail && ix.tail->hi) each(*ix.tail->hi);
    }
  };
  auto type = [&](ast::type_spec& t) {
    for (auto& b : t.bounds) each(b.value);
    for (auto& d : t.dims) each(d);
  };
  auto body = [&](std::vector<ast::statement>& b) {
    for (auto& x : b) rewrite_statement(x, f);
  };
  if (auto* d = boost::get<ast::data_decl>(&s)) {
    type(d->type);
    if (d->default_value) each(*d->default_value);
  } else if (auto* p = boost::get<ast::param_decl>(&s)) {
    type(p->type);
  } else if (auto* x = boost::get<ast::sample_stmt>(&s)) {
    target(x->lhs);
    for (auto& a : x->dist.args) each(a);
    if (x->restricted && x->restricted->lower) each(*x->restricted->lower);
    if (x->restricted && x->restricted->upper) each(*x->restricted->upper);
  } else if (auto* a = boost::get<ast::assign_stmt>(&s)) {
    target(a->lhs);
    each(a->value);
  } else if (auto* g = boost::get<ast::factor_stmt>(&s)) {
    each(g->value);
  } else if (auto* fn = boost::get<ast::function_def>(&s)) {
    each(fn->value);
  } else if (auto* pr = boost::get<ast::print_stmt>(&s)) {
    for (auto& a : pr->args) each(a);
  } else if (auto* l = boost::get<forward_ast<ast::for_stmt>>(&s)) {
    for (auto& r : l->get().ranges) each(r.lo), each(r.hi);
    body(l->get().body);
  } else if (auto* i = boost::get<forward_ast<ast::if_stmt>>(&s)) {
    each(i->get().cond);
    body(i->get().then_body);
    if (i->get().else_body) body(*i->get().else_body);
  }
}

// Whether a statement of kind Node stands anywhere in `body`, loops' and `if`s' bodies
// included.
template <class Node>
bool contains_statement(const std::vector<ast::statement>& body) {
  using ast::x3::forward_ast;
  for (const auto& s : body) {
    if (boost::get<Node>(&s)) return true;
    if (const auto* l = boost::get<forward_ast<ast::for_stmt>>(&s); l && contains_statement<Node>(l->get().body)) return true;
    if (const auto* i = boost::get<forward_ast<ast::if_stmt>>(&s)) {
      if (contains_statement<Node>(i->get().then_body)) return true;
      if (i->get().else_body && contains_statement<Node>(*i->get().else_body)) return true;
    }
  }
  return false;
}

}  // namespace ppl::lang
