// Replaying a recorded tape (model/tape.hpp): the forward pass as a loop over its calls,
// the reverse pass as the evaluator's backward() over recorded nodes. Each step mirrors
// model/evaluator.cpp and model/evaluator_backward.cpp operation for operation (the same
// functions on the same values, adjoints added in the same order), so that a taped
// statement's gradient is bit for bit the instance path's.
#include <algorithm>
#include <array>
#include <cmath>

#include "model/tape.hpp"
#include "stdlib/function.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::model {

bool tape::forward(std::vector<tensor>& values, int target) {
  try {
    for (std::size_t i = 0; i < instances.size(); ++i) {
      const instance& in = instances[i];
      for (std::uint32_t k = exec_at_[i]; k < exec_at_[i + 1]; ++k) {
        if (const std::uint32_t fast = exec_fast_[k]; fast != none) {
          scalar_forward(scalar_calls_[fast]);
          continue;
        }
        const std::uint32_t next = exec_[k];
        node& n = nodes_[next];
        switch (n.which) {
          case kind::call: {
            const view* a = arg_views_.data() + n.first;
            double* out = values_.data() + n.value;
            switch (n.how) {
              case op::unary:
              case op::binary:
              case op::product:  // taken by exec_fast_ above
                scalar_forward(scalar_calls_[n.fast]);
                break;
              case op::generic: {
                const std::span<const view> args(a, n.count);
                if (!n.shape_fixed && !(n.e->fn->result_shape(args) == n.out)) return false;
                n.e->fn->eval(args, out);
                break;
              }
              case op::partials: {
                const std::span<const view> args(a, n.count);
                if (!n.shape_fixed) n.e->fn->result_shape(args);
                given_[next] = n.e->fn->eval_partials(args, out, partials_.data() + n.partials);
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
            gather(n, values[static_cast<std::size_t>(n.variable)].data.data());
            break;
          }
          case kind::slice:
            if (!n.contiguous) {
              gather(n, nodes_[n.base].data);
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

void tape::backward(std::span<double* const> slots, bool reverse) {
  if (instances.empty()) return;
  std::fill(adjoints_.begin(), adjoints_.end(), 0.0);
  // The variables' adjoints are usually where the last gradient had them (their buffers
  // are reused): the places resolved then still hold.
  if (!std::equal(slots.begin(), slots.end(), resolved_for_.begin(), resolved_for_.end())) {
    for (std::uint32_t k : moving_) {
      const place& p = places_[k];
      double* to = slots[static_cast<std::size_t>(p.variable)];
      at_[k] = to ? to + p.offset : nullptr;
    }
    resolved_for_.assign(slots.begin(), slots.end());
  }
  const auto count = instance_steps_.size() - 1;
  if (reverse)
    for (std::size_t i = count; i-- > 0;) run(instance_steps_[i], instance_steps_[i + 1]);
  else
    for (std::size_t i = 0; i < count; ++i) run(instance_steps_[i], instance_steps_[i + 1]);
  run(instance_steps_[count], static_cast<std::uint32_t>(rev_.size()));
}

void tape::run(std::uint32_t first, std::uint32_t last) {
  for (std::uint32_t k = first; k < last; ++k) {
    const rev_op& r = rev_[k];
    const double* d_out = at_[r.d_out];
    if (r.what == step::scalar) {
      const scalar_call& c = scalar_calls_[r.node];
      scalar_backward(c, d_out, at_[rev_args_[r.first]], c.how == op::unary ? nullptr : at_[rev_args_[r.first + 1]]);
      continue;
    }
    const node& n = nodes_[r.node];
    switch (r.what) {
      case step::scalar:
        break;
      case step::call: {
        std::array<double*, 8> to;
        for (std::uint32_t i = 0; i < n.count; ++i) {
          to[i] = at_[rev_args_[r.first + i]];
        }
        apply_backward(r.node, d_out, to.data());
        break;
      }
      case step::add:
        if (double* to = at_[r.first])
          for (index_t i = 0; i < n.size; ++i) to[i] += d_out[i];
        break;
      case step::scatter:
        if (double* to = at_[r.first])
          for (std::uint32_t i = 0; i < n.count; ++i) to[offsets_[n.first + i]] += d_out[i];
        break;
      case step::slice: {
        double* to = at_[r.first];
        if (n.contiguous)
          for (index_t i = 0; i < n.size; ++i) to[n.offset + i] += d_out[i];
        else
          for (std::uint32_t i = 0; i < n.count; ++i) to[offsets_[n.first + i]] += d_out[i];
        break;
      }
      case step::held: {
        double* held = adjoints_.data() + n.adjoint;
        for (index_t i = 0; i < n.size; ++i) held[i] += d_out[i];
        break;
      }
    }
  }
}

// A map of scalars by its formulas, the same arithmetic as stdlib/elementwise.cpp's
// unary_map and binary_map (scaled_add for constant partials, asked once when recorded)
// and linear_algebra.cpp's product::scaling_backward, from the compact record.
inline void tape::scalar_forward(const scalar_call& c) const {
  const double a = c.a[0];
  switch (c.known) {
    case formula::add: *c.out = a + c.b[0]; return;
    case formula::subtract: *c.out = a - c.b[0]; return;
    case formula::square: *c.out = a * a; return;
    case formula::sqrt: *c.out = std::sqrt(a); return;
    case formula::exp: *c.out = std::exp(a); return;
    case formula::log: *c.out = std::log(a); return;
    case formula::multiply: *c.out = stdlib::times(a, c.b[0]); return;
    case formula::other: break;
  }
  // Else a map by its pointer (a product of scalars is formula::multiply above).
  if (c.how == op::unary)
    *c.out = static_cast<const stdlib::unary_math*>(c.formulas)->f(c.a[0]);
  else
    *c.out = static_cast<const stdlib::binary_math*>(c.formulas)->f(c.a[0], c.b[0]);
}

inline void tape::scalar_backward(const scalar_call& c, const double* d_out, double* to_a, double* to_b) const {
  switch (c.known) {
    case formula::add:
    case formula::subtract: {
      double total = 0;
      total += d_out[0];
      if (to_a) to_a[0] += c.ca * total;
      if (to_b) to_b[0] += c.cb * total;
      return;
    }
    case formula::square:
      if (to_a) to_a[0] += 2 * c.a[0] * d_out[0];
      return;
    case formula::sqrt:
      if (to_a) to_a[0] += 0.5 / c.out[0] * d_out[0];
      return;
    case formula::exp:
      if (to_a) to_a[0] += c.out[0] * d_out[0];
      return;
    case formula::log:
      if (to_a) to_a[0] += 1 / c.a[0] * d_out[0];
      return;
    case formula::multiply:
      if (to_a) to_a[0] += c.b[0] * d_out[0];
      if (to_b) to_b[0] += c.a[0] * d_out[0];
      return;
    case formula::other:
      break;
  }
  // Else a map by its pointer (a product of scalars is formula::multiply above).
  if (c.how == op::unary) {
    const auto* m = static_cast<const stdlib::unary_math*>(c.formulas);
    if (m->df && to_a) to_a[0] += m->df(c.a[0], c.out[0]) * d_out[0];
    return;
  }
  const auto* m = static_cast<const stdlib::binary_math*>(c.formulas);
  if (!m->df) return;
  if (m->constant_partials) {
    double total = 0;
    total += d_out[0];
    if (to_a) to_a[0] += c.ca * total;
    if (to_b) to_b[0] += c.cb * total;
    return;
  }
  double da = 0, db = 0;
  m->df(c.a[0], c.b[0], c.out[0], da, db);
  if (to_a) to_a[0] += da * d_out[0];
  if (to_b) to_b[0] += db * d_out[0];
}

// What the function's backward() adds: a scalar call's partials kept by forward(), a
// map of scalars by its formulas, else the function's own backward().
void tape::apply_backward(std::uint32_t index, const double* d_out, double* const* to) const {
  const node& n = nodes_[index];
  const view* a = arg_views_.data() + n.first;
  switch (n.how) {
    case op::partials: {
      if (!given_[index]) break;
      const double* p = partials_.data() + n.partials;
      for (std::uint32_t i = 0; i < n.count; ++i) {
        const index_t size = a[i].size();
        if (to[i])
          for (index_t j = 0; j < size; ++j) to[i][j] += d_out[0] * p[j];
        p += size;
      }
      return;
    }
    case op::unary:
    case op::binary:
    case op::product:  // step::scalar in the reverse pass
      scalar_backward(scalar_calls_[n.fast], d_out, to[0], n.count > 1 ? to[1] : nullptr);
      return;
    case op::generic:
      break;
  }
  n.e->fn->backward(std::span<const view>(a, n.count), view{n.data, n.out}, d_out, std::span<double* const>(to, n.count));
}

}  // namespace ppl::model
