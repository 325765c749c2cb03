// A plate's terms differentiated as one batch: `y[n] ~ Normal(dot(w2, tanh(Z[n] * W1 + b1)) + b2, s)`
// over n = 1..N becomes a matrix product Z W1 (N x H), one elementwise tanh over N x H
// values, a matrix-vector product with w2, and N scalar densities — and backwards the
// transposed products (dW1 = Z' dA as one product instead of N outer products). Every node
// that depends on the loop variable holds the values of all instances, one row each;
// nodes that do not are evaluated once by the ordinary evaluator, their adjoints summed
// over the rows and passed back once.
//
// Which statements qualify is decided from their structure (plate_batchable): one loop; a
// scalar `~` or `=` whose target is indexed by the loop variable (an `=` that does not
// read its own target), or a `factor`; and every node
// that reads the loop variable is a row of a variable (x[n], X[n], X[n, :]), an
// elementwise function, a product or dot with a plate-invariant matrix or vector, or a
// scaling by an invariant scalar. At run time anything unexpected (shapes, an index out of
// range, an argument a function refuses) sends the statement back to the instance-by-
// instance path, which reports the error with its position.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "model/graph.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::index_item;
using lang::ir::statement;

namespace {

using row_major = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using matrix_in = Eigen::Map<const row_major>;
using matrix_out = Eigen::Map<row_major>;

bool is_loop_var(const expr& e, int slot) { return e.which == expr::kind::loop_var && e.slot == slot; }

// x[n], X[n] or X[n, :]: the loop variable as the first index, whole dimensions after.
bool is_row(const expr& e, int slot) {
  if (e.which != expr::kind::index || e.args[0]->which != expr::kind::variable || e.indices.empty()) return false;
  const index_item& first = e.indices[0];
  if (first.which != index_item::kind::single || !is_loop_var(*first.lo, slot)) return false;
  for (std::size_t k = 1; k < e.indices.size(); ++k)
    if (e.indices[k].which != index_item::kind::all) return false;
  return true;
}

bool plate_batchable_expr(const expr& e, int slot) {
  if (!lang::ir::uses_loop_variable(e)) return true;
  if (is_row(e, slot)) return true;
  if (e.which != expr::kind::call) return false;
  const std::string_view name = e.fn->name();
  if (e.fn->elementwise()) {
    for (const auto& a : e.args)
      if (!plate_batchable_expr(*a, slot)) return false;
    return true;
  }
  if ((name == "*" || name == "dot") && e.args.size() == 2) {
    // One side varies over the plate, the other does not.
    const bool left = lang::ir::uses_loop_variable(*e.args[0]), right = lang::ir::uses_loop_variable(*e.args[1]);
    return left != right && plate_batchable_expr(*e.args[left ? 0 : 1], slot);
  }
  return false;
}

// Thrown inside the batch to send the statement back to the instance path.
struct not_plate_batched {};

}  // namespace

bool graph::plate_batchable(const statement& s) {
  if (s.loops.size() != 1) return false;
  const int slot = s.loops[0].slot;
  if (s.which == statement::kind::factor) return plate_batchable_expr(*s.value, slot);
  if (s.target_indices.size() != 1 || !is_loop_var(*s.target_indices[0], slot)) return false;
  if (values_[static_cast<std::size_t>(s.target)].shape.rank != 1) return false;
  if (s.which == statement::kind::assign) {
    // A definition element by element (theta[j] = mu + tau * eta[j]); one that reads its
    // own target (x[t] = x[t - 1] + ...) must pass adjoints back instance by instance.
    std::vector<int> reads;
    lang::ir::collect_reads(s.value.get(), reads);
    return std::find(reads.begin(), reads.end(), s.target) == reads.end() && plate_batchable_expr(*s.value, slot);
  }
  if (s.which != statement::kind::sample || s.dist->value_rank() != 0) return false;
  for (const auto& a : s.args)
    if (!plate_batchable_expr(*a, slot)) return false;
  return true;
}

graph::plate_value graph::plate_eval(const expr& e, const plate_range& r) {
  const plate_value v = plate_compute(e, r);
  plate_data_[static_cast<std::size_t>(e.id)] = v.data;
  plate_shapes_[static_cast<std::size_t>(e.id)] = v.per;
  return v;
}

