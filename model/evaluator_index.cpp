// Indexing: `x[i]`, `x[i, j]`, `x[:, j]`, `x[2:5]`. Leading single indices followed only by
// whole dimensions select a contiguous block, returned as a view without copying.
#include <array>

#include "model/evaluator.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::index_item;

namespace {

using selection_array = std::array<evaluator::selection, max_rank>;

std::string describe(const expr& base, const lang::ir::model& m) {
  if (base.which == expr::kind::variable) return "`" + m.variables[static_cast<std::size_t>(base.slot)].name + "`";
  return "the expression";
}

// Copies the selected elements of `src` to `out`, dimension by dimension.
void gather(const view& src, const selection_array& sel, int dim, index_t offset, double*& out) {
  if (dim == src.shape.rank) {
    *out++ = src.data[offset];
    return;
  }
  index_t stride = src.shape.stride(dim);
  const auto& s = sel[static_cast<std::size_t>(dim)];
  for (index_t k = 0; k < s.count; ++k) gather(src, sel, dim + 1, offset + (s.first + k) * stride, out);
}

}  // namespace

void evaluator::scatter_add(const index_plan& p, const double* from, double* base_adjoint) {
  if (p.contiguous) {
    for (index_t i = 0; i < p.out.size(); ++i) base_adjoint[p.offset + i] += from[i];
    return;
  }
  // The reverse of gather: walk the selection in the same order, adding instead of reading.
  struct walker {
    const index_plan& p;
    double* to;
    const double*& from;
    void go(int dim, index_t offset) {
      if (dim == p.base.shape.rank) {
        to[offset] += *from++;
        return;
      }
      index_t stride = p.base.shape.stride(dim);
      const auto& s = p.sel[static_cast<std::size_t>(dim)];
      for (index_t k = 0; k < s.count; ++k) go(dim + 1, offset + (s.first + k) * stride);
    }
  };
  walker{p, base_adjoint, from}.go(0, 0);
}

evaluator::index_plan evaluator::plan_index(const expr& e, frame& f) {
  const expr& base_expr = *e.args[0];
  index_plan p;
  // A variable is read through this index, not whole: take its storage without logging.
  p.base = base_expr.which == expr::kind::variable ? (*f.values)[static_cast<std::size_t>(base_expr.slot)].as_view()
                                                   : eval(base_expr, f);
  const view& base = p.base;
  auto& sel = p.sel;
  int rank = base.shape.rank;
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
      if (seen_range) p.contiguous = false;
    } else {
      index_t lo = item.lo ? eval_index(*item.lo, f) : 1;
      index_t hi = item.hi ? eval_index(*item.hi, f) : extent;
      if (lo < 1 || hi > extent || lo > hi + 1)
        throw eval_error(e.pos, "range " + std::to_string(lo) + ":" + std::to_string(hi) + " is out of range 1.." +
                                    std::to_string(extent) + " for dimension " + std::to_string(d + 1) + " of " +
                                    describe(base_expr, model_));
      s = {lo - 1, hi - lo + 1, true};
      if (s.count != extent) p.contiguous = false;  // a partial range: gather (simple and safe)
      seen_range = true;
    }
  }
  for (int d = 0; d < rank; ++d) {
    const auto& s = sel[static_cast<std::size_t>(d)];
    p.offset += s.first * base.shape.stride(d);
    if (s.keep) p.out.dims[static_cast<std::size_t>(p.out.rank++)] = s.count;
  }
  return p;
}

view evaluator::eval_index_expr(const expr& e, frame& f) {
  const expr& base_expr = *e.args[0];
  index_plan p = plan_index(e, f);
  if (p.contiguous) {
    if (log && base_expr.which == expr::kind::variable) note_read(base_expr.slot, p.base.data + p.offset, p.out.size(), f);
    return {p.base.data + p.offset, p.out};
  }
  auto& buffer = scratch_[static_cast<std::size_t>(e.id)];
  buffer.resize(static_cast<std::size_t>(p.out.size()));
  double* out = buffer.data();
  gather(p.base, p.sel, 0, 0, out);
  if (log && base_expr.which == expr::kind::variable) {
    if (exact_log) {
      // The selection's elements one by one, in gather's order.
      struct walker {
        const index_plan& p;
        read_log& log;
        int variable;
        void go(int dim, index_t offset) {
          if (dim == p.base.shape.rank) {
            log.push_back({variable, offset, 1});
            return;
          }
          index_t stride = p.base.shape.stride(dim);
          const auto& s = p.sel[static_cast<std::size_t>(dim)];
          for (index_t k = 0; k < s.count; ++k) go(dim + 1, offset + (s.first + k) * stride);
        }
      };
      walker{p, *log, base_expr.slot}.go(0, 0);
    } else {
      // Conservative: a strided selection counts as reading the whole variable.
      note_read(base_expr.slot, p.base.data, p.base.size(), f);
    }
  }
  return {buffer.data(), p.out};
}

}  // namespace ppl::model
