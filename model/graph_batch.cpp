// A statement evaluated over all its instances at once. `for n in 1:N { y[n] ~
// Poisson(lambda[g[n]]) }` becomes one column of loop values, one gather of lambda at the
// offsets g gives (worked out once: g is data), and N densities in a tight loop, instead
// of N walks of the expression tree; `site_energy[i, j] = -s[i, j] * (s[i % L + 1, j] +
// ...)` becomes a few elementwise passes over L^2 values and one scatter.
//
// Rows go through in blocks of 4,096: each node's column is one block long and reused, so
// a large plate's pass stays in cache and allocates nothing after its first. What is kept
// for every row is only what cannot change: the loop values, the target's offsets, and
// the offsets of element reads whose indices are free of unknowns.
//
// Which statements qualify is decided once, from their structure: loops whose bounds are
// free of unknowns; one scalar element of the target per instance, at indices free of
// unknowns; expressions made of constants, loop variables, scalar variables, elements of
// variables at scalar indices, elementwise functions of those, and scalar sub-expressions
// that use no loop variable (evaluated once). An `=` statement that reads its own target
// (x[t] = x[t - 1] + ...) goes instance by instance, in order. At run time anything
// unexpected (an index out of range, an argument a function refuses) sends the statement
// back to the instance-by-instance path, which reports the error with its position.
#include <algorithm>
#include <cmath>
#include <functional>

#include "model/graph_batch_internal.hpp"
#include "stdlib/function_groups.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::index_item;
using lang::ir::statement;
using batch::block_rows;
using batch::for_each_block;
using batch::min_batch;
using batch::not_batched;
using batch::scalar_product;

namespace {

bool batchable(const expr& e) {
  if (!lang::ir::uses_loop_variable(e)) return e.type.rank == 0;
  if (e.type.rank != 0) return false;
  switch (e.which) {
    case expr::kind::loop_var:
      return true;
    case expr::kind::index: {
      if (e.args[0]->which != expr::kind::variable || e.args[0]->type.rank != static_cast<int>(e.indices.size())) return false;
      for (const auto& ix : e.indices)
        if (ix.which != index_item::kind::single || !batchable(*ix.lo)) return false;
      return true;
    }
    case expr::kind::call:
      if (!e.fn->elementwise() && !scalar_product(e) && !batch::scalar_call(e)) return false;
      for (const auto& a : e.args)
        if (!batchable(*a)) return false;
      return true;
    default:
      return false;
  }
}

bool reads(const expr* e, int variable) {
  std::vector<int> out;
  lang::ir::collect_reads(e, out);
  return std::find(out.begin(), out.end(), variable) != out.end();
}

}  // namespace

graph::batch_plan* graph::plan_batch(const statement& s) {
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (batch_tried_.size() != model_.statements.size()) {
    batch_tried_.assign(model_.statements.size(), 0);
    batch_plans_.assign(model_.statements.size(), nullptr);
  }
  if (batch_tried_[index]) return batch_plans_[index].get();
  batch_tried_[index] = 1;
  if (s.loops.empty()) return nullptr;
  if (!instances_fixed(s)) return nullptr;
  if (s.which != statement::kind::factor &&
      static_cast<int>(s.target_indices.size()) != values_[static_cast<std::size_t>(s.target)].shape.rank)
    return nullptr;
  if (s.which == statement::kind::sample) {
    if (s.dist->value_rank() != 0) return nullptr;
    for (const auto& a : s.args)
      if (!batchable(*a)) return nullptr;
  } else {
    if (!batchable(*s.value)) return nullptr;
    if (s.which == statement::kind::assign && reads(s.value.get(), s.target)) return nullptr;
  }
  auto p = std::make_shared<batch_plan>();
  // The instances, and the element of the target each is of.
  for (const auto& l : s.loops) p->loop_slots.push_back(l.slot);
  p->loop_values.resize(s.loops.size());
  for_each_instance(s, [&] {
    for (std::size_t k = 0; k < s.loops.size(); ++k)
      p->loop_values[k].push_back(static_cast<double>(frame_.loop[static_cast<std::size_t>(s.loops[k].slot)]));
    if (s.which != statement::kind::factor) p->target_offsets.push_back(target_offset(s, 1));
  });
  p->rows = static_cast<index_t>(p->loop_values[0].size());
  if (p->rows < min_batch) return nullptr;
  const auto nodes = static_cast<std::size_t>(model_.expr_count);
  if (batch_columns_.size() != nodes) {
    batch_columns_.resize(nodes);
    batch_partials_.resize(nodes);
    batch_given_.resize(nodes);
    batch_support_seen_.assign(nodes, {nullptr, 0});
    batch_offsets_.resize(nodes);
    batch_offsets_fixed_.assign(nodes, 0);
    batch_kept_.resize(nodes);
    batch_kept_ready_.assign(nodes, 0);
    batch_seen_.resize(nodes);
    batch_adjoints_.resize(nodes);
    mark_varies();
  }
  batch_plans_[index] = std::move(p);
  return batch_plans_[index].get();
}

