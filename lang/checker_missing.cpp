// Missing values in observed data (NA, null): the elements the data lack become unknowns,
// imputed from the distribution that observes them, as JAGS does. The checker is told
// which data variables have missing values (check_options::partly_observed) and splits
// each such variable `y` in two:
//   - `y` itself becomes an unknown that holds the data where they are given and an
//     imputed value where they are not; every statement reading `y` reads it, so a value
//     computed from `y` (a lag, a sum) sees the imputed values;
//   - a new data variable, also named `y` in messages and bound from the data's `y`, holds
//     the data with their gaps (ir::variable::may_miss); the declaration's sizes and bounds
//     move to it.
// Each statement `y[i] ~ D(...)` becomes two: `if (!is_nan(data y[i])) y[i] ~ D(...)` on the
// new data variable (an observation, as before, so conjugate updates still see it) and
// `if (is_nan(data y[i])) y[i] ~ D(...)` on the unknown, which defines only the missing
// elements. A distribution of arrays (`y[i] ~ Dirichlet(a)`, `y[2, 1:2] ~ ...`) observes its
// block where none of it is missing and defines it where all of it is; a block partly
// given is refused by the graph, which sees the data. The other elements of the unknown are never defined by a statement: the
// graph fills them from the data (ir::variable::filled_from) and no sampler moves them.
#include "lang/checker_impl.hpp"

namespace ppl::lang::detail {

using ir::expr;
using ir::expr_ptr;

namespace {

// Points every read of variable `from` in `e` at `to`.
void retarget(expr* e, int from, int to) {
  if (!e) return;
  if (e->which == expr::kind::variable && e->slot == from) e->slot = to;
  for (auto& a : e->args) retarget(a.get(), from, to);
  for (auto& ix : e->indices) {
    retarget(ix.lo.get(), from, to);
    retarget(ix.hi.get(), from, to);
  }
}

}  // namespace

// is_nan(y[indices]) on the data half `data` of a split variable, with the statement's
// target indices (is_nan(y) for a scalar): 1 where the value is missing.
expr_ptr checker::missing_at(int data, const ir::statement& s) {
  const auto& var = model_.variables[static_cast<std::size_t>(data)];
  auto base = new_expr(expr::kind::variable, s.pos);
  base->slot = data;
  base->type = var.type;
  expr_ptr element = std::move(base);
  if (!s.target_indices.empty() || s.target_from) {
    auto ix = new_expr(expr::kind::index, s.pos);
    ix->type = {var.type.kind, var.type.rank - static_cast<int>(s.target_indices.size())};
    for (const auto& i : s.target_indices) {
      ir::index_item item;
      item.lo = clone(*i);
      ix->indices.push_back(std::move(item));
    }
    if (s.target_from) {
      ir::index_item item;
      item.lo = clone(*s.target_from);
      item.hi = clone(*s.target_to);
      item.which = ir::index_item::kind::range;
      ix->indices.push_back(std::move(item));
    }
    ix->args.push_back(std::move(element));
    element = std::move(ix);
  }
  std::vector<expr_ptr> args;
  args.push_back(std::move(element));
  return make_call("is_nan", std::move(args), s.pos);
}

// A copy of statement `s` (its loops, indices and arguments cloned).
ir::statement checker::copy_statement(const ir::statement& s) {
  ir::statement c;
  c.which = s.which;
  c.pos = s.pos;
  for (const auto& l : s.loops) {
    ir::loop k;
    k.slot = l.slot;
    k.name = l.name;
    k.lo = clone(*l.lo);
    k.hi = clone(*l.hi);
    k.hidden = l.hidden;
    k.condition = l.condition;
    c.loops.push_back(std::move(k));
  }
  c.target = s.target;
  for (const auto& i : s.target_indices) c.target_indices.push_back(clone(*i));
  if (s.target_from) c.target_from = clone(*s.target_from), c.target_to = clone(*s.target_to);
  c.dist = s.dist;
  c.dist_name = s.dist_name;
  for (const auto& a : s.args) c.args.push_back(clone(*a));
  if (s.value) c.value = clone(*s.value);
  return c;
}

// Adds an `if` around statement `s`: a hidden loop 1:cond.
void checker::add_condition(ir::statement& s, expr_ptr cond) {
  hidden_loop(s, "if", std::move(cond));
  s.loops.back().condition = true;
}

void checker::split_partly_observed() {
  for (const auto& name : options_.partly_observed) {
    const int v = model_.find(name);
    if (v < 0 || !is_data_decl_[static_cast<std::size_t>(v)] || !has_sample_[static_cast<std::size_t>(v)]) continue;
    const int d = add_variable(name, model_.variables[static_cast<std::size_t>(v)].pos);
    model_.names[name] = v;  // the name keeps meaning the variable statements read
    type_state_.push_back(2);
    auto& unknown = model_.variables[static_cast<std::size_t>(v)];
    auto& data = model_.variables[static_cast<std::size_t>(d)];
    data.type = unknown.type;
    data.dims = std::move(unknown.dims);
    data.bounds = std::move(unknown.bounds);
    data.default_value = std::move(unknown.default_value);
    data.may_miss = true;
    unknown.dims.clear();
    unknown.filled_from = d;
    is_data_decl_[static_cast<std::size_t>(d)] = 1;
    is_data_decl_[static_cast<std::size_t>(v)] = 0;
    has_sample_[static_cast<std::size_t>(d)] = 1;
    // Where the model's structure is decided (loop bounds, target indices, sizes), the
    // data's `y` is read, never the unknown: a loop over length(y) is still over the data.
    const std::size_t n = converted_statements_.size();
    for (std::size_t i = 0; i < n; ++i) {
      auto& s = converted_statements_[i];
      for (auto& l : s.loops) {
        retarget(l.lo.get(), v, d);
        retarget(l.hi.get(), v, d);
      }
      for (auto& ix : s.target_indices) retarget(ix.get(), v, d);
    }
    for (std::size_t i = 0; i < n; ++i) {
      auto& s = converted_statements_[i];
      if (s.which != ir::statement::kind::sample || s.target != v) continue;
      // A distribution of arrays observes its block when none of it is missing and defines
      // it when some is; the graph refuses a block partly given (graph_build.cpp).
      const bool block = s.dist->value_rank() != 0;
      auto missing = [&] {
        expr_ptr m = missing_at(d, s);
        if (!block) return m;
        std::vector<expr_ptr> one;
        one.push_back(std::move(m));
        return make_call("sum", std::move(one), s.pos);
      };
      ir::statement observed = copy_statement(s);
      observed.target = d;
      std::vector<expr_ptr> args;
      args.push_back(missing());
      args.push_back(int_constant(0, s.pos));
      add_condition(observed, make_call("==", std::move(args), s.pos));
      if (block) {
        std::vector<expr_ptr> some;
        some.push_back(missing());
        some.push_back(int_constant(0, s.pos));
        add_condition(s, make_call(">", std::move(some), s.pos));
      } else {
        add_condition(s, missing_at(d, s));
      }
      reads_[i].push_back(d);
      reads_.push_back(ir::statement_reads(observed));
      converted_statements_.push_back(std::move(observed));
      const flat_statement original = flat_[i];
      flat_.push_back(original);
      converted_.push_back(true);
    }
  }
}

}  // namespace ppl::lang::detail
