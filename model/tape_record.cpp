// Recording a statement's instances into a tape (model/tape.hpp): one walk of each
// instance's tree, as the evaluator's, keeping what cannot change from one gradient to
// the next.
#include <algorithm>
#include <fmt/core.h>

#include "model/evaluator.hpp"
#include "model/tape.hpp"
#include "stdlib/function.hpp"
#include "stdlib/function_groups.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::index_item;

namespace {

// A tape of more doubles than this (values and adjoints) is not kept: the statement takes
// the instance path, whose memory does not grow with its instances.
constexpr std::size_t max_doubles = std::size_t{1} << 22;

// The flat offsets a selection reads from its base, in the evaluator's gather order.
void selection_offsets(const evaluator::index_plan& p, int dim, index_t offset, std::vector<index_t>& out) {
  if (dim == p.base.shape.rank) {
    out.push_back(offset);
    return;
  }
  const index_t stride = p.base.shape.stride(dim);
  const auto& s = p.sel[static_cast<std::size_t>(dim)];
  for (index_t k = 0; k < s.count; ++k) selection_offsets(p, dim + 1, offset + (s.first + k) * stride, out);
}

}  // namespace

void tape::hoist(const std::vector<const expr*>& hoisted) {
  for (const expr* h : hoisted) {
    hoisted_ids_.push_back(h->id);
    hoisted_nodes_.push_back(none);
  }
}

void tape::share(const std::vector<const expr*>& shared) {
  for (const expr* e : shared) {
    shared_expr x{e->id, {}};
    lang::ir::any_node(*e, [&](const expr& n) {
      if (n.which == expr::kind::loop_var && std::find(x.slots.begin(), x.slots.end(), n.slot) == x.slots.end())
        x.slots.push_back(n.slot);
      return false;
    });
    shared_.push_back(std::move(x));
  }
}

const double* tape::now(const node& n, const frame& f) const {
  switch (n.which) {
    case kind::variable:
    case kind::element:
      return (*f.values)[static_cast<std::size_t>(n.variable)].data.data() + n.offset;
    case kind::slice:
      if (n.contiguous) return now(nodes_[n.base], f) + n.offset;
      break;
    default:
      break;
  }
  return values_.data() + n.value;
}

std::uint32_t tape::add(node n, const double* from) {
  const bool stored = n.which == kind::constant || n.which == kind::gather || n.which == kind::call || n.which == kind::vector ||
                      (n.which == kind::slice && !n.contiguous);
  if (stored) {
    n.value = values_.size();
    if (from) values_.insert(values_.end(), from, from + n.out.size());
    else values_.resize(values_.size() + static_cast<std::size_t>(n.out.size()));
  }
  if (values_.size() > max_doubles) throw refused{};
  nodes_.push_back(n);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::uint32_t tape::record(evaluator& ev, const expr& e, frame& f) {
  for (std::size_t k = 0; k < hoisted_ids_.size(); ++k) {
    if (hoisted_ids_[k] != e.id) continue;
    if (hoisted_nodes_[k] == none) {
      hoisted_nodes_[k] = record_node(ev, e, f);
      nodes_[hoisted_nodes_[k]].hoisted = true;
    }
    return hoisted_nodes_[k];
  }
  for (std::size_t k = 0; k < shared_.size(); ++k) {
    if (shared_[k].id != e.id) continue;
    std::pair<std::size_t, std::vector<index_t>> key{k, {}};
    for (int slot : shared_[k].slots) key.second.push_back(f.loop[static_cast<std::size_t>(slot)]);
    const auto found = shared_nodes_.find(key);
    if (found != shared_nodes_.end()) return found->second;
    const std::uint32_t n = record_node(ev, e, f);
    nodes_[n].hoisted = true;
    shared_nodes_.emplace(std::move(key), n);
    shared_order_.push_back(n);
    return n;
  }
  return record_node(ev, e, f);
}

std::uint32_t tape::record_node(evaluator& ev, const expr& e, frame& f) {
  node n{};
  n.e = &e;
  n.depends = e.depends_on_unknown;
  if (e.which == expr::kind::ode || e.which == expr::kind::local) throw refused{};
  if (e.which == expr::kind::variable) {
    n.which = kind::variable;
    n.variable = e.slot;
    n.out = (*f.values)[static_cast<std::size_t>(e.slot)].shape;
    return add(n, nullptr);
  }
  if (e.which == expr::kind::index) return record_index(ev, e, f);
  // Constants, loop variables and whatever is computed from data alone.
  if (!e.depends_on_unknown) return record_constant(ev, e, f);
  constexpr std::size_t max_args = 8;
  if (e.args.size() > max_args) throw refused{};
  std::array<std::uint32_t, max_args> a{};
  for (std::size_t i = 0; i < e.args.size(); ++i) a[i] = record(ev, *e.args[i], f);
  n.first = static_cast<std::uint32_t>(args_.size());
  n.count = static_cast<std::uint32_t>(e.args.size());
  args_.insert(args_.end(), a.begin(), a.begin() + e.args.size());
  if (e.which == expr::kind::vector_literal) {
    n.which = kind::vector;
    const shape inner = nodes_[a[0]].out;
    for (std::size_t i = 0; i < e.args.size(); ++i)
      if (!(nodes_[a[i]].out == inner)) throw refused{};  // the evaluator reports it
    n.out.rank = inner.rank + 1;
    n.out.dims[0] = static_cast<index_t>(e.args.size());
    for (int d = 0; d < inner.rank; ++d) n.out.dims[static_cast<std::size_t>(d + 1)] = inner[d];
    const std::uint32_t id = add(n, nullptr);
    double* out = values_.data() + nodes_[id].value;
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      const view item = recorded_value(a[i], f);
      out = std::copy(item.begin(), item.end(), out);
    }
    return id;
  }
  n.which = kind::call;
  view_buffer<max_args> views;
  for (std::size_t i = 0; i < e.args.size(); ++i) views.push_back(recorded_value(a[i], f));
  n.out = e.fn->result_shape(views.span());
  n.shape_fixed = e.fn->shape_from_shapes();
  double elements = 1;
  for (int d = 0; d < n.out.rank; ++d) elements *= static_cast<double>(n.out[d]);
  if (elements > static_cast<double>(max_doubles)) throw refused{};
  const std::uint32_t id = add(n, nullptr);
  // The storage may have moved: the arguments' views again.
  view_buffer<max_args> moved;
  for (std::size_t i = 0; i < e.args.size(); ++i) moved.push_back(recorded_value(a[i], f));
  e.fn->eval(moved.span(), values_.data() + nodes_[id].value);
  return id;
}

