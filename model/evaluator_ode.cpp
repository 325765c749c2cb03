// An ODE's solution as an expression node (lang/checker_ode.cpp): the solver
// (model/ode.hpp) calls back for the right-hand side, which is evaluated with the node's
// time and state bound to its locals, and for its Jacobians, which come from this
// evaluator's own reverse pass over the right-hand side, one pass per element of the
// state. The parameters are the elements of the unknown and derived variables the
// right-hand side reads.
//
// While the graph differentiates (differentiating()), a solve carries the sensitivities
// dy/d(y0, p) along, so the value and its gradient come from one solve; either way the
// solution is kept per instance of the node with the inputs it was solved for, and a
// second evaluation with the same inputs (the graph evaluates a definition, then
// differentiates it) costs a comparison.
#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/core.h>
#include <limits>

#include "model/evaluator.hpp"
#include "model/ode.hpp"
#include "stdlib/function.hpp"

namespace ppl::model {

using lang::ir::expr;

namespace {

// The loop variables an expression reads, each once.
void loop_slots(const expr& e, std::vector<int>& out) {
  if (e.which == expr::kind::loop_var && std::find(out.begin(), out.end(), e.slot) == out.end()) out.push_back(e.slot);
  for (const auto& a : e.args) loop_slots(*a, out);
  for (const auto& ix : e.indices) {
    if (ix.lo) loop_slots(*ix.lo, out);
    if (ix.hi) loop_slots(*ix.hi, out);
  }
}

// Whether an expression reads an ODE's time or state.
bool reads_local(const expr& e) {
  return lang::ir::any_node(e, [](const expr& x) { return x.which == expr::kind::local; });
}

}  // namespace

// The right-hand side compiled for one solve, where it is a vector literal of scalar
// expressions (the common form: [a * s[1] - b * s[1] * s[2], ...]): one slot per node, the
// indices resolved once (to a state element, or an element of a variable's storage, which
// no step changes), and each call one function call on scalar slots. The evaluator's tree
// walk costs more per node than the arithmetic; this is the same arithmetic without it.
// Any other form is evaluated through the evaluator.
struct evaluator::ode_tape {
  struct op {
    const stdlib::function* fn;
    std::array<int, 3> in;
    int arity, out;
  };
  enum class leaf_kind { time, state, value };
  struct leaf {
    int slot;
    leaf_kind kind;
    long index;  // state: its element; value: the parameter's column, or -1 for data
  };
  std::vector<double> v, a;
  std::vector<op> ops;
  std::vector<leaf> leaves;
  std::vector<int> outputs;

  void forward(double t, const double* y) {
    for (const auto& l : leaves)
      if (l.kind == leaf_kind::time) v[static_cast<std::size_t>(l.slot)] = t;
      else if (l.kind == leaf_kind::state) v[static_cast<std::size_t>(l.slot)] = y[l.index];
    std::array<view, 3> args;
    for (const auto& o : ops) {
      for (int k = 0; k < o.arity; ++k) args[static_cast<std::size_t>(k)] = {&v[static_cast<std::size_t>(o.in[static_cast<std::size_t>(k)])], shape::scalar()};
      o.fn->eval(std::span<const view>(args.data(), static_cast<std::size_t>(o.arity)), &v[static_cast<std::size_t>(o.out)]);
    }
  }

  void value(double t, const double* y, double* dy) {
    forward(t, y);
    for (std::size_t i = 0; i < outputs.size(); ++i) dy[i] = v[static_cast<std::size_t>(outputs[i])];
  }

  void jacobian(double t, const double* y, std::size_t n, std::size_t p, double* dy, double* jy, double* jp, double* dfdt) {
    forward(t, y);
    if (dy)
      for (std::size_t i = 0; i < n; ++i) dy[i] = v[static_cast<std::size_t>(outputs[i])];
    if (jy) std::fill(jy, jy + n * n, 0.0);
    if (jp) std::fill(jp, jp + n * p, 0.0);
    std::array<view, 3> args;
    std::array<double*, 3> slots{};
    for (std::size_t i = 0; i < n; ++i) {
      std::fill(a.begin(), a.end(), 0.0);
      a[static_cast<std::size_t>(outputs[i])] = 1;
      for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
        const double d = a[static_cast<std::size_t>(it->out)];
        if (d == 0) continue;
        for (int k = 0; k < it->arity; ++k) {
          const auto in = static_cast<std::size_t>(it->in[static_cast<std::size_t>(k)]);
          args[static_cast<std::size_t>(k)] = {&v[in], shape::scalar()};
          slots[static_cast<std::size_t>(k)] = &a[in];
        }
        it->fn->backward(std::span<const view>(args.data(), static_cast<std::size_t>(it->arity)),
                         {&v[static_cast<std::size_t>(it->out)], shape::scalar()}, &d,
                         std::span<double* const>(slots.data(), static_cast<std::size_t>(it->arity)));
      }
      if (dfdt) dfdt[i] = 0;
      for (const auto& l : leaves) {
        const double d = a[static_cast<std::size_t>(l.slot)];
        if (l.kind == leaf_kind::time && dfdt) dfdt[i] += d;
        else if (l.kind == leaf_kind::state && jy) jy[i * n + static_cast<std::size_t>(l.index)] += d;
        else if (l.kind == leaf_kind::value && jp && l.index >= 0) jp[i * p + static_cast<std::size_t>(l.index)] += d;
      }
    }
  }
};

