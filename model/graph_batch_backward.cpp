// The reverse pass of a batch (model/graph_batch.cpp): the gradient of a plate's terms,
// and an `=` plate's adjoints passed on, block by block of rows. `for n in 1:N { y[n] ~
// Normal(a[g[n]] + b * x[n], s) }` is evaluated forward over a block as columns, each
// row's density gives the adjoints of its arguments into columns, and those go back
// through the nodes: an elementwise function's own backward over the block, a product by
// the other factor, an element read scattered into its variable's adjoint at the offsets
// the forward pass used (a[g[n]] adds into a's adjoint at g[n]). Nodes that use no loop
// variable (b, s, or exp(log_s)) have their adjoints summed over every row and passed back
// once, through the evaluator. This takes the plates graph_plate.cpp does not: several
// loops, gathers through data indices, targets at computed indices.
//
// A block refused after an earlier one has added its adjoints cannot be taken back; the
// refusals are an index out of range or an argument a function rejects, which the
// instance path reports as errors, and it is asked to (batch_refused_late).
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "model/graph_batch_internal.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::statement;
using batch::for_each_block;

void graph::collect_batch_invariants(const expr& e) {
  if (!e.depends_on_unknown) return;
  if (!varies(e)) {
    batch_adjoints_[static_cast<std::size_t>(e.id)].assign(1, 0.0);
    batch_invariants_.push_back(&e);
    return;
  }
  // An element read's indices are never differentiated (they are integers).
  if (e.which == expr::kind::call)
    for (const auto& a : e.args) collect_batch_invariants(*a);
}

void graph::batch_backward(batch_plan& p, const expr& e, std::span<double* const> slots) {
  if (!e.depends_on_unknown || !varies(e)) return;  // invariants: after the last block
  const auto id = static_cast<std::size_t>(e.id);
  const double* d = batch_adjoints_[id].data();
  const auto n = static_cast<std::size_t>(p.count);
  if (e.which == expr::kind::index) {
    double* to = slots[static_cast<std::size_t>(e.args[0]->slot)];
    if (!to) return;
    // The offsets of the forward pass over this block: kept for every row, or this block's.
    const index_t* o = batch_offsets_[id].data() + (batch::fixed_offsets(e) ? p.first : 0);
    for (std::size_t r = 0; r < n; ++r) to[o[r]] += d[r];
    return;
  }
  if (e.which != expr::kind::call) return;  // a loop variable
  // Each argument's adjoint: a fresh column for one that varies, the summed one of an
  // invariant, none for one free of unknowns.
  std::array<view, stdlib::max_params> args{};
  std::array<double*, stdlib::max_params> to{};
  const std::size_t k = e.args.size();
  for (std::size_t i = 0; i < k; ++i) {
    const expr& a = *e.args[i];
    const auto aid = static_cast<std::size_t>(a.id);
    const batch_column c = batch_seen_[aid];
    args[i] = c.varies ? view{c.data, shape::vector(p.count)} : view{c.data, shape::scalar()};
    if (!a.depends_on_unknown) continue;
    if (c.varies) batch_adjoints_[aid].assign(n, 0.0);
    to[i] = batch_adjoints_[aid].data();
  }
  if (batch::scalar_product(e)) {
    for (std::size_t i = 0; i < 2; ++i) {
      if (!to[i]) continue;
      const view& other = args[1 - i];
      const bool own = args[i].shape.rank != 0, theirs = other.shape.rank != 0;
      double sum = 0;
      for (std::size_t r = 0; r < n; ++r) {
        const double g = d[r] * other.data[theirs ? r : 0];
        if (own) to[i][r] += g;
        else sum += g;
      }
      if (!own) to[i][0] += sum;
    }
  } else if (!e.fn->elementwise() && batch::scalar_call(e)) {
    // Row by row, as batch_compute evaluated it: a varying argument's adjoint at the row, an
    // invariant's summed into its one slot.
    // Where the forward pass kept a row's partials, they are the backward.
    std::array<view, 8> row{};
    std::array<double*, 8> d_row{};
    const double* partials = batch_partials_[id].data();
    const char* given = batch_given_[id].data();
    if (std::all_of(given, given + n, [](char g) { return g != 0; })) {  // argument by argument, no branch per row
      for (std::size_t i = 0; i < k; ++i) {
        if (!to[i]) continue;
        if (args[i].shape.rank != 0) {
          for (std::size_t r = 0; r < n; ++r) to[i][r] += d[r] * partials[r * k + i];
          continue;
        }
        // Four sums, so that the adds do not wait on each other.
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        const double* q = partials + i;
        std::size_t r = 0;
        for (; r + 4 <= n; r += 4) {
          s0 += d[r] * q[r * k];
          s1 += d[r + 1] * q[(r + 1) * k];
          s2 += d[r + 2] * q[(r + 2) * k];
          s3 += d[r + 3] * q[(r + 3) * k];
        }
        for (; r < n; ++r) s0 += d[r] * q[r * k];
        to[i][0] += (s0 + s1) + (s2 + s3);
      }
      for (std::size_t i = 0; i < k; ++i) batch_backward(p, *e.args[i], slots);
      return;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (given[r]) {
        for (std::size_t i = 0; i < k; ++i)
          if (to[i]) to[i][args[i].shape.rank != 0 ? r : 0] += d[r] * partials[r * k + i];
        continue;
      }
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t at = args[i].shape.rank != 0 ? r : 0;
        row[i] = {args[i].data + at, shape::scalar()};
        d_row[i] = to[i] ? to[i] + at : nullptr;
      }
      e.fn->backward(std::span<const view>(row.data(), k), view{batch_columns_[id].data() + r, shape::scalar()}, d + r,
                     std::span<double* const>(d_row.data(), k));
    }
  } else {
    e.fn->backward(std::span<const view>(args.data(), k), view{batch_columns_[id].data(), shape::vector(p.count)}, d,
                   std::span<double* const>(to.data(), k));
  }
  for (std::size_t i = 0; i < k; ++i) batch_backward(p, *e.args[i], slots);
}

