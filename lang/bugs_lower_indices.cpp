// The lowering of a BUGS program, its indices (bugs_lower_internal.hpp): BUGS has no
// integer type, so an index, range or loop bound that ppl does not type as an integer is
// rounded to the nearest one.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "lang/bugs_lower_internal.hpp"
#include "lang/bugs_nodes.hpp"

namespace ppl::lang::bugs_lowering {

using namespace bugs_nodes;

namespace {

// Where an expression begins: its first name's offset, or 0 with none.
std::size_t first_pos(const operand& o) {
  std::size_t pos = 0;
  for_each_identifier(o, [&](const ast::identifier& id) { if (!pos) pos = id.pos; });
  return pos;
}

}  // namespace

// BUGS has no integer type: an index may be computed in real arithmetic (Equiv's
// `T[i, k] <- group[i] * (k - 1.5) + 1.5`, then `sign[T[i, k]]`). An index, range or
// loop bound that is not an integer by ppl's typing is written `to_int(round(e))`, the
// nearest integer, as JAGS and OpenBUGS take it.
void lowering::whole_indices(std::vector<ast::statement>& body) {
  std::map<std::string, std::vector<ast::assign_stmt*>> defs;
  collect_assignments(body, defs);
  for (const auto& [name, u] : uses_) {
    const bugs_data_shape* given = nullptr;
    if (data_) {
      auto it = data_->find(name);
      if (it != data_->end()) given = &it->second;
    }
    if (given || (!data_ && !u.defined) || !u.sampled_by.empty())
      if (kind(u, given) == stdlib::scalar_kind::integer) integers_.insert(name);
  }
  for (bool grew = true; grew;) {  // `<-` nodes whose every definition is an integer
    grew = false;
    for (const auto& [name, list] : defs)
      if (!integers_.count(name) && uses_.at(name).sampled_by.empty() &&
          std::all_of(list.begin(), list.end(), [&](const ast::assign_stmt* a) { return integral(a->value); }))
        grew = integers_.insert(name).second || grew;
  }
  round_indices(body);
}

bool lowering::integral(const operand& o) const {
  if (boost::get<ast::int_literal>(&o)) return true;
  if (const auto* id = boost::get<ast::identifier>(&o)) return integers_.count(id->name) || loop_vars_.count(id->name);
  if (const auto* p = boost::get<fwd<ast::postfix>>(&o)) {
    const auto* base = boost::get<ast::identifier>(&p->get().base);
    return base && integers_.count(base->name);
  }
  if (const auto* u = boost::get<fwd<ast::unary>>(&o)) return u->get().op == '!' || integral(u->get().rhs);
  if (const auto* ch = boost::get<fwd<ast::chain>>(&o)) {
    const std::string& op = ch->get().rest.front().op;
    if (op == "||" || op == "&&" || op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") return true;
    if (op == "/" || op == "^") return false;
    if (!integral(ch->get().first)) return false;
    return std::all_of(ch->get().rest.begin(), ch->get().rest.end(), [&](const ast::operation& x) { return integral(x.rhs); });
  }
  if (const auto* c = as_call(o)) {
    static const std::set<std::string, std::less<>> whole{"cols", "equals", "int_step", "is_nan", "length", "rank", "rows", "step", "to_int"};
    static const std::set<std::string, std::less<>> follow{"abs", "ceil", "floor", "max", "min", "round", "sum", "prod"};
    if (whole.count(c->callee.name)) return true;
    return follow.count(c->callee.name) && std::all_of(c->args.begin(), c->args.end(), [&](const operand& a) { return integral(a); });
  }
  return false;
}

void lowering::rounded(operand& o) const {
  if (integral(o)) return;
  ast::call r = make_call("round", {o}, 0, 0), t = make_call("to_int", {}, 0, 0);
  const std::size_t pos = first_pos(o);
  r.pos = r.callee.pos = t.pos = t.callee.pos = pos;
  t.args.push_back(operand(std::move(r)));
  o = operand(std::move(t));
}

void lowering::round_items(std::vector<ast::index_item>& items) const {
  for (auto& ix : items) {
    if (ix.lo) rounded(*ix.lo);
    if (ix.tail && ix.tail->hi) rounded(*ix.tail->hi);
  }
}

void lowering::round_in(operand& o) const {
  if (auto* c = boost::get<fwd<ast::call>>(&o)) for (auto& a : c->get().args) round_in(a);
  else if (auto* u = boost::get<fwd<ast::unary>>(&o)) round_in(u->get().rhs);
  else if (auto* ch = boost::get<fwd<ast::chain>>(&o)) {
    round_in(ch->get().first);
    for (auto& op : ch->get().rest) round_in(op.rhs);
  } else if (auto* p = boost::get<fwd<ast::postfix>>(&o)) {
    round_in(p->get().base);
    for (auto& sfx : p->get().suffixes)
      if (auto* l = boost::get<ast::index_list>(&sfx)) {
        for (auto& ix : l->items) {
          if (ix.lo) round_in(*ix.lo);
          if (ix.tail && ix.tail->hi) round_in(*ix.tail->hi);
        }
        round_items(l->items);
      }
  }
}

void lowering::round_indices(std::vector<ast::statement>& body) const {
  for (auto& s : body) {
    if (auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
      for (auto& r : f->get().ranges) {
        round_in(r.lo);
        round_in(r.hi);
        rounded(r.lo);
        rounded(r.hi);
      }
      round_indices(f->get().body);
    } else if (auto* c = boost::get<fwd<ast::if_stmt>>(&s)) {
      round_in(c->get().cond);
      round_indices(c->get().then_body);
      if (c->get().else_body) round_indices(*c->get().else_body);
    } else if (auto* x = boost::get<ast::sample_stmt>(&s)) {
      round_items(x->lhs.indices);
      for (auto& a : x->dist.args) round_in(a);
      if (x->restricted) {
        if (x->restricted->lower) round_in(*x->restricted->lower);
        if (x->restricted->upper) round_in(*x->restricted->upper);
      }
    } else if (auto* a = boost::get<ast::assign_stmt>(&s)) {
      round_items(a->lhs.indices);
      round_in(a->value);
    }
  }
}

}  // namespace ppl::lang::bugs_lowering
