// Statements: conversion, typing of the variables they define, roles and dependency order.
#include <algorithm>
#include <cmath>
#include <functional>

#include "lang/checker.hpp"
#include "lang/checker_impl.hpp"
#include "lang/habits.hpp"
#include "lang/parser.hpp"
#include "lang/suggest.hpp"
#include "stdlib/restricted.hpp"

namespace ppl::lang {

namespace detail {

using ir::expr;
using ir::expr_ptr;
using stdlib::scalar_kind;
using stdlib::type_sig;

namespace {

std::string describe_rank(int rank) {
  if (rank == 0) return "a scalar";
  if (rank == 1) return "a vector";
  if (rank == 2) return "a matrix";
  return "an array of " + std::to_string(rank) + " dimensions";
}

// A constant number, with unary minus: the value; otherwise NaN.
double constant_value(const ir::expr& e) {
  if (e.which == ir::expr::kind::int_const || e.which == ir::expr::kind::real_const) return e.constant;
  if (e.which == ir::expr::kind::call && e.fn && e.fn->name() == "neg" && e.args.size() == 1) return -constant_value(*e.args[0]);
  return std::nan("");
}

// Whether constant bounds hold the whole support of a distribution whose support is fixed.
bool within_constant_bounds(const ir::bound_spec& b, const stdlib::distribution& d) {
  const auto params = d.params();
  for (std::size_t k = 0; k < params.size(); ++k)
    if (d.support_reads(k)) return false;
  if (d.value_rank() != 0) return false;
  const double lower = b.lower ? constant_value(*b.lower) : -INFINITY, upper = b.upper ? constant_value(*b.upper) : INFINITY;
  if (std::isnan(lower) || std::isnan(upper)) return false;
  std::vector<double> ones(params.size(), 1.0);
  std::vector<stdlib::view> args;
  for (double& x : ones) args.push_back(stdlib::view{&x, stdlib::shape::scalar()});
  const stdlib::support s = d.value_support(args);
  return lower <= s.lower && upper >= s.upper;
}

}  // namespace

// The type of a variable, from the first statement that defines it.
void checker::type_variable(int v) {
  auto& state = type_state_[static_cast<std::size_t>(v)];
  if (state == 2) return;
  auto& var = model_.variables[static_cast<std::size_t>(v)];
  if (state == 1) fail(var.pos, "`" + var.name + "` is defined in terms of itself");
  state = 1;
  if (int first = first_definition_[static_cast<std::size_t>(v)]; first >= 0) {
    convert_statement(static_cast<std::size_t>(first));
    // Its first definition was already being converted, and reached `v` again through the
    // variables it reads (a[j] = b[j] + 1 with b[1] = a[2]): a cycle, whose type is not known.
    // (A statement that reads its own target, x ~ Normal(x, 1), is found later, and said so.)
    if (var.statements.empty() && first != current_statement_)
      fail(var.pos, "`" + var.name + "` depends on itself through other variables (a cycle); a model must be a directed acyclic graph, "
                    "with `factor` for undirected terms");
  }
  state = 2;
}

void checker::convert_sample(const ast::sample_stmt& s, ir::statement& out) {
  const auto& name = s.dist.callee.name;
  out.dist = lib_.find_distribution(name);
  out.dist_name = name;
  if (!out.dist) {
    if (lib_.find_function(name)) fail(s.dist.callee.pos, "`" + name + "` is a function, not a distribution");
    if (std::string bugs = bugs_distribution(name); !bugs.empty())
      fail(s.dist.callee.pos, "unknown distribution `" + name + "`: " + bugs);
    fail(s.dist.callee.pos, "unknown distribution `" + name + "`" + did_you_mean(near_names(name, lib_.distribution_names())));
  }
  auto params = out.dist->params();
  if (s.dist.args.size() != params.size()) {
    std::string names;
    for (const auto& p : params) names += (names.empty() ? "" : ", ") + std::string(p.name);
    fail(s.dist.callee.pos, name + " takes " + std::to_string(params.size()) + " argument" +
                                (params.size() == 1 ? "" : "s") + (names.empty() ? "" : " (" + names + ")") +
                                " but " + std::to_string(s.dist.args.size()) + " " +
                                (s.dist.args.size() == 1 ? "was" : "were") + " given");
  }
  for (std::size_t k = 0; k < params.size(); ++k) {
    expr_ptr a = convert(s.dist.args[k]);
    const bool elementwise = vectorises(*out.dist) && a->type.rank > 0;  // checked by vectorise()
    if (a->type.rank != params[k].rank && !elementwise)
      fail(a->pos, "argument " + std::string(params[k].name) + " of " + name + " must be " +
                       describe_rank(params[k].rank) + ", not " + stdlib::to_string(a->type));
    if (params[k].kind == scalar_kind::integer && a->type.kind != scalar_kind::integer)
      fail(a->pos, "argument " + std::string(params[k].name) + " of " + name + " must be an integer, not real");
    out.args.push_back(std::move(a));
  }
  link_scale(out);
  const int v = model_.find(s.lhs.name.name);
  const bool bounded = v >= 0 && params_[static_cast<std::size_t>(v)].decl &&
                       (params_[static_cast<std::size_t>(v)].bounds.lower || params_[static_cast<std::size_t>(v)].bounds.upper);
  if (bounded && s.restricted)
    fail(s.restricted->pos, "`" + s.lhs.name.name + "` has bounds in its `param` declaration and " + s.restricted->which +
                                "[lower, upper] here; give the bounds once");
  if (s.restricted) {
    expr_ptr lower = s.restricted->lower ? convert(*s.restricted->lower) : nullptr;
    expr_ptr upper = s.restricted->upper ? convert(*s.restricted->upper) : nullptr;
    restrict_sample(s.restricted->which == "T", std::move(lower), std::move(upper), s.restricted->pos, out);
  } else if (bounded && !within_constant_bounds(params_[static_cast<std::size_t>(v)].bounds, *out.dist)) {
    // Stan's `real<lower=0> sigma; sigma ~ normal(0, 5)`: the prior truncated to the declared
    // support, T[lower, upper] (the same posterior as Stan's when the bounds are data). Bounds
    // that hold the prior's whole support (`real<lower=0>` with a Gamma) change nothing, and
    // the prior keeps its conjugate updates.
    const auto& b = params_[static_cast<std::size_t>(v)].bounds;
    restrict_sample(true, b.lower ? clone(*b.lower) : nullptr, b.upper ? clone(*b.upper) : nullptr, s.lhs.pos, out);
    declared_truncations_.push_back(current_statement_);
  }
}

// `C[lower, upper]` or `T[lower, upper]` after the distribution: a distribution made for
// this statement, the bounds its last parameters (stdlib/restricted.hpp). It has a name of
// its own ("Weibull C[]"), so no conjugate pair takes it for the plain distribution.
void checker::restrict_sample(bool truncate, expr_ptr lower, expr_ptr upper, std::size_t pos, ir::statement& out) {
  std::string why;
  const std::string which = truncate ? "T" : "C";
  auto d = stdlib::make_restricted(*out.dist, truncate, lower != nullptr, upper != nullptr, why);
  if (!d) fail(pos, why);
  for (expr_ptr* bound : {&lower, &upper}) {
    if (!*bound) continue;
    if ((*bound)->type.rank != 0 && !vectorises(*out.dist))
      fail((*bound)->pos, "a bound of " + which + "[lower, upper] must be a scalar, not " + stdlib::to_string((*bound)->type));
    out.args.push_back(std::move(*bound));
  }
  out.dist_name = std::string(d->name());
  out.dist = d.get();
  model_.lowered_distributions.push_back(std::move(d));
}

// Bernoulli(inv_logit(e)), Binomial(n, inv_logit(e)) and Poisson(exp(e)) are evaluated on
// the scale of their linear predictor e, as BernoulliLogit(e), BinomialLogit(n, e) and
// PoissonLog(e): inv_logit(40) is 1 in doubles, so Bernoulli(inv_logit(40)) would give an
// outcome of 0 the log density log 0 where the model's is -40, and a start far out in the
// tails could never be left. The statement keeps the name the model gave it.
void checker::link_scale(ir::statement& out) const {
  struct form {
    std::string_view dist, link, scaled;
    std::size_t arg;
  };
  static constexpr form forms[] = {
      {"Bernoulli", "inv_logit", "BernoulliLogit", 0}, {"Binomial", "inv_logit", "BinomialLogit", 1}, {"Poisson", "exp", "PoissonLog", 0}};
  for (const auto& f : forms) {
    if (out.dist_name != f.dist) continue;
    expr_ptr& a = out.args[f.arg];
    if (a->which != ir::expr::kind::call || !a->fn || a->fn->name() != f.link || a->args.size() != 1 || a->args[0]->type.rank != 0)
      return;
    out.dist = lib_.find_distribution(f.scaled);
    expr_ptr inner = std::move(a->args[0]);
    a = std::move(inner);
  }
}

// A range `from:to` on the left of `~` (`error[2, 1:2] ~ Dirichlet(a)`, BUGS's block of a
// row): the value's first dimension fills that stretch of the dimension, and the value's
// other dimensions the dimensions after it, whole, so that the block is contiguous. The
// range is fixed by the data, so that which elements a statement defines never moves.
void checker::target_range(const ast::index_item& ix, bool last, int value_rank, ir::statement& out) {
  if (out.which != ir::statement::kind::sample)
    fail(ix.pos, "a range on the left is for `~` with a distribution of arrays; for `=`, write the loop over the range");
  if (value_rank == 0)
    fail(ix.pos, "a range on the left of `~` takes a block of a distribution of arrays (Dirichlet, MultiNormal, ...), and " +
                     out.dist_name + " gives one number; use `:` for a whole dimension, or write the loop over the range");
  if (!last) fail(ix.pos, "a range on the left of `~` must be the last index given (its value's dimensions follow it)");
  if (std::find(out.target_indices.begin(), out.target_indices.end(), nullptr) != out.target_indices.end())
    fail(ix.pos, "a range and a whole dimension (`:`) are not read together on the left of `~`; write the loop");
  if (!ix.tail->hi) fail(ix.pos, "a range on the left of `~` needs its end (`from:to`)");
  out.target_from = ix.lo ? require_int_scalar(convert(*ix.lo), "a range on the left of `~`") : int_constant(1, ix.pos);
  out.target_to = require_int_scalar(convert(*ix.tail->hi), "a range on the left of `~`");
}

// A loop, or an if's branch as a loop 1:(cond != 0) (1:(cond == 0) for the else).
ir::loop checker::convert_enclosing(const enclosing& e) {
  ir::loop l;
  l.slot = e.slot;
  if (e.range) {
    l.name = e.range->var.name;
    l.lo = require_int_scalar(convert(e.range->lo), "a loop bound");
    l.hi = require_int_scalar(convert(e.range->hi), "a loop bound");
    return l;
  }
  expr_ptr c = convert(*e.condition);
  if (c->type.kind != scalar_kind::integer || c->type.rank != 0)
    fail(c->pos, "the condition of an `if` must be an integer scalar, such as a comparison (x > 0), not " + stdlib::to_string(c->type));
  const std::size_t pos = c->pos;
  std::vector<expr_ptr> args;
  args.push_back(std::move(c));
  args.push_back(int_constant(0, pos));
  l.name = e.otherwise ? "else" : "if";
  l.lo = int_constant(1, pos);
  l.hi = make_call(e.otherwise ? "==" : "!=", std::move(args), pos);
  l.hidden = true;
  l.condition = true;
  return l;
}

// What a statement says besides its loops and its left side: a `~`'s distribution, an
// `=`'s value, a `param`'s flat prior, a factor's term. Returns the target (none for a
// factor or a flat prior), with `value` the type of what the statement gives each element.
const ast::target* checker::convert_right_side(const ast::statement& node, ir::statement& out, type_sig& value) {
  if (const auto* s = boost::get<ast::sample_stmt>(&node)) {
    out.which = ir::statement::kind::sample;
    out.pos = s->pos;
    convert_sample(*s, out);
    value = {out.dist->value_kind(), out.dist->value_rank()};
    return &s->lhs;
  }
  if (const auto* a = boost::get<ast::assign_stmt>(&node)) {
    out.which = ir::statement::kind::assign;
    out.pos = a->pos;
    out.value = convert(a->value);
    value = out.value->type;
    return &a->lhs;
  }
  if (const auto* p = boost::get<ast::param_decl>(&node)) {
    convert_flat_prior(*p, out);
    return nullptr;
  }
  const auto& fs = boost::get<ast::factor_stmt>(node);
  out.which = ir::statement::kind::factor;
  out.pos = fs.pos;
  out.value = convert(fs.value);
  if (out.value->type.rank != 0)
    fail(out.value->pos, "a factor must be a scalar, not " + stdlib::to_string(out.value->type));
  return nullptr;
}

// The indices on the left of `~` or `=`, each an index, a range (target_range) or a whole
// dimension.
void checker::convert_target_indices(const ast::target& lhs, int value_rank, ir::statement& out) {
  if (lhs.indices.size() == 1 && !lhs.indices[0].lo && !lhs.indices[0].tail)
    fail(lhs.indices[0].pos, "`" + lhs.name.name + "[]` has an empty index: write `" + lhs.name.name + "` for the whole array");
  for (std::size_t d = 0; d < lhs.indices.size(); ++d) {
    const auto& ix = lhs.indices[d];
    // `:` (or nothing) keeps a whole dimension: the slice is looped over by vectorise(),
    // which fills the null placeholder with the loop's variable.
    const bool whole = !ix.lo && (!ix.tail || !ix.tail->hi);
    if (ix.tail && !whole) {
      target_range(ix, d + 1 == lhs.indices.size(), value_rank, out);
      continue;
    }
    if (whole && out.which != ir::statement::kind::sample)
      fail(ix.pos, "a whole dimension (`:`) on the left is for `~`, where it is looped over; for `=`, write the loop");
    if (whole && out.target_from)
      fail(ix.pos, "a range and a whole dimension (`:`) are not read together on the left of `~`; write the loop");
    out.target_indices.push_back(whole ? nullptr : require_int_scalar(convert(*ix.lo), "an index on the left of `~` or `=`"));
  }
}

// The target variable's type `t`, from its first definition; a later one must agree.
void checker::type_target(const ast::target& lhs, type_sig t, const ir::statement& out) {
  auto& var = model_.variables[static_cast<std::size_t>(out.target)];
  if (t.rank > ppl::max_rank) fail(lhs.pos, "arrays have at most " + std::to_string(ppl::max_rank) + " dimensions");
  if (type_state_[static_cast<std::size_t>(out.target)] == 2 || var.statements.size() > 0) {
    if (var.type.rank != t.rank) {
      // A distribution of vectors, or with a vector parameter, does not vectorise.
      const bool loop_needed = out.dist && var.type.rank > t.rank;
      fail(lhs.pos, "`" + var.name + "` has " + std::to_string(var.type.rank) + " dimension" +
                        (var.type.rank == 1 ? "" : "s") + " but this statement gives it " + std::to_string(t.rank) +
                        (loop_needed ? "; " + out.dist_name + " takes or gives arrays, so it does not apply element by element: "
                                           "write the loop (for i in 1:N { " + var.name + "[i] ~ " + out.dist_name + "(...) })"
                                     : ""));
    }
    // A value computed with `=` (JAGS's data block: r[i] <- round(x[i])) stays real, and an
    // observation of it by a discrete distribution is checked element by element when the
    // graph binds it (a count must be whole there); a declared real is refused.
    const bool computed = !var.statements.empty() && std::all_of(var.statements.begin(), var.statements.end(), [&](int si) {
      return static_cast<std::size_t>(si) < converted_statements_.size() &&
             converted_statements_[static_cast<std::size_t>(si)].which == ir::statement::kind::assign;
    });
    if (var.type.kind == scalar_kind::real && t.kind == scalar_kind::integer && out.dist && !computed)
      fail(lhs.pos, "`" + var.name + "` is real but " + out.dist_name + " gives integers; declare it int");
    if (var.type.kind == scalar_kind::integer && t.kind == scalar_kind::real && !out.dist)
      fail(lhs.pos, "`" + var.name + "` is an integer but this value is real");
  } else {
    var.type = t;
  }
}

void checker::convert_statement(std::size_t i) {
  if (converted_[i]) return;
  converted_[i] = true;
  auto saved_scope = std::move(scope_);
  int saved_statement = current_statement_;
  scope_.clear();
  current_statement_ = static_cast<int>(i);
  const flat_statement& f = flat_[i];
  ir::statement& out = converted_statements_[i];
  for (const auto& e : f.loops) {
    out.loops.push_back(convert_enclosing(e));
    if (e.range) scope_.emplace_back(e.range->var.name, e.slot);
  }
  type_sig value{scalar_kind::real, 0};
  if (const ast::target* lhs = convert_right_side(*f.node, out, value)) {
    convert_target_indices(*lhs, value.rank, out);
    out.target = model_.find(lhs->name.name);
    if (out.which == ir::statement::kind::sample) vectorise(out, lhs->pos, src_.text.substr(lhs->pos, lhs->end - lhs->pos));
    type_target(*lhs, {value.kind, static_cast<int>(out.target_indices.size()) + value.rank}, out);
    model_.variables[static_cast<std::size_t>(out.target)].statements.push_back(static_cast<int>(i));
  }
  scope_ = std::move(saved_scope);
  current_statement_ = saved_statement;
}

// data, transformed data (computed from data alone), unknown (sampled), derived.
void checker::assign_roles() {
  for (std::size_t v = 0; v < model_.variables.size(); ++v) {
    auto& var = model_.variables[v];
    if (is_data_decl_[v] || var.is_size) {
      var.role = ir::role::data;
      var.observed = has_sample_[v];
      if (has_assign_[v])
        for (int s : var.statements)
          if (converted_statements_[static_cast<std::size_t>(s)].which == ir::statement::kind::assign)
            fail(converted_statements_[static_cast<std::size_t>(s)].pos, "`" + var.name + "` is data; it cannot be assigned with `=`");
    } else {
      if (params_[v].decl && has_assign_[v])
        for (int s : var.statements)
          if (converted_statements_[static_cast<std::size_t>(s)].which == ir::statement::kind::assign)
            fail(converted_statements_[static_cast<std::size_t>(s)].pos, "`" + var.name + "` is declared `param`, an unknown; it cannot be assigned with `=`");
      var.role = has_assign_[v] ? ir::role::transformed_data : ir::role::unknown;
    }
  }
}

}  // namespace detail

}  // namespace ppl::lang
