// The lowering of a BUGS program, its data (bugs_lower_internal.hpp): what the model does
// with each name, gathered over the lowered program, and from it and the data's shapes the
// `data` declarations, with their kinds and sizes.
#include <algorithm>
#include <cctype>
#include <fmt/core.h>
#include <string>

#include "lang/bugs_lower_internal.hpp"
#include "lang/bugs_nodes.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang::bugs_lowering {

using namespace bugs_nodes;

namespace {

// A declaration's name, or size, placed where the variable first appears.
ast::identifier id_at(const std::string& name, std::size_t pos) {
  ast::identifier id;
  id.name = name;
  return tagged_at(id, pos, pos);
}

ast::int_literal int_at(unsigned long long v, std::size_t pos) {
  ast::int_literal n;
  n.value = v;
  return tagged_at(n, pos, pos);
}

}  // namespace

// ---- what the model does with each name

void lowering::gather(const std::vector<ast::statement>& body) {
  for (const auto& s : body) gather(s);
}

name_use& lowering::use(const std::string& name, std::size_t pos) {
  auto [it, fresh] = uses_.try_emplace(name);
  if (fresh) it->second.first = pos;
  return it->second;
}

void lowering::gather(const ast::statement& s) {
  if (const auto* f = boost::get<fwd<ast::for_stmt>>(&s)) {
    const auto& r = f->get().ranges.front();
    read(r.lo, true);
    read(r.hi, true);
    loop_vars_.insert(r.var.name);
    std::string end;
    if (auto lo = literal_value(r.lo); lo && *lo == 1) {
      if (const auto* id = boost::get<ast::identifier>(&r.hi)) end = id->name;
      else if (const auto* n = boost::get<ast::int_literal>(&r.hi)) end = std::to_string(n->value);
    }
    scope_.emplace_back(r.var.name, end);
    gather(f->get().body);
    scope_.pop_back();
  } else if (const auto* c = boost::get<fwd<ast::if_stmt>>(&s)) {
    read(c->get().cond, false);
    gather(c->get().then_body);
    if (c->get().else_body) gather(*c->get().else_body);
  } else if (const auto* x = boost::get<ast::sample_stmt>(&s)) {
    auto& u = defines(x->lhs);
    u.sampled_by = x->dist.callee.name;
    // An integer parameter (Binomial's n) is read as an index is: its data are integers.
    const auto* d = stdlib::library().find_distribution(x->dist.callee.name);
    for (std::size_t k = 0; k < x->dist.args.size(); ++k)
      read(x->dist.args[k], d && k < d->params().size() && d->params()[k].kind == stdlib::scalar_kind::integer);
    if (x->restricted) {
      if (x->restricted->lower) read(*x->restricted->lower, false);
      if (x->restricted->upper) read(*x->restricted->upper, false);
    }
  } else if (const auto* a = boost::get<ast::assign_stmt>(&s)) {
    defines(a->lhs);
    read(a->value, false);
  } else if (const auto* p = boost::get<ast::param_decl>(&s)) {  // from bugs_rewrites::ordered_chains
    ast::target whole;
    whole.name = p->name;
    static_cast<ast::tagged&>(whole) = p->name;
    defines(whole).rank = p->type.dims.size();
  } else if (const auto* f = boost::get<ast::factor_stmt>(&s)) {
    read(f->value, false);
  }
}

name_use& lowering::defines(const ast::target& t) {
  name_use& u = use(t.name.name, t.name.pos);
  u.defined = true;
  indexed(u, t.indices);
  return u;
}

void lowering::indexed(name_use& u, const std::vector<ast::index_item>& items) {
  u.rank = std::max(u.rank, items.size());
  if (u.loop_ends.size() < items.size()) u.loop_ends.resize(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    const auto& ix = items[k];
    if (ix.lo) read(*ix.lo, true);
    if (ix.tail && ix.tail->hi) read(*ix.tail->hi, true);
    if (!ix.lo || ix.tail) continue;
    const auto* id = boost::get<ast::identifier>(&*ix.lo);
    if (!id) continue;
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == id->name) {
        if (!it->second.empty()) u.loop_ends[k].push_back(it->second);
        break;
      }
  }
}

