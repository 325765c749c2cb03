// The gradient of the log density with respect to a block of unknowns, by reverse-mode
// automatic differentiation over the statements (the expression-level reverse pass is
// model/evaluator_backward.cpp). The order is the classic one for a program without
// loops carried between statements (Griewank & Walther 2008, §3.2): derived variables are
// computed forward in dependency order; then every term's instance is evaluated and its
// derivative passed back at once (a term's adjoint is 1); last, the derived variables'
// definitions are visited in reverse, each passing its collected adjoint on to what it
// reads. Instances of a definition run in reverse too, so x[i] = f(x[i - 1]) works.
#include <algorithm>
#include <array>
#include <cmath>

#include <stdexcept>

#include "model/graph.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;

namespace {

// The largest sub-expressions that depend on unknowns but on no loop variable, to be
// evaluated once per plate (see graph::log_density_gradient). A definition's own target
// is written while its plate runs, so what reads it is never hoisted.
void collect_hoisted(const expr& e, int own_target, std::vector<const expr*>& out) {
  // An ODE's right-hand side is evaluated and differentiated by its solver, whole.
  if (!e.depends_on_unknown || e.which == expr::kind::ode) return;
  const bool computed = e.which == expr::kind::call || e.which == expr::kind::vector_literal;
  if (computed && !lang::ir::uses_loop_variable(e) && (own_target < 0 || !lang::ir::reads_variable(e, own_target))) {
    out.push_back(&e);
    return;
  }
  for (const auto& a : e.args) collect_hoisted(*a, own_target, out);
}

}  // namespace

struct graph::gradient_plan {
  std::vector<char> wrt;
  std::vector<char> carries;  // by variable: receives an adjoint (wrt, or derived from them and feeding a term)
  struct step {
    const statement* s;
    std::vector<const expr*> hoisted;
    bool batched = false;  // a plate differentiated as one batch (graph_plate.cpp)
    // A batched definition's last forward pass, when it went as a batch (else the reverse
    // pass goes instance by instance): its instances and plate-invariant nodes.
    bool defined = false;
    // A statement replayed from its tape in this gradient (model/tape.hpp), else null.
    model::tape* tape = nullptr;
    // A term summed by its sufficient statistics (model/graph_linear_normal.cpp), else null.
    linear_normal* linear = nullptr;
    // A definition recomputed as c + A v (model/graph_affine_definitions.cpp), else null:
    // forward the product, backward A' times its target's adjoint.
    affine_definition* affine = nullptr;
    plate_range range;
    std::vector<const expr*> invariants;
    // A `~` with a log-density call (statement::density): that call's hoisted parts, for its tape.
    std::vector<const expr*> density_hoisted;
  };
  std::vector<step> definitions;  // derived definitions to recompute and pass back through, in order
  std::vector<step> terms;        // the terms that involve a carrying variable
  std::vector<std::vector<double>> adjoint;  // by variable: a derived variable's adjoint
  std::vector<double*> slots;                // by variable: where its adjoint goes, or null
  std::uint64_t work = 0;                    // the work a gradient counts: 2 an instance of each step
};

const graph::gradient_plan& graph::plan_gradient(const std::vector<char>& wrt) {
  if (gradient_plan_ && gradient_plan_->wrt == wrt) return *gradient_plan_;
  auto plan = std::make_shared<gradient_plan>();
  const auto n = model_.variables.size();
  plan->wrt = wrt;
  // Which derived variables feed a term, directly or through other derived variables.
  std::vector<char> feeds(n, 0);
  // While a term's statistics are read (only_term_), the plan holds that term alone.
  auto left_out = [&](const statement& s) { return predictive(s) || (only_term_ && &s != only_term_); };
  for (auto it = model_.statements.rbegin(); it != model_.statements.rend(); ++it) {
    const bool term = it->which != statement::kind::assign;
    if (term ? left_out(*it) : !feeds[static_cast<std::size_t>(it->target)]) continue;
    for (int r : lang::ir::statement_reads(*it)) feeds[static_cast<std::size_t>(r)] = 1;
  }
  plan->carries.assign(n, 0);
  for (std::size_t v = 0; v < n && v < wrt.size(); ++v) plan->carries[v] = wrt[v];
  auto reads_carrying = [&](const statement& s) {
    for (int r : lang::ir::statement_reads(s))
      if (plan->carries[static_cast<std::size_t>(r)]) return true;
    return false;
  };
  for (const statement& s : model_.statements) {
    std::vector<const expr*> hoisted;
    if (s.which == statement::kind::assign) {
      const auto t = static_cast<std::size_t>(s.target);
      if (model_.variables[t].role != role::derived || !feeds[t] || !reads_carrying(s)) continue;
      plan->carries[t] = 1;
      if (!s.loops.empty()) collect_hoisted(*s.value, s.target, hoisted);
      plan->definitions.push_back({&s, std::move(hoisted), plate_batchable(s)});
      plan->definitions.back().affine = affine_definition_of(s);
    } else if (own_terms_ && own_terms_->statements[static_cast<std::size_t>(&s - model_.statements.data())]) {
      continue;  // the caller's (graph::take_terms)
    } else if (!left_out(s) && (reads_carrying(s) || plan->carries[static_cast<std::size_t>(s.target)])) {
      if (!s.loops.empty()) {
        for (const auto& a : s.args) collect_hoisted(*a, -1, hoisted);
        if (s.value) collect_hoisted(*s.value, -1, hoisted);
      }
      plan->terms.push_back({&s, std::move(hoisted), plate_batchable(s)});
      plan->terms.back().linear = linear_normal_of(s);
      if (s.density) collect_hoisted(*s.density, -1, plan->terms.back().density_hoisted);
    }
  }
  plan->adjoint.resize(n);
  plan->slots.assign(n, nullptr);
  gradient_plan_ = plan;
  return *plan;
}