// An elementwise call (or a product by a scalar) over the plate's rows, into `out`; returns
// the result's shape per instance.
shape graph::plate_elementwise(const expr& e, const std::array<plate_value, 2>& a, const plate_range& r, std::vector<double>& out) {
  const std::size_t n = e.args.size();
  shape per;
  // Batched operands must agree in shape; an invariant one is a scalar (broadcast by the
  // function itself) or has that shape (repeated on every row).
  for (std::size_t i = 0; i < n; ++i)
    if (a[i].batched) per = a[i].per;
  const index_t width = per.size(), total = r.count * width;
  std::array<view, 2> args{};
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].batched) {
      if (!(a[i].per == per)) throw not_plate_batched{};
      args[i] = {a[i].data, shape::vector(total)};
    } else if (a[i].per.rank == 0) {
      args[i] = {a[i].data, shape::scalar()};
    } else {
      if (!(a[i].per == per)) throw not_plate_batched{};
      auto& repeated = plate_repeated_[static_cast<std::size_t>(e.args[i]->id)];
      repeated.resize(static_cast<std::size_t>(total));
      for (index_t k = 0; k < r.count; ++k) std::copy(a[i].data, a[i].data + width, repeated.begin() + k * width);
      args[i] = {repeated.data(), shape::vector(total)};
    }
  }
  out.resize(static_cast<std::size_t>(total));
  try {
    e.fn->result_shape(std::span<const view>(args.data(), n));  // the function's own checks (a zero divisor)
  } catch (const stdlib::argument_error&) {
    throw not_plate_batched{};
  }
  e.fn->eval(std::span<const view>(args.data(), n), out.data());
  return per;
}

// A matrix-vector product (`v * M` or `M * v`, the vector batched) or a dot product over
// the plate's rows, into `out`; returns the result's shape per instance.
const double* graph::plate_columns(const expr& e, std::size_t xi, const plate_value& x, const plate_range& r) {
  if (e.args[xi]->depends_on_unknown) return nullptr;
  auto& c = plate_columns_[static_cast<std::size_t>(e.id)];
  const index_t width = x.per[0];
  if (c.source != x.data || c.count != r.count || c.width != width) {
    c.source = x.data;
    c.count = r.count;
    c.width = width;
    c.data.resize(static_cast<std::size_t>(r.count * width));
    Eigen::Map<Eigen::MatrixXd>(c.data.data(), r.count, width) = matrix_in(x.data, r.count, width);
  }
  return c.data.data();
}

shape graph::plate_product(std::string_view name, const std::array<plate_value, 2>& a, const plate_range& r, std::vector<double>& out,
                           const double* columns) {
  shape per;
  if (name == "*") {
    const plate_value &x = a[0].batched ? a[0] : a[1], &m = a[0].batched ? a[1] : a[0];
    if (x.per.rank != 1 || m.per.rank != 2) throw not_plate_batched{};
    const index_t rows = m.per[0], cols = m.per[1];
    const matrix_in X(x.data, r.count, x.per[0]), M(m.data, rows, cols);
    if (a[0].batched) {  // v * M = v' M: rows X M
      if (x.per[0] != rows) throw not_plate_batched{};
      per = shape::vector(cols);
      out.resize(static_cast<std::size_t>(r.count * cols));
      matrix_out(out.data(), r.count, cols).noalias() = X * M;
    } else {  // M * v: rows X M'
      if (x.per[0] != cols) throw not_plate_batched{};
      per = shape::vector(rows);
      out.resize(static_cast<std::size_t>(r.count * rows));
      matrix_out(out.data(), r.count, rows).noalias() = X * M.transpose();
    }
  } else {  // dot
    const plate_value &x = a[0].batched ? a[0] : a[1], &w = a[0].batched ? a[1] : a[0];
    if (x.per.rank != 1 || w.per.rank != 1 || x.per[0] != w.per[0]) throw not_plate_batched{};
    per = shape::scalar();
    out.resize(static_cast<std::size_t>(r.count));
    const Eigen::Map<const Eigen::VectorXd> weights(w.data, w.per[0]);
    Eigen::Map<Eigen::VectorXd> result(out.data(), r.count);
    if (columns) result.noalias() = Eigen::Map<const Eigen::MatrixXd>(columns, r.count, x.per[0]) * weights;
    else result.noalias() = matrix_in(x.data, r.count, x.per[0]) * weights;
  }
  return per;
}

