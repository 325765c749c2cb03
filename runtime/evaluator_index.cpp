// Indexing: `x[i]`, `x[i, j]`, `x[:, j]`, `x[2:5]`. Leading single indices followed only by
// whole dimensions select a contiguous block, returned as a view without copying.
#include <array>

#include "runtime/evaluator.hpp"

namespace ppl::runtime {

using lang::ir::expr;
using lang::ir::index_item;

namespace {

struct selection {
  index_t first = 0;   // 0-based
  index_t count = 1;
  bool keep = false;   // a range keeps its dimension, a single index drops it
};

std::string describe(const expr& base, const lang::ir::model& m) {
  if (base.which == expr::kind::variable) return "`" + m.variables[static_cast<std::size_t>(base.slot)].name + "`";
  return "the expression";
}

// Copies the selected elements of `src` to `out`, dimension by dimension.
void gather(const view& src, const std::array<selection, max_rank>& sel, int dim, index_t offset, double*& out) {
  if (dim == src.shape.rank) {
    *out++ = src.data[offset];
    return;
  }
  index_t stride = src.shape.stride(dim);
  const auto& s = sel[static_cast<std::size_t>(dim)];
  for (index_t k = 0; k < s.count; ++k) gather(src, sel, dim + 1, offset + (s.first + k) * stride, out);
}

}  // namespace

view evaluator::eval_index_expr(const expr& e, frame& f) {
  const expr& base_expr = *e.args[0];
  // A variable is read through this index, not whole: take its storage without logging.
  view base = base_expr.which == expr::kind::variable ? (*f.values)[static_cast<std::size_t>(base_expr.slot)].as_view()
                                                      : eval(base_expr, f);
  std::array<selection, max_rank> sel{};
  int rank = base.shape.rank;
  bool contiguous = true;
  bool seen_range = false;
  for (int d = 0; d < rank; ++d) {
    auto& s = sel[static_cast<std::size_t>(d)];
    index_t extent = base.shape[d];
    if (d >= static_cast<int>(e.indices.size()) || e.indices[static_cast<std::size_t>(d)].which == index_item::kind::all) {
      s = {0, extent, true};
      seen_range = true;
      continue;
    }
    const index_item& item = e.indices[static_cast<std::size_t>(d)];
    if (item.which == index_item::kind::single) {
      index_t j = eval_index(*item.lo, f);
      if (j < 1 || j > extent)
        throw eval_error(item.lo->pos, "index " + std::to_string(j) + " is out of range 1.." + std::to_string(extent) +
                                           " for dimension " + std::to_string(d + 1) + " of " + describe(base_expr, model_));
      s = {j - 1, 1, false};
      if (seen_range) contiguous = false;
    } else {
      index_t lo = item.lo ? eval_index(*item.lo, f) : 1;
      index_t hi = item.hi ? eval_index(*item.hi, f) : extent;
      if (lo < 1 || hi > extent || lo > hi + 1)
        throw eval_error(e.pos, "range " + std::to_string(lo) + ":" + std::to_string(hi) + " is out of range 1.." +
                                    std::to_string(extent) + " for dimension " + std::to_string(d + 1) + " of " +
                                    describe(base_expr, model_));
      s = {lo - 1, hi - lo + 1, true};
      if (s.count != extent) contiguous = false;  // a partial range: gather (simple and safe)
      seen_range = true;
    }
  }
  shape out_shape;
  index_t offset = 0;
  for (int d = 0; d < rank; ++d) {
    const auto& s = sel[static_cast<std::size_t>(d)];
    offset += s.first * base.shape.stride(d);
    if (s.keep) out_shape.dims[static_cast<std::size_t>(out_shape.rank++)] = s.count;
  }
  if (contiguous) {
    if (log && base_expr.which == expr::kind::variable) note_read(base_expr.slot, base.data + offset, out_shape.size(), f);
    return {base.data + offset, out_shape};
  }
  auto& buffer = scratch_[static_cast<std::size_t>(e.id)];
  buffer.resize(static_cast<std::size_t>(out_shape.size()));
  double* out = buffer.data();
  gather(base, sel, 0, 0, out);
  if (log && base_expr.which == expr::kind::variable) {
    // Conservative: a strided selection counts as reading the whole variable.
    note_read(base_expr.slot, base.data, base.size(), f);
  }
  return {buffer.data(), out_shape};
}

}  // namespace ppl::runtime