void lowering::read(const operand& o, bool as_index) {
  if (const auto* id = boost::get<ast::identifier>(&o)) {
    if (std::none_of(scope_.begin(), scope_.end(), [&](const auto& s) { return s.first == id->name; }))
      use(id->name, id->pos).as_index |= as_index;
  } else if (const auto* c = boost::get<fwd<ast::call>>(&o)) {
    for (const auto& a : c->get().args) read(a, as_index);
  } else if (const auto* p = boost::get<fwd<ast::postfix>>(&o)) {
    const auto* base = boost::get<ast::identifier>(&p->get().base);
    if (!base) {
      read(p->get().base, as_index);
      for (const auto& s : p->get().suffixes)
        for (const auto& ix : boost::get<ast::index_list>(s).items) {
          if (ix.lo) read(*ix.lo, true);
          if (ix.tail && ix.tail->hi) read(*ix.tail->hi, true);
        }
      return;
    }
    name_use& u = use(base->name, base->pos);
    u.as_index |= as_index;
    for (const auto& s : p->get().suffixes) indexed(u, boost::get<ast::index_list>(s).items);
  } else if (const auto* u = boost::get<fwd<ast::unary>>(&o)) {
    read(u->get().rhs, as_index);
  } else if (const auto* ch = boost::get<fwd<ast::chain>>(&o)) {
    read(ch->get().first, as_index);
    for (const auto& op : ch->get().rest) read(op.rhs, as_index);
  }
}

// ---- the data declarations

void lowering::declare_data(std::vector<ast::statement>& out) {
  for (const auto& [name, u] : uses_) {
    if (loop_vars_.count(name) && !(data_ && data_->count(name))) continue;
    const bugs_data_shape* given = nullptr;
    if (data_) {
      auto it = data_->find(name);
      if (it == data_->end()) continue;
      given = &it->second;
    } else if (u.defined) {
      continue;
    }
    ast::data_decl d;
    d.pos = d.end = u.first;
    d.name.name = name;
    d.name.pos = d.name.end = u.first;
    d.type.pos = d.type.end = u.first;
    d.type.scalar = kind(u, given) == stdlib::scalar_kind::integer ? "int" : "real";
    const auto hint = whole_ranks_.find(name);
    const std::size_t rank = given ? given->dims.size() : std::max(u.rank, hint == whole_ranks_.end() ? 0 : hint->second);
    for (std::size_t k = 0; k < rank; ++k) d.type.dims.push_back(size(name, u, k, given));
    // R has no scalars: dump() writes a vector of length 1 as `y <- 2.5`. One the model
    // indexes is that vector (the caller gives the value its shape: cli::fit_length_one).
    if (given && rank == 0 && u.rank > 0)
      for (std::size_t k = 0; k < u.rank; ++k) d.type.dims.push_back(operand(int_at(1, u.first)));
    out.emplace_back(std::move(d));
  }
}

stdlib::scalar_kind lowering::kind(const name_use& u, const bugs_data_shape* given) const {
  if (!u.sampled_by.empty())
    if (const auto* d = stdlib::library().find_distribution(u.sampled_by)) return d->value_kind();
  const bool whole = given ? given->whole : u.as_index;
  return whole ? stdlib::scalar_kind::integer : stdlib::scalar_kind::real;
}

// A dimension's size: the name of the data value that a loop over it runs to when the
// data agree (`N` for `x[i]` in `for (i in 1:N)`), else the number itself.
operand lowering::size(const std::string& name, const name_use& u, std::size_t k, const bugs_data_shape* given) const {
  const std::vector<std::string> none;
  const auto& ends = k < u.loop_ends.size() ? u.loop_ends[k] : none;
  for (const auto& e : ends) {
    const bool number = std::isdigit(static_cast<unsigned char>(e[0]));
    if (!given) return number ? operand(int_at(std::stoull(e), u.first)) : operand(id_at(e, u.first));
    if (number || e == name) continue;
    auto it = data_->find(e);
    if (it != data_->end() && it->second.dims.empty() && it->second.value == static_cast<double>(given->dims[k]))
      return operand(id_at(e, u.first));
  }
  if (!given)
    fail_at(src_, u.first, fmt::format("no loop `for (i in 1:N)` indexes `{}` in its dimension {}, so its size is unknown "
                                       "without the data; give the data file", name, k + 1));
  return operand(int_at(given->dims[k], u.first));
}

}  // namespace ppl::lang::bugs_lowering
