// Reverse-mode automatic differentiation over one evaluation of an expression tree
// (Griewank & Walther, "Evaluating Derivatives", 2008, ch. 3). The forward pass is the
// ordinary eval(): every node's value stays in its scratch buffer (results_) until the
// next evaluation, and an expression is a tree, so the backward pass is a walk from the
// root with one adjoint buffer per node. Nodes that read no unknown are skipped: data
// never receive adjoints. Each function's local derivative is its own backward(), on
// Eigen maps for the linear algebra, so a plate's statement differentiates as fast as it
// evaluates.
#include <algorithm>
#include <array>

#include "model/evaluator.hpp"
#include "stdlib/function.hpp"

namespace ppl::model {

using lang::ir::expr;

void evaluator::freeze(const expr& e) {
  const auto id = static_cast<std::size_t>(e.id);
  frozen_[id] = 1;
  held_[id].assign(static_cast<std::size_t>(results_[id].size()), 0.0);
}

const double* evaluator::thaw(const expr& e) {
  const auto id = static_cast<std::size_t>(e.id);
  frozen_[id] = 0;
  return held_[id].data();
}

double* evaluator::adjoint_in_place(const expr& e, frame& f, std::span<double* const> adjoints, bool& found) {
  found = true;
  const auto id = static_cast<std::size_t>(e.id);
  if (frozen_[id]) return held_[id].data();
  if (e.which == expr::kind::variable) return adjoints[static_cast<std::size_t>(e.slot)];
  if (e.which == expr::kind::index && e.args[0]->which == expr::kind::variable) {
    double* to = adjoints[static_cast<std::size_t>(e.args[0]->slot)];
    if (!to) return nullptr;
    index_plan p = plan_index(e, f);
    if (p.contiguous) return to + p.offset;
  }
  found = false;
  return nullptr;
}

void evaluator::backward(const expr& e, frame& f, const double* d_out, std::span<double* const> adjoints) {
  if (!e.depends_on_unknown) return;
  const auto id = static_cast<std::size_t>(e.id);
  if (frozen_[id]) {
    auto& held = held_[id];
    for (std::size_t i = 0; i < held.size(); ++i) held[i] += d_out[i];
    return;
  }
  switch (e.which) {
    case expr::kind::int_const:
    case expr::kind::real_const:
    case expr::kind::loop_var:
      return;
    case expr::kind::variable: {
      double* to = adjoints[static_cast<std::size_t>(e.slot)];
      if (!to) return;
      const index_t n = results_[id].size();
      for (index_t i = 0; i < n; ++i) to[i] += d_out[i];
      return;
    }
    case expr::kind::index: {
      const expr& base = *e.args[0];
      if (!base.depends_on_unknown) return;
      index_plan p = plan_index(e, f);  // indices are re-read, not re-evaluated: their nodes are data
      if (base.which == expr::kind::variable) {
        if (double* to = adjoints[static_cast<std::size_t>(base.slot)]) scatter_add(p, d_out, to);
        return;
      }
      auto& buffer = adjoint_[static_cast<std::size_t>(base.id)];
      buffer.assign(static_cast<std::size_t>(p.base.size()), 0.0);
      scatter_add(p, d_out, buffer.data());
      backward(base, f, buffer.data(), adjoints);
      return;
    }
    case expr::kind::ode:
      backward_ode(e, f, d_out, adjoints);
      return;
    case expr::kind::local: {
      auto& to = local_adjoints_[static_cast<std::size_t>(e.slot)];
      for (std::size_t i = 0; i < to.size(); ++i) to[i] += d_out[i];
      return;
    }
    case expr::kind::vector_literal: {
      const double* from = d_out;
      for (const auto& item : e.args) {
        const index_t n = results_[static_cast<std::size_t>(item->id)].size();
        backward(*item, f, from, adjoints);
        from += n;
      }
      return;
    }
    case expr::kind::call: {
      constexpr std::size_t max_args = 8;
      view_buffer<max_args> args;
      std::array<double*, max_args> slots;
      std::array<char, max_args> pending;  // slots that are buffers, passed on after the call
      const std::size_t n = e.args.size();
      for (std::size_t i = 0; i < n; ++i) {
        const expr& a = *e.args[i];
        args.push_back(results_[static_cast<std::size_t>(a.id)]);
        slots[i] = nullptr;
        pending[i] = 0;
        if (!a.depends_on_unknown) continue;
        bool in_place = false;
        slots[i] = adjoint_in_place(a, f, adjoints, in_place);
        if (in_place) continue;
        auto& buffer = adjoint_[static_cast<std::size_t>(a.id)];
        buffer.assign(static_cast<std::size_t>(args[i].size()), 0.0);
        slots[i] = buffer.data();
        pending[i] = 1;
      }
      e.fn->backward(args.span(), results_[id], d_out, std::span<double* const>(slots.data(), n));
      for (std::size_t i = 0; i < n; ++i)
        if (pending[i]) backward(*e.args[i], f, slots[i], adjoints);
      return;
    }
  }
}

}  // namespace ppl::model