struct evaluator::ode_binding {
  ode_binding(evaluator& evaluating, const expr& node, frame& values) : ev(evaluating), e(node), f(values) {}
  evaluator& ev;
  const expr& e;
  frame& f;
  std::size_t n = 0;
  ode_options options;
  std::span<const double> y0, ts;
  double t0 = 0;
  std::vector<int> reads;  // the variables the right-hand side reads, sorted
  // The parameters, each with an adjoint buffer of its own while a Jacobian is taken.
  std::vector<int> params;
  std::vector<std::vector<double>> buffers;
  std::vector<double*> slots, nulls;  // by variable
  std::size_t p = 0;
  std::vector<double> seed;

  // The arguments' values, from `value(k)`, checked.
  template <class Value>
  void read_inputs(Value value) {
    const view start = value(1), first = value(2), times = value(3);
    n = static_cast<std::size_t>(start.size());
    y0 = {start.data, n};
    t0 = first.scalar();
    ts = {times.data, static_cast<std::size_t>(times.size())};
    if (n == 0) throw eval_error(e.args[1]->pos, "the initial state of an ODE is empty");
    if (!std::isfinite(t0)) throw eval_error(e.args[2]->pos, fmt::format("the initial time of an ODE is {}, not a finite number", t0));
    for (std::size_t k = 0; k < ts.size(); ++k) {
      const double before = k ? ts[k - 1] : t0;
      if (!std::isfinite(ts[k]) || (k == 0 ? ts[k] <= before : ts[k] < before))
        throw eval_error(e.args[3]->pos, fmt::format("the output times of an ODE must be finite, after the initial time {} and in "
                                                     "increasing order; element {} is {} after {}",
                                                     t0, k + 1, ts[k], before));
    }
    options.which = e.method == expr::ode_method::bdf ? ode_options::method::bdf : ode_options::method::rk45;
    if (e.args.size() > 4) {
      for (std::size_t k : {4u, 5u}) {
        const double tol = value(k).scalar();
        if (!(tol > 0 && std::isfinite(tol)))
          throw eval_error(e.args[k]->pos, fmt::format("an ODE's tolerance must be positive and finite, not {}", tol));
      }
      const double steps = value(6).scalar();
      if (!(steps >= 1 && steps <= 1e15))
        throw eval_error(e.args[6]->pos, fmt::format("an ODE's max_num_steps must be at least 1, not {}", steps));
      options.rel_tol = value(4).scalar();
      options.abs_tol = value(5).scalar();
      options.max_steps = static_cast<long>(steps);
    }
    lang::ir::collect_reads(e.args[0].get(), reads);
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  }

  // Everything the solution depends on: the arguments and the right-hand side's variables.
  void key(std::vector<double>& out) const {
    out.assign(y0.begin(), y0.end());
    out.push_back(t0);
    out.insert(out.end(), ts.begin(), ts.end());
    out.push_back(options.rel_tol);
    out.push_back(options.abs_tol);
    out.push_back(static_cast<double>(options.max_steps));
    for (int v : reads) {
      const tensor& t = (*f.values)[static_cast<std::size_t>(v)];
      out.insert(out.end(), t.data.begin(), t.data.end());
    }
  }

  void find_params() {
    nulls.assign(ev.model_.variables.size(), nullptr);
    slots = nulls;
    for (int v : reads) {
      const auto role = ev.model_.variables[static_cast<std::size_t>(v)].role;
      if (role != lang::ir::role::unknown && role != lang::ir::role::derived) continue;
      params.push_back(v);
      buffers.emplace_back(static_cast<std::size_t>((*f.values)[static_cast<std::size_t>(v)].size()));
      p += buffers.back().size();
    }
    for (std::size_t j = 0; j < params.size(); ++j) slots[static_cast<std::size_t>(params[j])] = buffers[j].data();
  }