graph::plate_value graph::plate_compute(const expr& e, const plate_range& r) {
  const auto id = static_cast<std::size_t>(e.id);
  auto& adjoint = plate_adjoints_[id];
  if (!varies(e)) {
    view v;
    try {
      v = eval_.eval(e, frame_);
    } catch (const eval_error&) {
      throw not_plate_batched{};
    }
    if (e.depends_on_unknown) {
      adjoint.assign(static_cast<std::size_t>(v.size()), 0.0);
      plate_invariants_.push_back(&e);
    }
    return {v.data, v.shape, false};
  }
  if (e.which == expr::kind::index) {
    const tensor& base = values_[static_cast<std::size_t>(e.args[0]->slot)];
    if (r.first < 0 || r.first + r.count > base.shape[0]) throw not_plate_batched{};
    shape row;
    for (int d = 1; d < base.shape.rank; ++d) row.dims[static_cast<std::size_t>(row.rank++)] = base.shape[d];
    if (e.depends_on_unknown) adjoint.assign(static_cast<std::size_t>(r.count * row.size()), 0.0);
    return {base.data.data() + r.first * row.size(), row, true};
  }
  // A call: its arguments first.
  std::array<plate_value, 2> a{};
  const std::size_t n = e.args.size();
  if (n > 2) throw not_plate_batched{};
  for (std::size_t i = 0; i < n; ++i) a[i] = plate_eval(*e.args[i], r);
  auto& out = plate_values_[id];
  const std::string_view name = e.fn->name();
  const std::size_t xi = a[0].batched ? 0 : 1;  // the batched operand
  const bool elementwise = e.fn->elementwise() || (name == "*" && a[1 - xi].per.rank == 0);
  const bool dot = name == "dot" && a[xi].per.rank == 1;
  const shape per = elementwise ? plate_elementwise(e, a, r, out)
                                : plate_product(name, a, r, out, dot ? plate_columns(e, xi, a[xi], r) : nullptr);
  if (e.depends_on_unknown) adjoint.assign(out.size(), 0.0);
  return {out.data(), per, true};
}

// Passes the adjoint of a batched node (in plate_adjoints_) to its arguments.
void graph::plate_backward(const expr& e, const plate_range& r, std::span<double* const> slots) {
  if (!e.depends_on_unknown || !varies(e)) return;
  const auto id = static_cast<std::size_t>(e.id);
  const double* d = plate_adjoints_[id].data();
  if (e.which == expr::kind::index) {
    double* to = slots[static_cast<std::size_t>(e.args[0]->slot)];
    if (!to) return;
    const index_t n = static_cast<index_t>(plate_adjoints_[id].size());
    const index_t width = n / r.count;
    to += r.first * width;
    for (index_t k = 0; k < n; ++k) to[k] += d[k];
    return;
  }
  const std::size_t n = e.args.size();
  const std::string_view name = e.fn->name();
  const bool scaling = name == "*" && (!varies(*e.args[0]) ? plate_shapes_[static_cast<std::size_t>(e.args[0]->id)].rank == 0
                                                                                : plate_shapes_[static_cast<std::size_t>(e.args[1]->id)].rank == 0);
  if (e.fn->elementwise() || scaling) {
    const index_t total = static_cast<index_t>(plate_values_[id].size());
    std::array<view, 2> args{};
    std::array<double*, 2> to{};
    std::array<std::vector<double>*, 2> fold{};  // a repeated invariant's adjoint, summed over rows after
    for (std::size_t i = 0; i < n; ++i) {
      const expr& a = *e.args[i];
      const auto aid = static_cast<std::size_t>(a.id);
      const bool batched = varies(a);
      if (batched) {
        args[i] = {plate_data_[aid], shape::vector(total)};
        if (a.depends_on_unknown) to[i] = plate_adjoints_[aid].data();
      } else if (plate_shapes_[aid].rank == 0) {
        args[i] = {plate_data_[aid], shape::scalar()};
        if (a.depends_on_unknown) to[i] = plate_adjoints_[aid].data();
      } else {
        args[i] = {plate_repeated_[aid].data(), shape::vector(total)};
        if (a.depends_on_unknown) {
          auto& tmp = plate_repeated_adjoint_[aid];
          tmp.assign(static_cast<std::size_t>(total), 0.0);
          to[i] = tmp.data();
          fold[i] = &tmp;
        }
      }
    }
    e.fn->backward(std::span<const view>(args.data(), n), view{plate_values_[id].data(), shape::vector(total)}, d,
                   std::span<double* const>(to.data(), n));
    for (std::size_t i = 0; i < n; ++i) {
      if (!fold[i]) continue;
      auto& sum = plate_adjoints_[static_cast<std::size_t>(e.args[i]->id)];
      const index_t width = static_cast<index_t>(sum.size());
      for (index_t k = 0; k < r.count; ++k)
        for (index_t j = 0; j < width; ++j) sum[static_cast<std::size_t>(j)] += (*fold[i])[static_cast<std::size_t>(k * width + j)];
    }
  } else {
    plate_product_backward(e, r, d);
  }
  for (std::size_t i = 0; i < n; ++i) plate_backward(*e.args[i], r, slots);
}