std::uint32_t tape::record_index(evaluator& ev, const expr& e, frame& f) {
  for (const auto& item : e.indices)
    if ((item.lo && item.lo->depends_on_unknown) || (item.hi && item.hi->depends_on_unknown)) throw refused{};
  const expr& base = *e.args[0];
  node n{};
  n.e = &e;
  n.depends = e.depends_on_unknown;
  if (base.which == expr::kind::variable) {
    const evaluator::index_plan p = ev.plan_index(e, f);
    n.variable = base.slot;
    n.out = p.out;
    if (p.contiguous) {
      n.which = kind::element;
      n.offset = p.offset;
      return add(n, nullptr);
    }
    n.which = kind::gather;
    n.contiguous = false;
    n.first = static_cast<std::uint32_t>(offsets_.size());
    selection_offsets(p, 0, 0, offsets_);
    n.count = static_cast<std::uint32_t>(offsets_.size() - n.first);
    const std::uint32_t id = add(n, nullptr);
    gather(nodes_[id], (*f.values)[static_cast<std::size_t>(base.slot)].data.data());
    return id;
  }
  if (!e.depends_on_unknown) return record_constant(ev, e, f);
  n.which = kind::slice;
  n.base = record(ev, base, f);
  // The selection, worked out by the evaluator on the same value of the base.
  const evaluator::index_plan p = ev.plan_index(e, f);
  n.out = p.out;
  n.contiguous = p.contiguous;
  n.offset = p.offset;
  if (p.contiguous) return add(n, nullptr);
  n.first = static_cast<std::uint32_t>(offsets_.size());
  selection_offsets(p, 0, 0, offsets_);
  n.count = static_cast<std::uint32_t>(offsets_.size() - n.first);
  const std::uint32_t id = add(n, nullptr);
  gather(nodes_[id], now(nodes_[n.base], f));
  return id;
}

std::uint32_t tape::record_constant(evaluator& ev, const expr& e, frame& f) {
  const view v = ev.eval(e, f);
  node n{};
  n.e = &e;
  n.which = kind::constant;
  n.out = v.shape;
  return add(n, v.data);
}