void graph::mark_varies() {
  if (varies_.size() == static_cast<std::size_t>(model_.expr_count)) return;
  varies_.assign(static_cast<std::size_t>(model_.expr_count), 0);
  std::function<bool(const expr*)> mark = [&](const expr* e) {
    if (!e) return false;
    // Every child is marked, whatever the others say.
    bool v = e->which == expr::kind::loop_var;
    for (const auto& a : e->args) v = mark(a.get()) || v;
    for (const auto& ix : e->indices) {
      const bool lo = mark(ix.lo.get()), hi = mark(ix.hi.get());
      v = v || lo || hi;
    }
    varies_[static_cast<std::size_t>(e->id)] = v;
    return v;
  };
  for (const statement& s : model_.statements) {
    for (const auto& a : s.args) mark(a.get());
    for (const auto& t : s.target_indices) mark(t.get());
    mark(s.target_from.get());
    mark(s.target_to.get());
    mark(s.value.get());
  }
}

graph::batch_column graph::batch_eval(batch_plan& p, const expr& e) {
  const batch_column c = batch_compute(p, e);
  batch_seen_[static_cast<std::size_t>(e.id)] = c;
  return c;
}

graph::batch_column graph::batch_compute(batch_plan& p, const expr& e) {
  const auto id = static_cast<std::size_t>(e.id);
  if (!varies(e)) {
    try {
      return {eval_.eval(e, frame_).data, false};
    } catch (const eval_error&) {
      throw not_batched{};
    }
  }
  const auto n = static_cast<std::size_t>(p.count);
  if (e.which == expr::kind::loop_var) {
    const auto k = std::find(p.loop_slots.begin(), p.loop_slots.end(), e.slot) - p.loop_slots.begin();
    return {p.loop_values[static_cast<std::size_t>(k)].data() + p.first, true};
  }
  // A column of data alone is the same at every evaluation: computed once, then read.
  if (!e.depends_on_unknown && p.rows <= batch::kept_rows) {
    auto& kept = batch_kept_[id];
    if (batch_kept_ready_[id]) return {kept.data() + p.first, true};
    const batch_column c = batch_varying(p, e);
    kept.resize(static_cast<std::size_t>(p.rows));
    std::copy(c.data, c.data + n, kept.begin() + p.first);
    batch_kept_ready_[id] = p.first + p.count == p.rows;  // complete after the last block
    return {kept.data() + p.first, true};
  }
  return batch_varying(p, e);
}

// batch_compute's work for an expression that varies over the plate: its column for this
// block, computed from its arguments' columns.
graph::batch_column graph::batch_varying(batch_plan& p, const expr& e) {
  const auto id = static_cast<std::size_t>(e.id);
  const auto n = static_cast<std::size_t>(p.count);
  auto& out = batch_columns_[id];
  out.resize(n);
  if (e.which == expr::kind::index) {
    const tensor& base = values_[static_cast<std::size_t>(e.args[0]->slot)];
    // Row-major offsets of the elements read, from the index columns. Indices free of
    // unknowns give offsets that cannot change: they are kept for every row, filled block
    // by block on the first pass; others are worked out for each block.
    const bool fixed = batch::fixed_offsets(e);
    auto& offsets = batch_offsets_[id];
    const index_t at = fixed ? p.first : 0;
    if (!batch_offsets_fixed_[id]) {
      offsets.resize(static_cast<std::size_t>(fixed ? p.rows : p.count));
      std::fill_n(offsets.begin() + at, n, 0);
      for (std::size_t k = 0; k < e.indices.size(); ++k) {
        const batch_column c = batch_eval(p, *e.indices[k].lo);
        const index_t extent = base.shape[static_cast<int>(k)];
        for (std::size_t r = 0; r < n; ++r) {
          const double i = c.data[c.varies ? r : 0];
          if (!(i >= 1 && i <= static_cast<double>(extent))) throw not_batched{};
          auto& o = offsets[static_cast<std::size_t>(at) + r];
          o = o * extent + static_cast<index_t>(i) - 1;
        }
      }
      batch_offsets_fixed_[id] = fixed && p.first + p.count == p.rows;  // complete after the last block
    }
    const double* from = base.data.data();
    const index_t* o = offsets.data() + at;
    for (std::size_t r = 0; r < n; ++r) out[r] = from[o[r]];
    return {out.data(), true};
  }
  // An elementwise call: its arguments' columns, invariant ones broadcast by the function.
  std::array<view, stdlib::max_params> args{};
  if (e.args.size() > args.size()) throw not_batched{};
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    const batch_column c = batch_eval(p, *e.args[i]);
    args[i] = c.varies ? view{c.data, shape::vector(p.count)} : view{c.data, shape::scalar()};
  }
  if (scalar_product(e)) {
    const double *a = args[0].data, *b = args[1].data;
    const bool va = args[0].shape.rank != 0, vb = args[1].shape.rank != 0;
    for (std::size_t r = 0; r < n; ++r) out[r] = stdlib::times(a[va ? r : 0], b[vb ? r : 0]);
    return {out.data(), true};
  }
  const std::span<const view> in(args.data(), e.args.size());
  if (!e.fn->elementwise() && batch::scalar_call(e)) {
    batch_scalar_rows(e, in, n, out.data());
    return {out.data(), true};
  }
  try {
    if (e.fn->result_shape(in).size() != p.count) throw not_batched{};
    e.fn->eval(in, out.data());
  } catch (const stdlib::argument_error&) {
    throw not_batched{};
  }
  return {out.data(), true};
}