// A product's adjoint `d` passed to its operands (plate_product's reverse).
void graph::plate_product_backward(const expr& e, const plate_range& r, const double* d) {
  const auto id = static_cast<std::size_t>(e.id);
  const std::string_view name = e.fn->name();
  const std::size_t xi = varies(*e.args[0]) ? 0 : 1, mi = 1 - xi;
  const expr &xe = *e.args[xi], &me = *e.args[mi];
  const auto xid = static_cast<std::size_t>(xe.id), mid = static_cast<std::size_t>(me.id);
  const shape xs = plate_shapes_[xid], ms = plate_shapes_[mid];
  const matrix_in X(plate_data_[xid], r.count, xs[0]);
  if (name == "*") {
    const index_t rows = ms[0], cols = ms[1];
    const matrix_in M(plate_data_[mid], rows, cols);
    if (xi == 0) {  // out = X M: dX = dOut M', dM = X' dOut
      const matrix_in G(d, r.count, cols);
      if (xe.depends_on_unknown) matrix_out(plate_adjoints_[xid].data(), r.count, rows).noalias() += G * M.transpose();
      if (me.depends_on_unknown) matrix_out(plate_adjoints_[mid].data(), rows, cols).noalias() += X.transpose() * G;
    } else {  // out = X M': dX = dOut M, dM = dOut' X
      const matrix_in G(d, r.count, rows);
      if (xe.depends_on_unknown) matrix_out(plate_adjoints_[xid].data(), r.count, cols).noalias() += G * M;
      if (me.depends_on_unknown) matrix_out(plate_adjoints_[mid].data(), rows, cols).noalias() += G.transpose() * X;
    }
  } else {  // dot: out = X w: dX = dOut w', dw = X' dOut
    const Eigen::Map<const Eigen::VectorXd> G(d, r.count), w(plate_data_[mid], xs[0]);
    if (xe.depends_on_unknown) matrix_out(plate_adjoints_[xid].data(), r.count, xs[0]).noalias() += G * w.transpose();
    if (me.depends_on_unknown) {
      Eigen::Map<Eigen::VectorXd> dw(plate_adjoints_[mid].data(), xs[0]);
      const auto& c = plate_columns_[id];  // X's column-major copy where X is data
      if (!xe.depends_on_unknown && c.source == plate_data_[xid])
        dw.noalias() += Eigen::Map<const Eigen::MatrixXd>(c.data.data(), r.count, xs[0]).transpose() * G;
      else
        dw.noalias() += X.transpose() * G;
    }
  }
}

bool graph::plate_bounds(const statement& s, plate_range& r) {
  const std::size_t nodes = static_cast<std::size_t>(model_.expr_count);
  if (plate_values_.size() != nodes) {
    plate_values_.resize(nodes);
    plate_adjoints_.resize(nodes);
    plate_repeated_.resize(nodes);
    plate_repeated_adjoint_.resize(nodes);
    plate_columns_.resize(nodes);
    plate_data_.resize(nodes);
    plate_shapes_.resize(nodes);
    mark_varies();
  }
  const auto& loop = s.loops[0];
  // Bounds free of unknowns are the same at every gradient, so they are worked out once.
  // A vectorised `~`'s bound is the extent of its arrays (shape_only: it reads their
  // shapes), but evaluating it evaluates them whole: for `Y ~ Normal(a + X * b, s)` a
  // second matrix-vector product per gradient.
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (plate_known_.size() != model_.statements.size()) plate_known_.assign(model_.statements.size(), {0, -1});
  const bool fixed = !loop.lo->depends_on_unknown && !loop.hi->depends_on_unknown;
  if (fixed && plate_known_[index].count >= 0) {
    r = plate_known_[index];
    frame_.loop[static_cast<std::size_t>(loop.slot)] = r.first + 1;
    return true;
  }
  try {
    const index_t lo = eval_.eval_index(*loop.lo, frame_), hi = eval_.eval_index(*loop.hi, frame_);
    r = {lo - 1, std::max<index_t>(0, hi - lo + 1)};
    frame_.loop[static_cast<std::size_t>(loop.slot)] = lo;
  } catch (const eval_error&) {
    return false;
  }
  if (fixed) plate_known_[index] = r;
  return true;
}

bool graph::define_plate(const statement& s, plate_range& r, std::vector<const expr*>& invariants) {
  if (!plate_bounds(s, r)) return false;
  tensor& target = values_[static_cast<std::size_t>(s.target)];
  if (r.first + r.count > target.shape[0]) return false;
  invariants.clear();
  if (r.count == 0) return true;
  plate_invariants_.clear();
  plate_value v;
  try {
    v = plate_eval(*s.value, r);
  } catch (const not_plate_batched&) {
    return false;
  }
  if (!v.batched || v.per.rank != 0) return false;
  std::copy(v.data, v.data + r.count, target.data.begin() + r.first);
  invariants = plate_invariants_;
  return true;
}