  view rhs(double t, const double* y) {
    ev.locals_[static_cast<std::size_t>(e.slot)].assign(1, t);
    ev.locals_[static_cast<std::size_t>(e.slot) + 1].assign(y, y + n);
    view r = ev.eval(*e.args[0], f);
    if (static_cast<std::size_t>(r.size()) != n)
      throw eval_error(e.args[0]->pos, fmt::format("the right-hand side of this ODE has {} elements and its state {}", r.size(), n));
    return r;
  }

  // f, and row i of each Jacobian from one reverse pass seeded with the unit vector e_i.
  void jacobian(double t, const double* y, double* dy, double* jy, double* jp, double* dfdt) {
    view r = rhs(t, y);
    if (dy) std::copy(r.begin(), r.end(), dy);
    auto& time_adjoint = ev.local_adjoints_[static_cast<std::size_t>(e.slot)];
    auto& state_adjoint = ev.local_adjoints_[static_cast<std::size_t>(e.slot) + 1];
    seed.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      time_adjoint.assign(1, 0.0);
      state_adjoint.assign(n, 0.0);
      for (auto& b : buffers) std::fill(b.begin(), b.end(), 0.0);
      seed[i] = 1;
      ev.backward(*e.args[0], f, seed.data(), jp ? slots : nulls);
      seed[i] = 0;
      if (jy) std::copy(state_adjoint.begin(), state_adjoint.end(), jy + i * n);
      if (dfdt) dfdt[i] = time_adjoint[0];
      if (jp) {
        double* row = jp + i * p;
        for (const auto& b : buffers) row = std::copy(b.begin(), b.end(), row);
      }
    }
    time_adjoint.clear();
    state_adjoint.clear();
  }

  // The tape of the right-hand side (see ode_tape), or false where its form has none.
  bool compile(ode_tape& t) {
    const expr& r = *e.args[0];
    if (r.which != expr::kind::vector_literal) return false;
    for (const auto& item : r.args) {
      const int slot = compile(t, *item);
      if (slot < 0) return false;
      t.outputs.push_back(slot);
    }
    t.a.assign(t.v.size(), 0.0);
    return true;
  }
  int new_slot(ode_tape& t, double value) {
    t.v.push_back(value);
    return static_cast<int>(t.v.size()) - 1;
  }
  // A variable's element as a leaf: its value now (no step changes it) and, for a
  // parameter, its column of J_p.
  int value_leaf(ode_tape& t, int variable, index_t element) {
    const int slot = new_slot(t, (*f.values)[static_cast<std::size_t>(variable)].data[static_cast<std::size_t>(element)]);
    long column = -1;
    std::size_t at = 0;
    for (std::size_t j = 0; j < params.size(); ++j) {
      if (params[j] == variable) column = static_cast<long>(at) + static_cast<long>(element);
      at += buffers[j].size();
    }
    t.leaves.push_back({slot, ode_tape::leaf_kind::value, column});
    return slot;
  }
  int compile(ode_tape& t, const expr& x) {
    if (x.type.rank != 0) return -1;
    switch (x.which) {
      case expr::kind::int_const:
      case expr::kind::real_const:
        return new_slot(t, x.constant);
      case expr::kind::local: {
        const int slot = new_slot(t, 0);
        t.leaves.push_back({slot, ode_tape::leaf_kind::time, 0});
        return slot;
      }
      case expr::kind::loop_var:
        return new_slot(t, static_cast<double>(f.loop[static_cast<std::size_t>(x.slot)]));
      case expr::kind::variable:
        return value_leaf(t, x.slot, 0);
      case expr::kind::index: {
        const expr& base = *x.args[0];
        for (const auto& ix : x.indices)
          if (ix.which != lang::ir::index_item::kind::single || reads_local(*ix.lo)) return -1;
        if (base.which == expr::kind::local && x.indices.size() == 1) {
          const index_t k = ev.eval_index(*x.indices[0].lo, f);
          if (k < 1 || k > static_cast<index_t>(n))
            throw eval_error(x.indices[0].lo->pos, fmt::format("index {} is out of range 1..{} for the ODE's state", k, n));
          const int slot = new_slot(t, 0);
          t.leaves.push_back({slot, ode_tape::leaf_kind::state, static_cast<long>(k - 1)});
          return slot;
        }
        if (base.which != expr::kind::variable) return -1;
        const index_plan plan = ev.plan_index(x, f);
        return value_leaf(t, base.slot, plan.offset);
      }
      case expr::kind::call: {
        if (x.args.size() > 3) return -1;
        ode_tape::op o{x.fn, {0, 0, 0}, static_cast<int>(x.args.size()), 0};
        for (std::size_t k = 0; k < x.args.size(); ++k) {
          const int in = compile(t, *x.args[k]);
          if (in < 0) return -1;
          o.in[k] = in;
        }
        o.out = new_slot(t, 0);
        t.ops.push_back(o);
        return o.out;
      }
      default:
        return -1;
    }
  }

  // Solves into `entry`: y, and S when asked. A solver that cannot go on leaves NaN, as a
  // density that is not finite, which a sampler rejects.
  void solve(ode_entry& entry, bool sensitivities) {
    if (sensitivities)
      find_params();
    else
      nulls.assign(ev.model_.variables.size(), nullptr);
    ode_system s;
    s.n = n;
    s.p = p;
    ode_tape tape;
    if (compile(tape)) {
      s.f = [&tape](double t, const double* y, double* dy) { tape.value(t, y, dy); };
      s.jacobian = [&tape, this](double t, const double* y, double* dy, double* jy, double* jp, double* dfdt) {
        tape.jacobian(t, y, n, p, dy, jy, jp, dfdt);
      };
    } else {
      s.f = [this](double t, const double* y, double* dy) {
        view r = rhs(t, y);
        std::copy(r.begin(), r.end(), dy);
      };
      s.jacobian = [this](double t, const double* y, double* dy, double* jy, double* jp, double* dfdt) { jacobian(t, y, dy, jy, jp, dfdt); };
    }
    entry.value.assign(ts.size() * n, 0.0);
    entry.sensitivities.assign(sensitivities ? ts.size() * n * (n + p) : 0, 0.0);
    entry.params = params;
    entry.has_sensitivities = sensitivities;
    read_log* logging = ev.log;
    ev.log = nullptr;  // the right-hand side's reads are logged once, by the caller
    try {
      solve_ode(s, options, y0.data(), t0, ts.data(), ts.size(), entry.value.data(), sensitivities ? entry.sensitivities.data() : nullptr);
    } catch (const ode_failure&) {
      std::fill(entry.value.begin(), entry.value.end(), std::numeric_limits<double>::quiet_NaN());
      std::fill(entry.sensitivities.begin(), entry.sensitivities.end(), std::numeric_limits<double>::quiet_NaN());
    } catch (...) {
      ev.log = logging;
      throw;
    }
    ev.log = logging;
  }

  // The kept solution for this instance when its inputs are unchanged (and it has S when
  // asked), else a new one.
  ode_entry& solution(bool sensitivities) {
    // An instance is told by the loop variables the node reads (others hold whatever
    // value their last loop left).
    auto [at, fresh] = ev.ode_loops_.try_emplace(e.id);
    if (fresh) loop_slots(e, at->second);
    std::vector<index_t> instance;
    for (int slot : at->second) instance.push_back(f.loop[static_cast<std::size_t>(slot)]);
    auto& entry = ev.ode_solutions_[e.id][instance];
    key(ev.ode_key_);
    if (ev.ode_key_ == entry.key && (entry.has_sensitivities || !sensitivities)) return entry;
    solve(entry, sensitivities);
    entry.key.swap(ev.ode_key_);
    return entry;
  }
};

