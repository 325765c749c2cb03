#include "lang/bugs_lower.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/core.h>
#include <optional>
#include <set>
#include <string_view>

#include "lang/bugs_names.hpp"
#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"
#include "lang/bugs_template.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/suggest.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang {

namespace {

using namespace bugs_nodes;

// ---- the lowering ---------------------------------------------------------------------------

// What the model does with one of its names, gathered over the lowered program.
struct name_use {
  std::size_t first = 0;  // where it first appears
  bool defined = false;   // the target of a `~` or `=`
  std::string sampled_by; // the ppl distribution of a `~` on it
  bool as_index = false;  // read inside an index or a loop bound
  std::size_t rank = 0;   // the most indices it is read with
  // Per dimension, the upper ends of the loops `for (i in 1:E)` whose variable indexes it
  // there, as written (a name or an integer).
  std::vector<std::vector<std::string>> loop_ends;
};

class lowering {
 public:
  lowering(const source_file& src, const bugs_data_shapes* data) : src_(src), data_(data) {}

  ast::program run(const bugs::program& program) {
    const bugs::block* model = nullptr;
    std::vector<ast::statement> body;
    for (const auto& b : program.blocks) {
      if (b.which == "var") continue;
      if (b.which == "model") {
        if (model) fail_at(src_, b.pos, "a second `model` block; a BUGS file has one");
        model = &b;
      }
      for (const auto& s : b.body) lower(s, body, b.which == "data");
    }
    if (!model) fail_at(src_, src_.text.size(), "no `model { ... }` block: a BUGS file holds its model in one");
    bugs_rewrites::intervals(src_, body, [&](const operand& o) { return several(o); });
    bugs_rewrites::ordered_chains(body);
    bugs_rewrites::mixed_arrays(src_, body);
    bugs_rewrites::element_cycles(body);
    bugs_rewrites::real_constants(body);
    bugs_rewrites::linear_predictors(body, links_);
    gather(body);
    whole_indices(body);
    ast::program out;
    declare_data(out.statements);
    for (auto& s : body) out.statements.push_back(std::move(s));
    return out;
  }

 private:
  // ---- names
  std::string rename(const ast::identifier& id) {
    std::string name = id.name;
    std::replace(name.begin(), name.end(), '.', '_');
    auto [it, fresh] = spellings_.emplace(name, id.name);
    if (!fresh && it->second != id.name)
      fail_at(src_, id.pos, "`" + it->second + "` and `" + id.name + "` are one name in ppl, `" + name +
                                "` (dots become underscores, as in the data); rename one of them");
    return name;
  }
  ast::identifier renamed(ast::identifier id) {
    id.name = rename(id);
    return id;
  }