void graph::pass_back_definition(const statement& s, const plate_range& r, const std::vector<const expr*>& invariants,
                                 std::span<double* const> slots) {
  if (r.count == 0) return;
  // The target's adjoint, collected from the terms and later definitions, is the value's.
  const double* from = slots[static_cast<std::size_t>(s.target)] + r.first;
  std::copy(from, from + r.count, plate_adjoints_[static_cast<std::size_t>(s.value->id)].begin());
  plate_backward(*s.value, r, slots);
  for (const expr* e : invariants) eval_.backward(*e, frame_, plate_adjoints_[static_cast<std::size_t>(e->id)].data(), slots);
}

bool graph::differentiate_plate(const statement& s, std::span<double* const> slots, double& total) {
  plate_range r;
  if (!plate_bounds(s, r)) return false;
  total = 0;
  if (r.count == 0) return true;
  plate_invariants_.clear();
  std::array<plate_value, stdlib::max_params> args{};
  try {
    if (s.which == statement::kind::factor) {
      args[0] = plate_eval(*s.value, r);
      if (!args[0].batched || args[0].per.rank != 0) return false;
    } else {
      if (s.args.size() > args.size()) return false;
      for (std::size_t i = 0; i < s.args.size(); ++i) args[i] = plate_eval(*s.args[i], r);
    }
  } catch (const not_plate_batched&) {
    return false;
  }
  if (s.which == statement::kind::factor) {
    const auto id = static_cast<std::size_t>(s.value->id);
    for (index_t k = 0; k < r.count; ++k) total += args[0].data[k];
    if (s.value->depends_on_unknown) plate_adjoints_[id].assign(static_cast<std::size_t>(r.count), 1.0);
    plate_backward(*s.value, r, slots);
  } else {
    const tensor& target = values_[static_cast<std::size_t>(s.target)];
    if (r.first + r.count > target.shape[0]) return false;
    const bool check = needs_check_[static_cast<std::size_t>(&s - model_.statements.data())] != 0;
    double* value_slot = slots[static_cast<std::size_t>(s.target)];
    // Each argument's view and adjoint move by `step` per instance (0 for an invariant).
    const std::size_t n = s.args.size();
    std::array<view, stdlib::max_params> at{};
    std::array<index_t, stdlib::max_params> step{};
    stdlib::gradient_out g;
    for (std::size_t i = 0; i < n; ++i) {
      at[i] = {args[i].data, args[i].per};
      step[i] = args[i].batched ? args[i].per.size() : 0;
      if (s.args[i]->depends_on_unknown) g.params[i] = plate_adjoints_[static_cast<std::size_t>(s.args[i]->id)].data();
    }
    const std::span<const view> params(at.data(), n);
    // Scalar parameters: the rows in one call, where a distribution shares work between
    // them (a Normal's shared scale: one log, not one a row) and the calls are not virtual.
    const bool rows_at_once = s.dist->value_rank() == 0 &&
                              std::all_of(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(n),
                                          [](const plate_value& a) { return a.per.rank == 0; });
    if (rows_at_once) {
      stdlib::rows_params rows;
      for (std::size_t i = 0; i < n; ++i) {
        rows.p[i] = args[i].data;
        rows.step[i] = step[i];
        rows.dp[i] = g.params[i];
      }
      total += s.dist->log_density_rows(rows, n, target.data.data() + r.first, value_slot ? value_slot + r.first : nullptr, r.count,
                                        check);
      if (total == -INFINITY) return true;  // an invalid parameter, as below
    }
    for (index_t k = 0; k < r.count && !rows_at_once; ++k) {
      if (k > 0)
        for (std::size_t i = 0; i < n; ++i) {
          at[i].data += step[i];
          if (g.params[i]) g.params[i] += step[i];
        }
      if (check) {
        try {
          s.dist->check(params);
        } catch (const stdlib::parameter_error&) {
          total = -INFINITY;
          return true;
        }
      }
      if (value_slot) g.value = value_slot + r.first + k;
      total += s.dist->log_density(params, view{target.data.data() + r.first + k, shape::scalar()}, true, &g);
    }
    for (const auto& a : s.args) plate_backward(*a, r, slots);
  }
  for (const expr* e : plate_invariants_) eval_.backward(*e, frame_, plate_adjoints_[static_cast<std::size_t>(e->id)].data(), slots);
  return true;
}

}  // namespace ppl::model