void graph::batch_refused_late(const statement& s) {
  try {
    for_each_instance(s, [&] {
      if (s.which == statement::kind::assign) assign_current(s);
      else if (s.which == statement::kind::sample) sample_term(s);
      else eval_.eval(*s.value, frame_);
    });
  } catch (const eval_error& e) {
    fail_in(s, e.pos, e.what());
  }
  throw std::logic_error("a batch refused a block of rows that the instance path accepts (statement at offset " +
                         std::to_string(s.pos) + ")");
}

// A block of `factor normal_lpdf(y[n] | mu[n], s)` as a `~` of its density: the rows'
// derivatives into the arguments' adjoint columns (the value's one per row, a shared
// value's summed into its slot), then back through the arguments.
double graph::factor_density_block(batch_plan& p, const statement& s, const std::array<batch_column, stdlib::max_params>& cols,
                                   std::span<double* const> slots) {
  const auto n = static_cast<std::size_t>(p.count);
  const auto& args = s.value->args;
  std::array<double*, stdlib::max_params> to{};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->depends_on_unknown) continue;
    auto& adjoint = batch_adjoints_[static_cast<std::size_t>(args[i]->id)];
    if (cols[i].varies) adjoint.assign(n, 0.0);
    to[i] = adjoint.data();
  }
  double* dx = to[0];
  if (dx && !cols[0].varies) {
    batch_dx_.assign(n, 0.0);
    dx = batch_dx_.data();
  }
  std::array<double*, stdlib::max_params> dp{};
  std::copy(to.begin() + 1, to.end(), dp.begin());
  const double block = batch_block_terms(s, p, cols, dp, dx);
  if (!std::isfinite(block)) return block;  // the gradient is unspecified
  if (dx && dx != to[0])
    for (std::size_t r = 0; r < n; ++r) to[0][0] += dx[r];
  for (const auto& a : args) batch_backward(p, *a, slots);
  return block;
}