// A scalar call that is no map (normal_lpdf(y[n] | mu, s), log_mix) row by row through
// the function's own eval, its checks of each row's arguments included (a refusal sends
// the statement back to the instance path). The partials each row gives with its value
// are kept for the reverse pass (graph_batch_backward.cpp).
void graph::batch_scalar_rows(const expr& e, std::span<const view> args, std::size_t n, double* out) {
  std::array<view, 8> row{};
  const std::size_t k = e.args.size();
  for (std::size_t i = 0; i < k; ++i) row[i] = {args[i].data, shape::scalar()};
  const std::span<const view> one(row.data(), k);
  auto& partials = batch_partials_[static_cast<std::size_t>(e.id)];
  auto& given = batch_given_[static_cast<std::size_t>(e.id)];
  if (partials.size() < n * k) partials.resize(n * k);
  if (given.size() < n) given.resize(n);
  if (density_rows(e, args, n, out)) return;
  if (e.fn->eval_partials_rows(args.first(k), n, out, partials.data())) {
    std::fill_n(given.begin(), n, 1);
    return;
  }
  try {
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t i = 0; i < k; ++i) row[i].data = args[i].data + (args[i].shape.rank != 0 ? r : 0);
      e.fn->result_shape(one);
      given[r] = e.fn->eval_partials(one, out + r, partials.data() + r * k);
    }
  } catch (const stdlib::argument_error&) {
    throw not_batched{};
  }
}

// A log density of scalars per row (normal_lpdf(y[n] | mu[1], sigma[1]) inside a log_mix):
// each row's value and partials from its distribution's log_density_each, all rows in one
// call, once the block's values are known to lie in the support. False, with nothing kept,
// for any other call or a block with a value outside the support; a row whose parameters
// are refused is evaluated again by eval_partials, which says NaN.
bool graph::density_rows(const expr& e, std::span<const view> args, std::size_t n, double* out) {
  const stdlib::distribution* d = e.fn->rows_density();
  const std::size_t k = e.args.size();
  if (!d || k > stdlib::max_params) return false;
  const std::size_t nparams = k - 1;
  const stdlib::rows_params all = stdlib::rows_of(args.subspan(1));
  const index_t sx = args[0].shape.rank != 0 ? 1 : 0;
  const double* x = args[0].data;
  if (sx == 1) {
    auto& seen = batch_support_seen_[static_cast<std::size_t>(e.id)];
    const bool fixed = !e.args[0]->depends_on_unknown && !d->support_moves();
    if (!fixed || seen != std::pair<const double*, std::size_t>{x, n}) {
      if (!d->rows_in_support(all, nparams, x, static_cast<index_t>(n))) return false;
      if (fixed) seen = {x, n};
    }
  } else if (!d->support_moves()) {
    if (!d->rows_in_support(all, nparams, x, 1)) return false;
  } else {
    return false;
  }
  double* partials = batch_partials_[static_cast<std::size_t>(e.id)].data();
  char* given = batch_given_[static_cast<std::size_t>(e.id)].data();
  d->log_density_each(all, nparams, x, sx, static_cast<index_t>(n), out, partials);
  std::fill_n(given, n, 1);
  for (std::size_t r = 0; r < n; ++r) {
    double* p = partials + r * k;
    if (!std::isfinite(out[r])) {
      std::array<view, stdlib::max_params> row{};
      for (std::size_t i = 0; i < k; ++i) row[i] = {args[i].data + (args[i].shape.rank != 0 ? r : 0), shape::scalar()};
      given[r] = e.fn->eval_partials(std::span<const view>(row.data(), k), out + r, p);
    }
  }
  return true;
}

