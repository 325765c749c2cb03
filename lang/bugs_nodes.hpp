#pragma once
// Building and reading the nodes of ppl's syntax tree, for the BUGS front end's parts
// (the lowering, bugs_lower*.cpp; bugs_template.cpp; the rewrites of bugs_rewrites.hpp);
// seen by nothing else.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lang/ast.hpp"

namespace ppl::lang::bugs_nodes {

using ast::operand;
template <typename T>
using fwd = ast::x3::forward_ast<T>;

template <typename Node>
Node tagged_at(Node n, std::size_t pos, std::size_t end) {
  n.pos = pos;
  n.end = end;
  return n;
}

inline operand real_number(double v, std::size_t pos, std::size_t end) {
  ast::real_literal r;
  r.value = v;
  return operand(tagged_at(r, pos, end));
}

inline operand int_number(unsigned long long v, std::size_t pos, std::size_t end) {
  ast::int_literal n;
  n.value = v;
  return operand(tagged_at(n, pos, end));
}

// `first op1 rhs1 op2 rhs2 ...`, one precedence level's chain: `v - lo + 1`.
inline operand chain_of(operand first, std::vector<std::pair<std::string, operand>> rest, std::size_t pos, std::size_t end) {
  ast::chain c{std::move(first), {}};
  for (auto& [op, rhs] : rest) {
    ast::operation o;
    o.op = op;
    o.pos = pos;
    o.end = end;
    o.rhs = std::move(rhs);
    c.rest.push_back(std::move(o));
  }
  return operand(std::move(c));
}

inline ast::call make_call(std::string name, std::vector<operand> args, std::size_t pos, std::size_t end) {
  ast::call c;
  c.callee.name = std::move(name);
  c.callee.pos = pos;
  c.callee.end = end;
  c.args = std::move(args);
  return tagged_at(c, pos, end);
}

inline const ast::call* as_call(const operand& o) {
  const auto* c = boost::get<fwd<ast::call>>(&o);
  return c ? &c->get() : nullptr;
}

inline std::optional<double> literal_value(const operand& o) {
  if (const auto* i = boost::get<ast::int_literal>(&o)) return static_cast<double>(i->value);
  if (const auto* r = boost::get<ast::real_literal>(&o)) return r->value;
  if (const auto* u = boost::get<fwd<ast::unary>>(&o); u && u->get().op == '-')
    if (auto v = literal_value(u->get().rhs)) return -*v;
  return std::nullopt;
}

// `x[i, ]` reads the whole of a dimension: an index with nothing, or a range with neither end.
inline bool whole_dimension(const ast::index_item& ix) { return !ix.lo && (!ix.tail || !ix.tail->hi); }

inline ast::operand target_operand(const ast::target& t) {
  if (t.indices.empty()) return operand(t.name);
  ast::index_list l;
  l.items = t.indices;
  l.pos = t.pos;
  l.end = t.end;
  ast::postfix p{operand(t.name), {}};
  p.suffixes.emplace_back(std::move(l));
  return operand(std::move(p));
}

inline void collect_assignments(std::vector<ast::statement>& body, std::map<std::string, std::vector<ast::assign_stmt*>>& defs) {
  for (auto& s : body) {
    if (auto* a = boost::get<ast::assign_stmt>(&s)) defs[a->lhs.name.name].push_back(a);
    else if (auto* f = boost::get<fwd<ast::for_stmt>>(&s)) collect_assignments(f->get().body, defs);
  }
}

template <typename F>
void for_each_identifier(const operand& o, const F& f) {
  if (const auto* id = boost::get<ast::identifier>(&o)) f(*id);
  else if (const auto* c = boost::get<fwd<ast::call>>(&o)) for (const auto& a : c->get().args) for_each_identifier(a, f);
  else if (const auto* u = boost::get<fwd<ast::unary>>(&o)) for_each_identifier(u->get().rhs, f);
  else if (const auto* ch = boost::get<fwd<ast::chain>>(&o)) {
    for_each_identifier(ch->get().first, f);
    for (const auto& op : ch->get().rest) for_each_identifier(op.rhs, f);
  } else if (const auto* p = boost::get<fwd<ast::postfix>>(&o)) {
    for_each_identifier(p->get().base, f);
    for (const auto& sfx : p->get().suffixes)
      if (const auto* l = boost::get<ast::index_list>(&sfx))
        for (const auto& ix : l->items) {
          if (ix.lo) for_each_identifier(*ix.lo, f);
          if (ix.tail && ix.tail->hi) for_each_identifier(*ix.tail->hi, f);
        }
  }
}

// The names a body uses: its targets, loop variables and the names its `~` and `=` read
// (for a fresh name that is none of them).
inline void names_in(const std::vector<ast::statement>& body, std::set<std::string>& names) {
  for (const auto& s : body) {
    if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
      for (const auto& r : f->get().ranges) names.insert(r.var.name);
      names_in(f->get().body, names);
    } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
      names.insert(x->lhs.name.name);
      for (const auto& a : x->dist.args) for_each_identifier(a, [&](const ast::identifier& id) { names.insert(id.name); });
    } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
      names.insert(a->lhs.name.name);
      for_each_identifier(a->value, [&](const ast::identifier& id) { names.insert(id.name); });
    }
  }
}

}  // namespace ppl::lang::bugs_nodes