bool graph::batch_differentiate(const statement& s, std::span<double* const> slots, double& total) {
  batch_plan* p = plan_batch(s);
  if (!p || s.args.size() > stdlib::max_params) return false;
  batch_invariants_.clear();
  if (s.which == statement::kind::factor) collect_batch_invariants(*s.value);
  else
    for (const auto& a : s.args) collect_batch_invariants(*a);
  double* value_slot = s.which == statement::kind::sample ? slots[static_cast<std::size_t>(s.target)] : nullptr;
  double sum = 0;
  bool invalid = false, started = false;
  const bool done = for_each_block(*p, [&] {
    const auto n = static_cast<std::size_t>(p->count);
    std::array<batch_column, stdlib::max_params> cols{};
    if (!batch_term_columns(*p, s, cols)) return false;
    started = true;
    if (factor_density(s)) {
      sum += factor_density_block(*p, s, cols, slots);
      return true;
    }
    if (s.which == statement::kind::factor) {
      sum += batch_block_terms(s, *p, cols, {}, nullptr);
      if (s.value->depends_on_unknown && cols[0].varies) {
        batch_adjoints_[static_cast<std::size_t>(s.value->id)].assign(n, 1.0);
        batch_backward(*p, *s.value, slots);
      } else if (s.value->depends_on_unknown) {
        batch_adjoints_[static_cast<std::size_t>(s.value->id)][0] += static_cast<double>(n);
      }
      return true;
    }
    // The rows' densities, their arguments' adjoints into columns (or invariant sums) and
    // the values' into dx.
    std::array<double*, stdlib::max_params> dp{};
    for (std::size_t i = 0; i < s.args.size(); ++i) {
      const auto aid = static_cast<std::size_t>(s.args[i]->id);
      if (!s.args[i]->depends_on_unknown) continue;
      if (cols[i].varies) batch_adjoints_[aid].assign(n, 0.0);
      dp[i] = batch_adjoints_[aid].data();
    }
    if (value_slot) batch_dx_.assign(n, 0.0);
    const double block = batch_block_terms(s, *p, cols, dp, value_slot ? batch_dx_.data() : nullptr);
    if (block == -INFINITY) {  // an invalid parameter, or a value outside the support
      invalid = true;
      return false;
    }
    sum += block;
    const index_t* offsets = p->target_offsets.data() + p->first;
    if (value_slot)
      for (std::size_t r = 0; r < n; ++r) value_slot[offsets[r]] += batch_dx_[r];
    for (std::size_t i = 0; i < s.args.size(); ++i) batch_backward(*p, *s.args[i], slots);
    return true;
  });
  if (invalid) {  // outside the support: the gradient is unspecified
    total = -INFINITY;
    return true;
  }
  if (!done) {
    if (started) batch_refused_late(s);
    return false;
  }
  for (const expr* e : batch_invariants_) eval_.backward(*e, frame_, batch_adjoints_[static_cast<std::size_t>(e->id)].data(), slots);
  total = sum;
  return true;
}

bool graph::batch_pass_back(const statement& s, std::span<double* const> slots) {
  batch_plan* p = plan_batch(s);
  if (!p) return false;
  batch_invariants_.clear();
  collect_batch_invariants(*s.value);
  const double* from = slots[static_cast<std::size_t>(s.target)];
  bool started = false;
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  const bool fresh = index < batch_fresh_.size() && batch_fresh_[index];
  const bool done = for_each_block(*p, [&] {
    batch_column c;
    if (fresh) c = batch_seen_[static_cast<std::size_t>(s.value->id)];  // one block, computed by this gradient's recompute
    else if (!batch_try(*p, *s.value, c)) return false;
    started = true;
    const index_t* offsets = p->target_offsets.data() + p->first;
    auto& d = batch_adjoints_[static_cast<std::size_t>(s.value->id)];
    if (c.varies) {
      d.resize(static_cast<std::size_t>(p->count));
      for (index_t r = 0; r < p->count; ++r) d[static_cast<std::size_t>(r)] = from[offsets[r]];
      batch_backward(*p, *s.value, slots);
    } else {
      for (index_t r = 0; r < p->count; ++r) d[0] += from[offsets[r]];
    }
    return true;
  });
  if (!done) {
    if (started) batch_refused_late(s);
    return false;
  }
  for (const expr* e : batch_invariants_) eval_.backward(*e, frame_, batch_adjoints_[static_cast<std::size_t>(e->id)].data(), slots);
  return true;
}

}  // namespace ppl::model