bool graph::batch_try(batch_plan& p, const expr& e, batch_column& out) {
  try {
    out = batch_eval(p, e);
    return true;
  } catch (const not_batched&) {
    return false;
  }
}

const stdlib::distribution* graph::factor_density(const statement& s) const {
  if (s.which != statement::kind::factor || s.value->which != expr::kind::call || !varies(*s.value)) return nullptr;
  const expr& e = *s.value;
  if (e.args.size() > stdlib::max_params || !batch::scalar_call(e)) return nullptr;
  return e.fn->rows_density();
}

bool graph::batch_term_columns(batch_plan& p, const statement& s, std::array<batch_column, stdlib::max_params>& cols) {
  if (s.which == statement::kind::factor && !factor_density(s)) return batch_try(p, *s.value, cols[0]);
  const auto& args = s.which == statement::kind::factor ? s.value->args : s.args;
  for (std::size_t i = 0; i < args.size(); ++i)
    if (!batch_try(p, *args[i], cols[i])) return false;
  return true;
}

double graph::batch_block_terms(const statement& s, batch_plan& p, const std::array<batch_column, stdlib::max_params>& cols,
                                const std::array<double*, stdlib::max_params>& dp, double* dx) {
  const auto n = static_cast<std::size_t>(p.count);
  const stdlib::distribution* density = factor_density(s);
  if (s.which == statement::kind::factor && !density) {
    double sum = 0;
    for (std::size_t r = 0; r < n; ++r) sum += cols[0].data[cols[0].varies ? r : 0];
    return sum;
  }
  // A factor's columns are its density's value, then its parameters.
  const std::size_t first = density ? 1 : 0, nparams = (density ? s.value->args.size() : s.args.size()) - first;
  stdlib::rows_params rows;
  for (std::size_t i = 0; i < nparams; ++i) {
    rows.p[i] = cols[first + i].data;
    rows.step[i] = cols[first + i].varies ? 1 : 0;
    rows.dp[i] = dp[i];
  }
  if (density) {
    const double* x = cols[0].data;
    if (!cols[0].varies) {  // one value for every row: factor normal_lpdf(0 | mu[n], s)
      batch_x_.assign(n, x[0]);
      x = batch_x_.data();
    }
    const double sum = stdlib::checked_log_density_rows(*density, rows, nparams, x, dx, p.count);
    if (std::isfinite(sum)) return sum;
    // A row refused: the call row by row says which way (NaN for a parameter, -inf for a
    // value outside the support), as the instance path would. Its columns are this
    // block's, so it cannot refuse now; if it did, NaN still refuses the point.
    batch_column c;
    if (!batch_try(p, *s.value, c)) return NAN;
    double all = 0;
    for (std::size_t r = 0; r < n; ++r) all += c.data[c.varies ? r : 0];
    return all;
  }
  const double* values = values_[static_cast<std::size_t>(s.target)].data.data();
  const index_t* offsets = p.target_offsets.data() + p.first;
  batch_x_.resize(n);
  for (std::size_t r = 0; r < n; ++r) batch_x_[r] = values[offsets[r]];
  const bool check = needs_check_[static_cast<std::size_t>(&s - model_.statements.data())] != 0;
  return s.dist->log_density_rows(rows, nparams, batch_x_.data(), dx, p.count, check);
}

bool graph::batch_log_density(const statement& s, double& total) {
  batch_plan* p = plan_batch(s);
  if (!p || s.args.size() > stdlib::max_params) return false;
  double sum = 0;
  // Every block is evaluated, as the instance path evaluates every instance: a later
  // block's refusal (an index out of range) is then reported by the instance path.
  const bool done = for_each_block(*p, [&] {
    std::array<batch_column, stdlib::max_params> cols{};
    if (!batch_term_columns(*p, s, cols)) return false;
    sum += batch_block_terms(s, *p, cols, {}, nullptr);
    return true;
  });
  if (!done) return false;
  total = sum;
  return true;
}

bool graph::batch_assign(const statement& s) {
  batch_plan* p = plan_batch(s);
  if (!p) return false;
  double* to = values_[static_cast<std::size_t>(s.target)].data.data();
  // A block refused after others were written leaves them written: the instance path that
  // follows writes every element again.
  const bool done = for_each_block(*p, [&] {
    batch_column c;
    if (!batch_try(*p, *s.value, c)) return false;
    const index_t* offsets = p->target_offsets.data() + p->first;
    for (index_t r = 0; r < p->count; ++r) to[offsets[r]] = c.data[c.varies ? r : 0];
    return true;
  });
  batch_one_block_ = done && p->rows <= block_rows ? &s : nullptr;
  return done;
}

}  // namespace ppl::model