bool tape::finish(const std::vector<tensor>& values, int target) {
  // Adjoints: a buffer per computed node that depends on unknowns (a hoisted node's is
  // its sum), and a slice's scatter buffer of its base's size.
  std::size_t adjoints = 0;
  for (auto& n : nodes_) {
    if (!n.depends || n.which == kind::constant || n.which == kind::variable || n.which == kind::element) continue;
    n.adjoint = adjoints;
    adjoints += static_cast<std::size_t>(n.out.size());
    if (n.which == kind::slice) {
      n.scratch = adjoints;
      adjoints += static_cast<std::size_t>(nodes_[n.base].out.size());
    }
  }
  if (values_.size() + adjoints > max_doubles) return false;
  adjoints_.assign(adjoints, 0.0);
  frame f;
  f.values = const_cast<std::vector<tensor>*>(&values);
  for (auto& n : nodes_) {
    n.data = now(n, f);
    n.size = n.out.size();
    if (n.which == kind::call && n.depends) choose_op(n);
    if (n.which == kind::variable || n.which == kind::element || n.which == kind::gather) {
      const double* storage = values[static_cast<std::size_t>(n.variable)].data.data();
      if (std::none_of(reads_.begin(), reads_.end(), [&](const auto& r) { return r.first == n.variable; }))
        reads_.emplace_back(n.variable, storage);
    }
  }
  given_.assign(nodes_.size(), 0);
  arg_views_.resize(args_.size());
  for (std::size_t i = 0; i < args_.size(); ++i) arg_views_[i] = value_of(args_[i]);
  for (auto& n : nodes_) {
    if (n.which != kind::call || !(n.how == op::unary || n.how == op::binary || n.how == op::product)) continue;
    n.fast = static_cast<std::uint32_t>(scalar_calls_.size());
    const view* a = arg_views_.data() + n.first;
    scalar_calls_.push_back({n.how, known_formula(n), n.formulas, n.ca, n.cb, a[0].data, n.count > 1 ? a[1].data : nullptr,
                             values_.data() + n.value});
  }
  // The forward pass: what each instance evaluates, in recorded order.
  std::uint32_t next = 0;
  for (const instance& in : instances) {
    exec_at_.push_back(static_cast<std::uint32_t>(exec_.size()));
    for (; next <= in.root; ++next) {
      const node& n = nodes_[next];
      const bool computed = n.which == kind::call || n.which == kind::vector || n.which == kind::gather ||
                            (n.which == kind::slice && !n.contiguous);
      if (!n.depends || !computed) continue;
      exec_.push_back(next);
      exec_fast_.push_back(n.which == kind::call ? n.fast : none);
    }
  }
  exec_at_.push_back(static_cast<std::uint32_t>(exec_.size()));
  // The reverse pass: each instance's steps, then the hoisted nodes'.
  null_place_ = add_place({-1, 0, nullptr});
  for (const instance& in : instances) {
    instance_steps_.push_back(static_cast<std::uint32_t>(rev_.size()));
    emit(in.root, target >= 0 ? add_place({target, in.target_offset, nullptr}) : add_place({-1, 0, &one_}), false);
  }
  instance_steps_.push_back(static_cast<std::uint32_t>(rev_.size()));
  // Shared nodes first: one may read a hoisted node, never the other way round.
  for (std::uint32_t h : shared_order_) emit(h, add_place({-1, 0, adjoints_.data() + nodes_[h].adjoint}), true);
  for (std::uint32_t h : hoisted_nodes_)
    if (h != none) emit(h, add_place({-1, 0, adjoints_.data() + nodes_[h].adjoint}), true);
  at_.resize(places_.size());
  for (std::size_t k = 0; k < places_.size(); ++k) {
    if (places_[k].variable >= 0) moving_.push_back(static_cast<std::uint32_t>(k));
    else at_[k] = places_[k].fixed;
  }
  return true;
}

std::uint32_t tape::add_place(place p) {
  places_.push_back(p);
  return static_cast<std::uint32_t>(places_.size() - 1);
}