double graph::log_density_gradient(const std::vector<char>& wrt, std::vector<std::vector<double>>& gradient) {
  if (temperature_ == 1) return log_density_gradient_of(wrt, gradient, -1);
  // Tempered (SMC's moves): the adjoints of every term are summed into shared slots, so a
  // likelihood term's cannot be scaled there. The gradient is linear in the terms: the
  // prior's and the likelihood's are taken in two passes and added, the second times beta.
  const double prior = log_density_gradient_of(wrt, gradient, 0);
  if (temperature_ == 0 || std::isnan(prior) || prior == -INFINITY) return prior;
  std::vector<std::vector<double>> saved(gradient.size());
  for (std::size_t v = 0; v < wrt.size() && v < gradient.size(); ++v)
    if (wrt[v]) saved[v] = gradient[v];
  const double likelihood = log_density_gradient_of(wrt, gradient, 1);
  for (std::size_t v = 0; v < wrt.size() && v < gradient.size(); ++v)
    if (wrt[v])
      for (std::size_t k = 0; k < gradient[v].size(); ++k) gradient[v][k] = saved[v][k] + temperature_ * gradient[v][k];
  return prior + temperature_ * likelihood;
}

double graph::log_density_gradient_of(const std::vector<char>& wrt, std::vector<std::vector<double>>& gradient, int which) {
  gradient_plan& plan = const_cast<gradient_plan&>(plan_gradient(wrt));
  if (plan.work == 0)
    for (const auto* steps : {&plan.definitions, &plan.terms})
      for (const auto& st : *steps) plan.work += 2 * instance_count(*st.s);
  work_ += plan.work;
  struct differentiating {
    evaluator& e;
    explicit differentiating(evaluator& ev) : e(ev) { e.differentiating(true); }
    ~differentiating() { e.differentiating(false); }
  } scope(eval_);
  if (gradient.size() < values_.size()) gradient.resize(values_.size());
  for (std::size_t v = 0; v < values_.size(); ++v) {
    if (!plan.carries[v]) continue;
    auto& to = v < wrt.size() && wrt[v] ? gradient[v] : plan.adjoint[v];
    to.assign(values_[v].data.size(), 0.0);
    plan.slots[v] = to.data();
  }
  batch_fresh_.assign(model_.statements.size(), 0);
  for (auto& d : plan.definitions) {
    if (d.affine) {
      apply_affine_definition(*d.affine, *d.s);
      continue;
    }
    d.defined = d.batched && define_plate(*d.s, d.range, d.invariants);
    d.tape = nullptr;
    if (d.defined) continue;
    // A definition the batch refuses (it reads its own target, or its values are not
    // scalars) replays its tape; the instance path is the last resort.
    if (!plan_batch(*d.s) && (d.tape = tape_forward(*d.s, d.hoisted))) continue;
    batch_one_block_ = nullptr;
    recompute(*d.s);
    if (batch_one_block_ == d.s) batch_fresh_[static_cast<std::size_t>(d.s - model_.statements.data())] = 1;
  }
  double total = 0;
  for (const auto& t : plan.terms) {
    if (which >= 0 && likelihood_[static_cast<std::size_t>(t.s - model_.statements.data())] != which) continue;
    double term = 0;
    if (t.linear) {
      term = linear_normal_term(*t.linear, plan.slots);
    } else if (!(t.batched && differentiate_plate(*t.s, plan.slots, term)) && !batch_differentiate(*t.s, plan.slots, term)) {
      // A factor replays its tape, a `~` its log-density call's; the instance path is the last resort.
      const bool sample = t.s->which == statement::kind::sample;
      if (model::tape* taped = !sample || t.s->density ? tape_forward(*t.s, sample ? t.density_hoisted : t.hoisted) : nullptr) {
        term = taped->total();
        taped->backward(plan.slots, false);
      } else {
        term = differentiate_term(*t.s, t.hoisted, plan.slots, false);
      }
    }
    total += term;
    if (std::isnan(total) || total == -INFINITY) return total;
  }
  if (own_terms_ && which != 0) {  // the likelihood's
    total += own_terms_->add(plan.slots);
    if (std::isnan(total) || total == -INFINITY) return total;
  }
  for (auto it = plan.definitions.rbegin(); it != plan.definitions.rend(); ++it)
    if (it->affine)
      pass_back_affine_definition(*it->affine, *it->s, plan.slots);
    else if (it->defined)
      pass_back_definition(*it->s, it->range, it->invariants, plan.slots);
    else if (it->tape)
      it->tape->backward(plan.slots, true);
    else if (!batch_pass_back(*it->s, plan.slots))
      differentiate_term(*it->s, it->hoisted, plan.slots, true);
  batch_fresh_.assign(model_.statements.size(), 0);
  return total;
}

