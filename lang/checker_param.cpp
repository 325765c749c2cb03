// `param NAME: TYPE` declarations: an unknown's type, shape and bounds, as a Stan user
// declares a parameter. One with a `~` gets its prior there and the declaration only fixes
// its type and shape; one without gets Stan's implicit prior, flat on the declared support
// (stdlib/flat.hpp): improper on the reals or a half-line, Uniform(lower, upper) between
// two bounds that are data, and flat (not normalised) between bounds that follow unknowns. `ordered[K]` and `positive_ordered[K]` mark the variable (ir::variable::
// constraint); the graph and the samplers keep it ordered.
#include <algorithm>

#include "lang/checker_impl.hpp"
#include "stdlib/flat.hpp"

namespace ppl::lang::detail {

using ir::expr;
using ir::expr_ptr;
using stdlib::scalar_kind;

void checker::declare_param(const ast::param_decl& d, const ast::statement& s) {
  if (int existing = model_.find(d.name.name); existing >= 0)
    fail(d.name.pos, "`" + d.name.name + "` is already declared (line " +
                         std::to_string(model_.lines.locate(model_.variables[static_cast<std::size_t>(existing)].pos).line) + ")");
  for (const auto& [name, slot] : scope_)
    if (name == d.name.name) fail(d.name.pos, "`" + name + "` is a loop variable and cannot be declared");
  const int v = add_variable(d.name.name, d.name.pos);
  params_[static_cast<std::size_t>(v)].decl = &d;
  param_decls_.emplace_back(&d, &s);
}

// A param that no `~` defines is defined by its declaration: the flat prior.
void checker::add_flat_priors() {
  for (const auto& [d, s] : param_decls_) {
    const auto v = static_cast<std::size_t>(model_.find(d->name.name));
    if (has_sample_[v]) continue;
    has_sample_[v] = 1;
    if (first_definition_[v] < 0) first_definition_[v] = static_cast<int>(flat_.size());
    flat_.push_back({s, {}});
  }
}

void checker::convert_param_decls() {
  for (const auto& [d, s] : param_decls_) {
    const auto v = static_cast<std::size_t>(model_.find(d->name.name));
    auto& var = model_.variables[v];
    auto& info = params_[v];
    var.type = {d->type.scalar == "int" ? scalar_kind::integer : scalar_kind::real, static_cast<int>(d->type.dims.size())};
    if (d->type.scalar == "ordered" || d->type.scalar == "positive_ordered") check_ordered(*d, var);
    if (var.type.rank > ppl::max_rank)
      fail(d->type.pos, "arrays have at most " + std::to_string(ppl::max_rank) + " dimensions");
    type_state_[v] = 2;
    for (const auto& dim : d->type.dims) info.dims.push_back(require_int_scalar(convert(dim), "a size"));
    for (const auto& b : d->type.bounds) {
      expr_ptr e = convert(b.value);
      if (e->type.rank != 0) fail(e->pos, "a bound must be a scalar, not " + stdlib::to_string(e->type));
      auto& slot = b.which == "lower" ? info.bounds.lower : info.bounds.upper;
      if (slot) fail(b.pos, "`" + var.name + "` has two " + b.which + " bounds");
      slot = std::move(e);
    }
    const bool has_prior = flat_[static_cast<std::size_t>(first_definition_[v])].node != s;
    if (!has_prior && var.type.kind == scalar_kind::integer)
      fail(d->pos, "`" + var.name + "` is an int `param` without a prior; give it one with `~` (a flat prior on integers is not supported)");
  }
}

// `ordered[K]`, `positive_ordered[K]`: a vector of K reals, increasing (and positive), as in
// Stan; its elements' prior (a vectorised `~`, or the flat one) applies on that set.
void checker::check_ordered(const ast::param_decl& d, ir::variable& var) {
  if (d.type.dims.size() != 1)
    fail(d.type.pos, "`" + var.name + "` is " + d.type.scalar + ": a vector, with one size (`" + d.type.scalar + "[K]`), not " +
                         std::to_string(d.type.dims.size()));
  if (!d.type.bounds.empty())
    fail(d.type.bounds.front().pos, "`" + var.name + "` is " + d.type.scalar + ", which takes no bounds" +
                                        (d.type.scalar == "ordered" ? " (positive_ordered is the one above 0)" : ""));
  var.constraint = d.type.scalar == "ordered" ? ir::vector_constraint::ordered : ir::vector_constraint::positive_ordered;
}

// The flat prior of a param declared without `~`, over its whole shape.
void checker::convert_flat_prior(const ast::param_decl& d, ir::statement& out) {
  const auto v = static_cast<std::size_t>(model_.find(d.name.name));
  auto& info = params_[v];
  out.which = ir::statement::kind::sample;
  out.pos = d.pos;
  out.target = static_cast<int>(v);
  out.dist_name = "Flat";
  if (info.bounds.lower && info.bounds.upper) {
    // Flat between two bounds is a proper prior: Uniform, which ancestral sampling and
    // `ppl simulate` can draw.
    out.dist = lib_.find_distribution("Uniform");
    out.dist_name = "Uniform";
    out.args.push_back(clone(*info.bounds.lower));
    out.args.push_back(clone(*info.bounds.upper));
    bounded_flat_.push_back(current_statement_);
  } else if (info.bounds.lower) {
    out.dist = &stdlib::flat_bounded_below();
    out.args.push_back(clone(*info.bounds.lower));
  } else if (info.bounds.upper) {
    out.dist = &stdlib::flat_bounded_above();
    out.args.push_back(clone(*info.bounds.upper));
  } else {
    out.dist = lib_.find_distribution("Flat");
  }
  vectorise(out, d.name.pos, d.name.name);
  model_.variables[v].statements.push_back(current_statement_);
}

// The first unknown (or variable derived from unknowns) an expression reads, or -1. Asked
// once the roles are known.
int checker::unknown_read(const ir::expr& e) const {
  std::vector<int> reads;
  ir::collect_reads(&e, reads);
  for (int r : reads) {
    const auto role = model_.variables[static_cast<std::size_t>(r)].role;
    if (role == ir::role::unknown || role == ir::role::derived) return r;
  }
  return -1;
}

// Bounds that follow other unknowns on a param with a prior: Stan leaves that prior
// unnormalised (its posterior has no -log(F(upper) - F(lower)) term), ppl's T[] would
// normalise it, and the two posteriors differ; the model must say which it means.
void checker::check_declared_truncation(int i, const ir::statement& s) const {
  if (std::find(declared_truncations_.begin(), declared_truncations_.end(), i) == declared_truncations_.end()) return;
  const auto& var = model_.variables[static_cast<std::size_t>(s.target)];
  const auto& bounds = params_[static_cast<std::size_t>(s.target)].bounds;
  // The bounds are the restricted distribution's last arguments.
  const std::size_t first_bound = s.args.size() - (bounds.lower ? 1 : 0) - (bounds.upper ? 1 : 0);
  for (std::size_t k = first_bound; k < s.args.size(); ++k) {
    const int r = unknown_read(*s.args[k]);
    if (r < 0) continue;
    fail(s.args[k]->pos, "`" + var.name + "` has a prior and bounds that follow the unknown `" + model_.variables[static_cast<std::size_t>(r)].name +
                             "`: Stan leaves such a prior unnormalised, a truncation normalises it, and the posteriors differ; "
                             "say which you mean: drop the bounds and write `" + var.name +
                             " ~ D(...) T[lower, upper]` (normalised), or keep them, drop the `~` and add `factor` with D's log density (Stan's)");
  }
}

// Between bounds that follow other unknowns (`real<lower=0, upper=1 - a>`), Uniform's
// -log(upper - lower) would be a term of the posterior that Stan's flat prior does not have
// (posteriordb's garch11 moves by 6 standard errors); the prior there is flat and improper.
void checker::settle_bounded_flat_prior(int i, ir::statement& s) const {
  if (std::find(bounded_flat_.begin(), bounded_flat_.end(), i) == bounded_flat_.end()) return;
  if (std::none_of(s.args.begin(), s.args.end(), [&](const auto& a) { return unknown_read(*a) >= 0; })) return;
  s.dist = &stdlib::flat_between();
  s.dist_name = "Flat";
}

}  // namespace ppl::lang::detail
