// Replaying a recorded tape (model/tape.hpp): the forward pass as a loop over its calls,
// the reverse pass as the evaluator's backward() over recorded nodes. Each step mirrors
// model/evaluator.cpp and model/evaluator_backward.cpp operation for operation (the same
// functions on the same values, adjoints added in the same order), so that a taped
// statement's gradient is bit for bit the instance path's.
#include <algorithm>
#include <array>

#include "model/tape.hpp"
#include "stdlib/function.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::model {

bool tape::forward(std::vector<tensor>& values, int target) {
  std::size_t next = 0;
  try {
    for (const instance& in : instances) {
      for (; next <= in.root; ++next) {
        node& n = nodes_[next];
        if (!n.depends) continue;
        switch (n.which) {
          case kind::call: {
            const view* a = arg_views_.data() + n.first;
            double* out = values_.data() + n.value;
            switch (n.how) {
              case op::unary:
                *out = static_cast<const stdlib::unary_math*>(n.formulas)->f(a[0].data[0]);
                break;
              case op::binary:
                *out = static_cast<const stdlib::binary_math*>(n.formulas)->f(a[0].data[0], a[1].data[0]);
                break;
              case op::product:
                *out = a[0].data[0] * a[1].data[0];
                break;
              case op::generic: {
                const std::span<const view> args(a, n.count);
                if (!(n.e->fn->result_shape(args) == n.out)) return false;
                n.e->fn->eval(args, out);
                break;
              }
            }
            break;
          }
          case kind::vector: {
            double* out = values_.data() + n.value;
            for (std::uint32_t i = 0; i < n.count; ++i) {
              const view& item = arg_views_[n.first + i];
              out = std::copy(item.begin(), item.end(), out);
            }
            break;
          }
          case kind::gather: {
            const double* from = values[static_cast<std::size_t>(n.variable)].data.data();
            double* out = values_.data() + n.value;
            for (std::uint32_t k = 0; k < n.count; ++k) out[k] = from[offsets_[n.first + k]];
            break;
          }
          case kind::slice:
            if (!n.contiguous) {
              const double* from = nodes_[n.base].data;
              double* out = values_.data() + n.value;
              for (std::uint32_t k = 0; k < n.count; ++k) out[k] = from[offsets_[n.first + k]];
            }
            break;
          default:
            break;
        }
      }
      if (target >= 0) {
        const node& root = nodes_[in.root];
        std::copy(root.data, root.data + root.out.size(), values[static_cast<std::size_t>(target)].data.begin() + in.target_offset);
      }
    }
  } catch (const stdlib::argument_error&) {
    return false;
  }
  return true;
}

double tape::total() const {
  double total = 0;
  for (const instance& in : instances) total += nodes_[in.root].data[0];
  return total;
}

void tape::backward(std::span<double* const> slots, int target, bool reverse) {
  if (instances.empty()) return;
  for (std::uint32_t h : hoisted_nodes_)
    if (h != none) std::fill_n(adjoints_.begin() + static_cast<std::ptrdiff_t>(nodes_[h].adjoint), nodes_[h].out.size(), 0.0);
  const double one = 1;
  auto pass = [&](const instance& in) {
    back(in.root, target >= 0 ? slots[static_cast<std::size_t>(target)] + in.target_offset : &one, slots, false);
  };
  if (reverse)
    for (auto it = instances.rbegin(); it != instances.rend(); ++it) pass(*it);
  else
    for (const instance& in : instances) pass(in);
  for (std::uint32_t h : hoisted_nodes_)
    if (h != none) back(h, adjoints_.data() + nodes_[h].adjoint, slots, true);
}