// Mirrors evaluator::backward (model/evaluator_backward.cpp) node kind by node kind. Two
// differences that change no result: every adjoint buffer is zeroed once when a reverse
// pass begins, not each just before its one use; and a strided selection of a variable
// that takes no adjoint in this gradient still gets its buffer (the call adds into it,
// and the scatter step then finds no variable adjoint and stops).
void tape::emit(std::uint32_t index, std::uint32_t d_out, bool as_root) {
  const node& n = nodes_[index];
  if (!n.depends) return;
  if (n.hoisted && !as_root) {
    rev_.push_back({step::held, index, d_out, 0});
    return;
  }
  switch (n.which) {
    case kind::constant:
      return;
    case kind::variable:
    case kind::element:
      rev_.push_back({step::add, index, d_out, add_place({n.variable, n.offset, nullptr})});
      return;
    case kind::gather:
      rev_.push_back({step::scatter, index, d_out, add_place({n.variable, 0, nullptr})});
      return;
    case kind::slice: {
      if (!nodes_[n.base].depends) return;
      const std::uint32_t buffer = add_place({-1, 0, adjoints_.data() + n.scratch});
      rev_.push_back({step::slice, index, d_out, buffer});
      emit(n.base, buffer, false);
      return;
    }
    case kind::vector: {
      index_t offset = 0;
      for (std::uint32_t i = 0; i < n.count; ++i) {
        place p = places_[d_out];
        p.offset += offset;
        if (p.fixed) p.fixed += offset;
        emit(args_[n.first + i], add_place(p), false);
        offset += nodes_[args_[n.first + i]].size;
      }
      return;
    }
    case kind::call: {
      const auto first = static_cast<std::uint32_t>(rev_args_.size());
      std::array<std::uint32_t, 8> pending{};
      for (std::uint32_t i = 0; i < n.count; ++i) {
        const node& a = nodes_[args_[n.first + i]];
        std::uint32_t at = null_place_;
        pending[i] = none;
        if (!a.depends) {
        } else if (a.hoisted) {
          at = add_place({-1, 0, adjoints_.data() + a.adjoint});
        } else if (a.which == kind::variable || a.which == kind::element) {
          at = add_place({a.variable, a.offset, nullptr});
        } else {
          at = add_place({-1, 0, adjoints_.data() + a.adjoint});
          pending[i] = at;
        }
        rev_args_.push_back(at);
      }
      if (n.fast != none) rev_.push_back({step::scalar, n.fast, d_out, first});
      else rev_.push_back({step::call, index, d_out, first});
      for (std::uint32_t i = 0; i < n.count; ++i)
        if (pending[i] != none) emit(args_[n.first + i], pending[i], false);
      return;
    }
  }
}

void tape::choose_op(node& n) {
  if (n.out.rank != 0) return;
  bool scalars = true;
  std::size_t elements = 0;
  for (std::uint32_t i = 0; i < n.count; ++i) {
    scalars = scalars && nodes_[args_[n.first + i]].out.rank == 0;
    elements += static_cast<std::size_t>(nodes_[args_[n.first + i]].out.size());
  }
  if (!scalars) {
    // A scalar of arrays (a vectorised log density): its partials, if it gives them, per
    // element; not for large arguments, whose partials would cost as much as the tape.
    constexpr std::size_t max_partials = 1 << 16;
    if (elements > max_partials) return;
    n.how = op::partials;
    n.partials = partials_.size();
    partials_.resize(partials_.size() + elements);
    return;
  }
  const stdlib::scalar_formulas f = n.e->fn->formulas();
  if (f.unary && n.count == 1) {
    n.how = op::unary;
    n.formulas = f.unary;
  } else if (f.binary && n.count == 2 && !f.binary->invalid) {
    n.how = op::binary;
    n.formulas = f.binary;
    if (f.binary->df && f.binary->constant_partials) f.binary->df(0, 0, 0, n.ca, n.cb);
  } else if (n.count == 2 && n.e->fn->name() == "*") {
    n.how = op::product;
  } else {
    n.how = op::partials;
    n.partials = partials_.size();
    partials_.resize(partials_.size() + elements);
  }
}

tape::formula tape::known_formula(const node& n) {
  if (n.how == op::unary) {
    const std::string_view name = static_cast<const stdlib::unary_math*>(n.formulas)->name;
    if (name == "square") return formula::square;
    if (name == "sqrt") return formula::sqrt;
    if (name == "exp") return formula::exp;
    if (name == "log") return formula::log;
  } else if (n.how == op::binary) {
    const std::string_view name = static_cast<const stdlib::binary_math*>(n.formulas)->name;
    if (name == "+") return formula::add;
    if (name == "-") return formula::subtract;
  } else if (n.how == op::product) {
    return formula::multiply;
  }
  return formula::other;
}

bool tape::valid(const std::vector<tensor>& values) const {
  return std::all_of(reads_.begin(), reads_.end(),
                     [&](const auto& r) { return values[static_cast<std::size_t>(r.first)].data.data() == r.second; });
}

}  // namespace ppl::model