  // ---- expressions
  operand expression(const operand& o) {
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
        if (op.op == "%*%") next.op = "*";
        else if (op.op.front() == '%')
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
  bool several(const operand& o) const {
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

  ast::index_item lowered_index(const ast::index_item& ix) {
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

  std::vector<operand> arguments(const ast::call& c) {
    std::vector<operand> args;
    for (const auto& a : c.args) args.push_back(expression(a));
    return args;
  }

  operand function_call(const ast::call& c) {
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

  operand from_table(const bugs_name& e, const ast::call& c, std::string_view what) {
    const std::size_t arity = template_arity(e.bugs);
    if (arity != c.args.size())
      fail_at(src_, c.callee.pos, fmt::format("the {} `{}` takes {} argument{} ({}), not {}", what, callee_of(e.bugs), arity,
                                              arity == 1 ? "" : "s", e.bugs, c.args.size()));
    return instantiate(e.bugs, e.ppl, arguments(c), c.pos, c.end);
  }

  // ---- statements
  ast::target target(const ast::target& t, bool sampled, std::size_t value_rank = 0) {
    ast::target out = t;
    out.name = renamed(t.name);
    // `error[2, 1:2] ~ ddirich(...)`: a range given in full as the last index of a vector's
    // node is a block, which ppl reads as it is (`1:K` on a row of K is the whole row).
    const bool block = sampled && value_rank == 1 && !out.indices.empty() && out.indices.back().tail &&
                       out.indices.back().tail->hi;
    if (block) out.indices.back() = lowered_index(out.indices.back());
    for (std::size_t d = 0; d + (block ? 1 : 0) < out.indices.size(); ++d) {
      auto& ix = out.indices[d];
      if (!ix.tail) {
        if (ix.lo) ix.lo = expression(*ix.lo);
        continue;
      }
      // `x[1:K]`, `x[i, ]`: the whole dimension, which is what BUGS's multivariate nodes
      // take; a range from elsewhere than 1 is no node of ppl's.
      const auto one = ix.lo ? literal_value(*ix.lo) : std::optional<double>(1);
      if (!one || *one != 1)
        fail_at(src_, ix.pos, std::string("a range on the left of `") + (sampled ? "~" : "<-") +
                                  "` must start at 1 (the whole dimension); write the loop over its elements instead");
      ix.lo.reset();
      ix.tail->hi.reset();
    }
    // `beta[i, 1:2] ~ dmnorm(...)` is ppl's `beta[i] ~ MultiNormalPrec(...)`: the trailing
    // whole dimensions a value of the distribution fills (all of them for `<-`, whose
    // value's shape says how many), as ppl leaves them out.
    std::size_t drop = block ? 0 : sampled ? value_rank : out.indices.size();
    while (drop > 0 && !out.indices.empty() && whole_dimension(out.indices.back())) out.indices.pop_back(), --drop;
    return out;
  }

  void lower(const bugs::statement& s, std::vector<ast::statement>& out, bool data_block) {
    if (const auto* x = boost::get<bugs::stochastic>(&s)) {
      if (data_block)
        fail_at(src_, x->pos, "a `~` in a data block (JAGS's simulated data) is not supported; only `<-` computes data there");
      out.emplace_back(stochastic(*x));
    } else if (const auto* a = boost::get<bugs::logical>(&s)) {
      ast::assign_stmt y = *a;
      y.lhs = target(a->lhs, false);
      y.value = expression(a->value);
      out.emplace_back(std::move(y));
    } else if (const auto* l = boost::get<bugs::linked>(&s)) {
      static constexpr std::pair<std::string_view, std::string_view> inverses[] = {
          {"cloglog", "inv_cloglog"}, {"log", "exp"}, {"logit", "inv_logit"}, {"probit", "Phi"}};
      const auto* inv = std::find_if(std::begin(inverses), std::end(inverses), [&](const auto& p) { return p.first == l->link.name; });
      ast::assign_stmt y;
      y.pos = l->pos;
      y.end = l->end;
      y.lhs = target(l->lhs, false);
      y.value = make_call(std::string(inv->second), {expression(l->value)}, l->link.pos, l->end);
      out.emplace_back(std::move(y));
      links_.insert(l->pos);
    } else {
      const auto& f = boost::get<fwd<bugs::for_loop>>(s).get();
      ast::for_stmt loop;
      loop.pos = f.pos;
      loop.end = f.end;
      ast::loop_range r;
      r.pos = f.var.pos;
      r.end = f.end;
      r.var = renamed(f.var);
      r.lo = expression(f.lo);
      r.hi = expression(f.hi);
      loop.ranges.push_back(std::move(r));
      for (const auto& b : f.body) lower(b, loop.body, data_block);
      out.emplace_back(std::move(loop));
    }
  }

  ast::sample_stmt stochastic(const ast::sample_stmt& x) {
    ast::sample_stmt y = x;
    const std::string& name = x.dist.callee.name;
    const bugs_name* e = find_bugs_distribution(name);
    if (!e && name == "dinterval") {
      if (x.dist.args.size() != 2)
        fail_at(src_, x.dist.callee.pos, fmt::format("dinterval takes 2 arguments (dinterval(t, c)), not {}", x.dist.args.size()));
      if (x.restricted) fail_at(src_, x.restricted->pos, "dinterval takes no truncation or censoring");
      y.lhs = target(x.lhs, true);
      y.dist.args = arguments(x.dist);
      return y;  // joined to t's own `~` by intervals()
    }
    if (!e && name == "dsum") {  // dsum(a, b, ...): Sum([a, b, ...])
      if (x.dist.args.empty()) fail_at(src_, x.dist.callee.pos, "dsum takes 1 or more arguments, the summands");
      if (x.restricted) fail_at(src_, x.restricted->pos, "dsum takes no truncation or censoring");
      ast::vector_literal summands;
      summands.pos = x.dist.pos;
      summands.end = x.dist.end;
      summands.elements = arguments(x.dist);
      y.dist.callee.name = "Sum";
      y.dist.args.clear();
      y.dist.args.emplace_back(fwd<ast::vector_literal>(std::move(summands)));
      y.lhs = target(x.lhs, true);
      return y;
    }
    if (!e) {
      std::vector<std::string> names;
      for (const auto& d : bugs_distribution_table()) names.emplace_back(callee_of(d.bugs));
      fail_at(src_, x.dist.callee.pos, "unknown BUGS distribution `" + name + "`" + did_you_mean(near_names(name, names)));
    }
    y.dist = *as_call(from_table(*e, x.dist, "distribution"));
    const auto* d = stdlib::library().find_distribution(y.dist.callee.name);
    y.lhs = target(x.lhs, true, d ? static_cast<std::size_t>(d->value_rank()) : 0);
    if (y.restricted) {
      auto& r = *y.restricted;
      r.which = r.which == "T" ? "T" : "C";  // I(,) and C(,) are censoring
      if (r.lower) r.lower = expression(*r.lower);
      if (r.upper) r.upper = expression(*r.upper);
    }
    return y;
  }

  // BUGS has no integer type: an index may be computed in real arithmetic (Equiv's
  // `T[i, k] <- group[i] * (k - 1.5) + 1.5`, then `sign[T[i, k]]`). An index, range or
  // loop bound that is not an integer by ppl's typing is written `to_int(round(e))`, the
  // nearest integer, as JAGS and OpenBUGS take it.
  void whole_indices(std::vector<ast::statement>& body) {
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

  bool integral(const operand& o) const {
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

  void rounded(operand& o) const {
    if (integral(o)) return;
    ast::call r = make_call("round", {o}, 0, 0), t = make_call("to_int", {}, 0, 0);
    const std::size_t pos = first_pos(o);
    r.pos = r.callee.pos = t.pos = t.callee.pos = pos;
    t.args.push_back(operand(std::move(r)));
    o = operand(std::move(t));
  }

  static std::size_t first_pos(const operand& o) {
    std::size_t pos = 0;
    for_each_identifier(o, [&](const ast::identifier& id) { if (!pos) pos = id.pos; });
    return pos;
  }

  void round_items(std::vector<ast::index_item>& items) const {
    for (auto& ix : items) {
      if (ix.lo) rounded(*ix.lo);
      if (ix.tail && ix.tail->hi) rounded(*ix.tail->hi);
    }
  }

  void round_in(operand& o) const {
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

  void round_indices(std::vector<ast::statement>& body) const {
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

  // ---- what the model does with each name
  void gather(const std::vector<ast::statement>& body) {
    for (const auto& s : body) gather(s);
  }

  name_use& use(const std::string& name, std::size_t pos) {
    auto [it, fresh] = uses_.try_emplace(name);
    if (fresh) it->second.first = pos;
    return it->second;
  }

  void gather(const ast::statement& s) {
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

  name_use& defines(const ast::target& t) {
    name_use& u = use(t.name.name, t.name.pos);
    u.defined = true;
    indexed(u, t.indices);
    return u;
  }

  void indexed(name_use& u, const std::vector<ast::index_item>& items) {
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

  void read(const operand& o, bool as_index) {
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
  void declare_data(std::vector<ast::statement>& out) {
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

  stdlib::scalar_kind kind(const name_use& u, const bugs_data_shape* given) const {
    if (!u.sampled_by.empty())
      if (const auto* d = stdlib::library().find_distribution(u.sampled_by)) return d->value_kind();
    const bool whole = given ? given->whole : u.as_index;
    return whole ? stdlib::scalar_kind::integer : stdlib::scalar_kind::real;
  }

  // A dimension's size: the name of the data value that a loop over it runs to when the
  // data agree (`N` for `x[i]` in `for (i in 1:N)`), else the number itself.
  operand size(const std::string& name, const name_use& u, std::size_t k, const bugs_data_shape* given) const {
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

  static ast::identifier id_at(const std::string& name, std::size_t pos) {
    ast::identifier id;
    id.name = name;
    return tagged_at(id, pos, pos);
  }
  static ast::int_literal int_at(unsigned long long v, std::size_t pos) {
    ast::int_literal n;
    n.value = v;
    return tagged_at(n, pos, pos);
  }

  const source_file& src_;
  const bugs_data_shapes* data_;
  std::map<std::string, std::string> spellings_;  // ppl name -> the BUGS spelling first met
  std::map<std::string, name_use> uses_;
  std::set<std::size_t> links_;  // where the `=`s of links on the left are (`logit(p) <- e`)
  std::map<std::string, std::size_t> whole_ranks_;  // `x[, ]` read whole: the rank it shows
  std::set<std::string> loop_vars_;
  std::set<std::string> integers_;  // the names whose values are integers, for whole_indices()
  std::vector<std::pair<std::string, std::string>> scope_;  // loop variable, its upper end when from 1
};

}  // namespace

ast::program lower_bugs(const source_file& src, const bugs::program& program, const bugs_data_shapes* data) {
  return lowering(src, data).run(program);
}

}  // namespace ppl::lang