// What the function's backward() adds, for scalars by its formulas inline: each line is
// the scalar case of stdlib/elementwise.cpp's unary_map, binary_map (scaled_add for
// constant partials) and linear_algebra.cpp's product::scaling_backward.
void tape::apply_backward(const node& n, const double* d_out, double* const* to) const {
  const view* a = arg_views_.data() + n.first;
  switch (n.how) {
    case op::unary: {
      const auto* m = static_cast<const stdlib::unary_math*>(n.formulas);
      if (m->df && to[0]) to[0][0] += m->df(a[0].data[0], n.data[0]) * d_out[0];
      return;
    }
    case op::binary: {
      const auto* m = static_cast<const stdlib::binary_math*>(n.formulas);
      if (!m->df) return;
      if (m->constant_partials) {
        double ca = 0, cb = 0;
        m->df(0, 0, 0, ca, cb);
        for (int i = 0; i < 2; ++i) {
          if (!to[i]) continue;
          double total = 0;
          total += d_out[0];
          to[i][0] += (i == 0 ? ca : cb) * total;
        }
        return;
      }
      double da = 0, db = 0;
      m->df(a[0].data[0], a[1].data[0], n.data[0], da, db);
      if (to[0]) to[0][0] += da * d_out[0];
      if (to[1]) to[1][0] += db * d_out[0];
      return;
    }
    case op::product:
      if (to[0]) to[0][0] += a[1].data[0] * d_out[0];
      if (to[1]) to[1][0] += a[0].data[0] * d_out[0];
      return;
    case op::generic:
      n.e->fn->backward(std::span<const view>(a, n.count), view{n.data, n.out}, d_out, std::span<double* const>(to, n.count));
      return;
  }
}

double* tape::adjoint_in_place(const node& n, std::span<double* const> slots, bool& found) {
  found = true;
  if (n.hoisted) return adjoints_.data() + n.adjoint;
  switch (n.which) {
    case kind::variable:
      return slots[static_cast<std::size_t>(n.variable)];
    case kind::element: {
      double* to = slots[static_cast<std::size_t>(n.variable)];
      return to ? to + n.offset : nullptr;
    }
    case kind::gather:
      if (!slots[static_cast<std::size_t>(n.variable)]) return nullptr;
      break;
    default:
      break;
  }
  found = false;
  return nullptr;
}

void tape::back(std::uint32_t index, const double* d_out, std::span<double* const> slots, bool as_root) {
  const node& n = nodes_[index];
  if (!n.depends) return;
  const index_t size = n.size;
  if (n.hoisted && !as_root) {
    double* held = adjoints_.data() + n.adjoint;
    for (index_t i = 0; i < size; ++i) held[i] += d_out[i];
    return;
  }
  switch (n.which) {
    case kind::constant:
      return;
    case kind::variable:
    case kind::element: {
      double* to = slots[static_cast<std::size_t>(n.variable)];
      if (!to) return;
      to += n.offset;
      for (index_t i = 0; i < size; ++i) to[i] += d_out[i];
      return;
    }
    case kind::gather: {
      double* to = slots[static_cast<std::size_t>(n.variable)];
      if (!to) return;
      for (std::uint32_t k = 0; k < n.count; ++k) to[offsets_[n.first + k]] += d_out[k];
      return;
    }
    case kind::slice: {
      const node& base = nodes_[n.base];
      if (!base.depends) return;
      double* buffer = adjoints_.data() + n.scratch;
      std::fill_n(buffer, base.out.size(), 0.0);
      if (n.contiguous)
        for (index_t i = 0; i < size; ++i) buffer[n.offset + i] += d_out[i];
      else
        for (std::uint32_t k = 0; k < n.count; ++k) buffer[offsets_[n.first + k]] += d_out[k];
      back(n.base, buffer, slots, false);
      return;
    }
    case kind::vector: {
      const double* from = d_out;
      for (std::uint32_t i = 0; i < n.count; ++i) {
        back(args_[n.first + i], from, slots, false);
        from += arg_views_[n.first + i].size();
      }
      return;
    }
    case kind::call: {
      constexpr std::size_t max_args = 8;
      std::array<double*, max_args> to;
      std::array<char, max_args> pending;
      for (std::uint32_t i = 0; i < n.count; ++i) {
        const node& a = nodes_[args_[n.first + i]];
        to[i] = nullptr;
        pending[i] = 0;
        if (!a.depends) continue;
        bool in_place = false;
        to[i] = adjoint_in_place(a, slots, in_place);
        if (in_place) continue;
        to[i] = adjoints_.data() + a.adjoint;
        if (a.size == 1)
          *to[i] = 0;
        else
          std::fill_n(to[i], a.size, 0.0);
        pending[i] = 1;
      }
      apply_backward(n, d_out, to.data());
      for (std::uint32_t i = 0; i < n.count; ++i)
        if (pending[i]) back(args_[n.first + i], to[i], slots, false);
      return;
    }
  }
}

}  // namespace ppl::model
