// The lowering of a BUGS program, its expressions and calls (bugs_lower_internal.hpp):
// `x[]` read whole, JAGS's `%*%` as `*`, BUGS's functions as the names table writes them
// in ppl; and whether an argument is a vector.
#include <algorithm>
#include <fmt/core.h>
#include <string_view>

#include "lang/bugs_lower_internal.hpp"
#include "lang/bugs_names.hpp"
#include "lang/bugs_nodes.hpp"
#include "lang/bugs_template.hpp"

namespace ppl::lang::bugs_lowering {

using namespace bugs_nodes;

operand lowering::expression(const operand& o) {
  if (const auto* id = boost::get<ast::identifier>(&o)) return operand(renamed(*id));
  if (const auto* c = boost::get<fwd<ast::call>>(&o)) return function_call(c->get());
  if (const auto* p = boost::get<fwd<ast::postfix>>(&o)) {
    ast::postfix out{expression(p->get().base), {}};
    for (const auto& s : p->get().suffixes) {
      const auto& list = boost::get<ast::index_list>(s);
      if (std::all_of(list.items.begin(), list.items.end(), whole_dimension)) {  // x[], x[, ]
        if (const auto* id = boost::get<ast::identifier>(&p->get().base); id && out.suffixes.empty())
          if (auto& rank = whole_ranks_[rename(*id)]; rank < list.items.size()) rank = list.items.size();
        continue;
      }
      ast::index_list l;  // built, not copied: a copy of the items is a copy of all below
      static_cast<ast::tagged&>(l) = list;
      l.open = list.open;
      for (const auto& ix : list.items) l.items.push_back(lowered_index(ix));
      out.suffixes.emplace_back(std::move(l));
    }
    if (out.suffixes.empty()) return out.base;
    return operand(std::move(out));
  }
  if (const auto* u = boost::get<fwd<ast::unary>>(&o)) {
    ast::unary out;
    static_cast<ast::tagged&>(out) = u->get();
    out.op = u->get().op;
    out.rhs = expression(u->get().rhs);
    return operand(std::move(out));
  }
  if (const auto* ch = boost::get<fwd<ast::chain>>(&o)) {
    ast::chain out{expression(ch->get().first), {}};
    for (const auto& op : ch->get().rest) {
      ast::operation next;
      static_cast<ast::tagged&>(next) = op;
      next.op = op.op;
      // %*% stays: the checker reads it as R does, dot(u, v) for two vectors, else `*`.
      if (op.op.front() == '%' && op.op != "%*%")
        fail_at(src_, op.pos, "JAGS's operator `" + op.op + "` is not supported; `%*%` (a matrix product) is");
      next.rhs = expression(op.rhs);
      out.rest.push_back(std::move(next));
    }
    return operand(std::move(out));
  }
  return o;  // a number
}

// Whether an argument is a vector, where that decides a rewriting (dinterval's cut
// points): a name the data give as an array or the model reads whole (`c[]`), or a
// selection with a range.
bool lowering::several(const operand& o) const {
  if (const auto* id = boost::get<ast::identifier>(&o)) {
    if (data_)
      if (auto it = data_->find(id->name); it != data_->end()) return !it->second.dims.empty();
    const auto whole = whole_ranks_.find(id->name);
    return whole != whole_ranks_.end() && whole->second > 0;
  }
  const auto* p = boost::get<fwd<ast::postfix>>(&o);
  if (!p || p->get().suffixes.size() != 1) return false;
  const auto* l = boost::get<ast::index_list>(&p->get().suffixes[0]);
  if (!l) return false;
  for (const auto& ix : l->items)
    if (ix.tail || !ix.lo) return true;
  // c[i] of a matrix c: its row.
  const auto* base = boost::get<ast::identifier>(&p->get().base);
  if (!base || !data_) return false;
  const auto given = data_->find(base->name);
  return given != data_->end() && given->second.dims.size() > l->items.size();
}

ast::index_item lowering::lowered_index(const ast::index_item& ix) {
  ast::index_item out;
  static_cast<ast::tagged&>(out) = ix;
  if (ix.lo) out.lo = expression(*ix.lo);
  if (ix.tail) {
    out.tail.emplace();
    out.tail->colon = ix.tail->colon;
    if (ix.tail->hi) out.tail->hi = expression(*ix.tail->hi);
  }
  return out;
}

std::vector<operand> lowering::arguments(const ast::call& c) {
  std::vector<operand> args;
  for (const auto& a : c.args) args.push_back(expression(a));
  return args;
}

operand lowering::function_call(const ast::call& c) {
  const std::string& name = c.callee.name;
  if (name == "cut")
    fail_at(src_, c.callee.pos, "OpenBUGS's cut() is not supported: ppl samples the joint posterior, and cutting "
                                "the feedback from one part of a model changes it");
  if (const bugs_name* e = find_bugs_function(name)) return from_table(*e, c, "function");
  ast::call out;  // built, not copied: a copy of the arguments is a copy of all below
  static_cast<ast::tagged&>(out) = c;
  out.callee = renamed(c.callee);
  out.args = arguments(c);
  return operand(std::move(out));
}

operand lowering::from_table(const bugs_name& e, const ast::call& c, std::string_view what) {
  const std::size_t arity = template_arity(e.bugs);
  if (arity != c.args.size())
    fail_at(src_, c.callee.pos, fmt::format("the {} `{}` takes {} argument{} ({}), not {}", what, callee_of(e.bugs), arity,
                                            arity == 1 ? "" : "s", e.bugs, c.args.size()));
  return instantiate(e.bugs, e.ppl, arguments(c), c.pos, c.end);
}

}  // namespace ppl::lang::bugs_lowering