view evaluator::eval_ode(const expr& e, frame& f) {
  ode_binding b(*this, e, f);
  b.read_inputs([&](std::size_t k) { return eval(*e.args[k], f); });
  b.rhs(b.t0, b.y0.data());  // checks the shapes; logs the reads where asked
  const ode_entry& solved = b.solution(differentiating_ && e.depends_on_unknown);
  auto& buffer = scratch_[static_cast<std::size_t>(e.id)];
  buffer = solved.value;
  return {buffer.data(), shape::matrix(static_cast<index_t>(b.ts.size()), static_cast<index_t>(b.n))};
}

void evaluator::backward_ode(const expr& e, frame& f, const double* d_out, std::span<double* const> adjoints) {
  ode_binding b(*this, e, f);
  b.read_inputs([&](std::size_t k) { return results_[static_cast<std::size_t>(e.args[k]->id)]; });
  const ode_entry& solved = b.solution(true);
  const std::size_t n = b.n, cols = solved.sensitivities.size() / std::max<std::size_t>(1, b.ts.size() * n);
  std::vector<double> adjoint(cols, 0.0);
  for (std::size_t r = 0; r < b.ts.size() * n; ++r) {
    if (d_out[r] == 0) continue;
    for (std::size_t c = 0; c < cols; ++c) adjoint[c] += d_out[r] * solved.sensitivities[r * cols + c];
  }
  std::size_t at = n;
  for (int v : solved.params) {
    const std::size_t size = static_cast<std::size_t>((*f.values)[static_cast<std::size_t>(v)].size());
    if (double* to = adjoints[static_cast<std::size_t>(v)])
      for (std::size_t i = 0; i < size; ++i) to[i] += adjoint[at + i];
    at += size;
  }
  if (e.args[1]->depends_on_unknown) backward(*e.args[1], f, adjoint.data(), adjoints);
}

}  // namespace ppl::model
