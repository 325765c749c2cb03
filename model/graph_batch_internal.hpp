#pragma once
// What model/graph_batch.cpp (a statement's values over all its instances) and
// model/graph_batch_backward.cpp (their adjoints) share.
#include <algorithm>

#include "model/graph.hpp"

namespace ppl::model {

namespace batch {

// Thrown inside a batch to send the statement back to the instance path.
struct not_batched {};

// Fewer instances than this go instance by instance: a batch's set-up would cost more.
constexpr index_t min_batch = 4;
// Plates up to this many rows keep the columns of their data-only expressions (graph's
// batch_kept_): recomputing them cost rats' means half their evaluation; above it the copy's
// memory (8 bytes a row a node) is left to the data itself.
constexpr index_t kept_rows = 1 << 16;
// Rows evaluated per pass: the nodes' columns are this long and reused from block to block,
// so they stay in cache, and a plate of 262,144 instances does not touch (and fault in) a
// fresh 2 MB array per node.
constexpr index_t block_rows = 4096;

// a * b of two scalars: the linear-algebra product, elementwise on a batch.
inline bool scalar_product(const lang::ir::expr& e) {
  return e.fn->name() == "*" && e.args.size() == 2 && e.args[0]->type.rank == 0 && e.args[1]->type.rank == 0;
}

// A call of scalars to a scalar that is not a map element by element (normal_lpdf(y[n] |
// mu, sigma), log_mix(theta, a, b)): a batch calls it row by row, through the function's
// own eval and backward on scalar views, without the tree walk of the instance path.
inline bool scalar_call(const lang::ir::expr& e) {
  if (e.type.rank != 0 || e.args.size() > 8) return false;
  for (const auto& a : e.args)
    if (a->type.rank != 0) return false;
  return true;
}

// Whether an element read's indices are free of unknowns: its offsets cannot change and
// are kept for every row; others are worked out block by block.
inline bool fixed_offsets(const lang::ir::expr& e) {
  return std::none_of(e.indices.begin(), e.indices.end(), [](const lang::ir::index_item& ix) { return ix.lo->depends_on_unknown; });
}

}  // namespace batch

// What a statement's batches keep: the instances and where their values go. The columns
// of its expression nodes live in the graph, by expression id (a node belongs to one
// statement), so a plan costs the size of its plate, not of the model.
struct graph::batch_plan {
  index_t rows = 0;
  index_t first = 0, count = 0;                  // the block of rows being evaluated
  std::vector<int> loop_slots;                   // the statement's loops, outermost first
  std::vector<std::vector<double>> loop_values;  // by loop, as loop_slots: the value at each row
  std::vector<index_t> target_offsets;           // sample, assign: the element each row is of
};

namespace batch {

// Sets p.first and p.count to each block of the plan's rows in turn and calls fn(); false
// as soon as fn() is.
template <class Plan, class F>  // Plan is graph::batch_plan, deduced (a private type cannot be named here)
bool for_each_block(Plan& p, F fn) {
  for (p.first = 0; p.first < p.rows; p.first += block_rows) {
    p.count = std::min(block_rows, p.rows - p.first);
    if (!fn()) return false;
  }
  return true;
}

}  // namespace batch

}  // namespace ppl::model