// One instance of `s` at the frame's loops: a term's log density is returned and its
// gradient, times `weight`, added into the slots (-inf where a parameter that depends on
// unknowns is invalid); a definition passes its target's adjoint on and returns 0. With a
// weight of 1 an argument's adjoint may be written in place; otherwise each goes through
// a buffer that is scaled first.
double graph::differentiate_instance(const statement& s, std::span<double* const> slots, double weight) {
  if (s.which == statement::kind::assign) {
    const view x = eval_.eval(*s.value, frame_);
    const index_t offset = target_offset(s, x.size());
    eval_.backward(*s.value, frame_, slots[static_cast<std::size_t>(s.target)] + offset, slots);
    return 0;
  }
  if (s.which == statement::kind::factor) {
    const double value = eval_.eval(*s.value, frame_).scalar();
    eval_.backward(*s.value, frame_, &weight, slots);
    return value;
  }
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  auto& arg_adjoints = term_adjoints_;
  if (arg_adjoints.size() < s.args.size() + 1) arg_adjoints.resize(s.args.size() + 1);
  const auto& args = eval_args(s);
  if (needs_check_[index]) {
    try {
      s.dist->check(args);
    } catch (const stdlib::parameter_error&) {
      return -INFINITY;
    }
  }
  const bool direct = weight == 1;
  const shape value = value_shape_of(s, args);
  const index_t offset = target_offset(s, value.size());
  stdlib::gradient_out g;
  double* value_slot = slots[static_cast<std::size_t>(s.target)];
  if (value_slot && direct) {
    g.value = value_slot + offset;
  } else if (value_slot) {
    arg_adjoints[s.args.size()].assign(static_cast<std::size_t>(value.size()), 0.0);
    g.value = arg_adjoints[s.args.size()].data();
  }
  std::array<char, stdlib::max_params> pending{};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!s.args[i]->depends_on_unknown) continue;
    bool in_place = false;
    if (direct) g.params[i] = eval_.adjoint_in_place(*s.args[i], frame_, slots, in_place);
    if (in_place) continue;
    arg_adjoints[i].assign(static_cast<std::size_t>(args[i].size()), 0.0);
    g.params[i] = arg_adjoints[i].data();
    pending[i] = 1;
  }
  const double total = s.dist->log_density(args, view{values_[static_cast<std::size_t>(s.target)].data.data() + offset, value}, true, &g);
  if (!direct) {
    for (std::size_t i = 0; i < args.size(); ++i)
      if (pending[i])
        for (double& a : arg_adjoints[i]) a *= weight;
    if (value_slot)
      for (index_t k = 0; k < value.size(); ++k) value_slot[offset + k] += weight * g.value[k];
  }
  for (std::size_t i = 0; i < args.size(); ++i)
    if (pending[i]) eval_.backward(*s.args[i], frame_, g.params[i], slots);
  return total;
}

// One statement's instances, each evaluated and differentiated: a term's log density is
// returned and its adjoint is 1; a definition (`reverse`) passes on its target's adjoint.
double graph::differentiate_term(const statement& s, const std::vector<const expr*>& hoisted,
                                 std::span<double* const> slots, bool reverse) {
  double total = 0;
  bool first = true;
  auto instance = [&] {
    if (first) {
      for (const expr* h : hoisted) {
        eval_.eval(*h, frame_);
        eval_.freeze(*h);
      }
      first = false;
    }
    total += differentiate_instance(s, slots, 1);
  };
  try {
    if (reverse && !s.loops.empty()) {
      const std::vector<index_t> table = instances(*this).table(s);
      const std::size_t depth = s.loops.size();
      for (std::size_t i = table.size() / depth; i-- > 0;) {
        set_loops(s, table.data() + i * depth);
        instance();
      }
    } else {
      for_each_instance(s, instance);
    }
    if (!first)
      for (const expr* h : hoisted) eval_.backward(*h, frame_, eval_.thaw(*h), slots);
  } catch (const eval_error& e) {
    for (const expr* h : hoisted) eval_.thaw(*h);
    fail_in(s, e.pos, e.what());
  }
  return total;
}

}  // namespace ppl::model
