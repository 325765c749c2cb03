// Log densities: the joint, single statement instances, and element blankets by scanning.
#include <algorithm>
#include <cmath>

#include "model/graph.hpp"
#include "stdlib/checks.hpp"
#include "stdlib/flat.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

// The current instance's term of a `~` statement. Parameters computed from unknowns are
// checked, and an invalid one makes the term -inf (a state outside the support).
double graph::sample_term(const statement& s) {
  const auto& args = eval_args(s);
  const tensor& t = values_[static_cast<std::size_t>(s.target)];
  shape value = value_shape_of(s, args);
  index_t offset = target_offset(s, value.size());
  if (needs_check_[static_cast<std::size_t>(&s - model_.statements.data())]) {
    try {
      s.dist->check(args);
    } catch (const stdlib::parameter_error&) {
      return -INFINITY;
    }
  }
  return s.dist->log_density(args, view{t.data.data() + offset, value}, true);
}

// A `~` statement whose arguments use no loop variable (y[n] ~ Bernoulli(p)): the
// arguments are evaluated and checked once, and only the values vary over the plate.
double graph::invariant_log_density(const statement& s) {
  std::vector<view> args = eval_args(s);
  if (needs_check_[static_cast<std::size_t>(&s - model_.statements.data())]) {
    try {
      s.dist->check(args);
    } catch (const stdlib::parameter_error&) {
      return -INFINITY;
    }
  }
  shape value = value_shape_of(s, args);
  const double* values = values_[static_cast<std::size_t>(s.target)].data.data();
  if (value.rank != 0) {
    double total = 0;
    for_each_instance(s, [&] { total += s.dist->log_density(args, view{values + target_offset(s, value.size()), value}, true); });
    return total;
  }
  // Scalar values: where they sit is worked out once; the sum goes to the distribution in
  // one call, straight from storage when they are contiguous.
  const auto& offsets = plate_offsets(s);
  bool contiguous = !offsets.empty() && offsets.back() - offsets.front() + 1 == static_cast<index_t>(offsets.size());
  for (std::size_t i = 1; contiguous && i < offsets.size(); ++i) contiguous = offsets[i] == offsets[i - 1] + 1;
  if (contiguous) return s.dist->log_density_sum(args, values + offsets.front(), static_cast<index_t>(offsets.size()));
  gathered_.resize(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) gathered_[i] = values[offsets[i]];
  return s.dist->log_density_sum(args, gathered_.data(), static_cast<index_t>(offsets.size()));
}

const std::vector<index_t>& graph::plate_offsets(const statement& s) {
  auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (plate_offsets_.size() != model_.statements.size()) plate_offsets_.resize(model_.statements.size());
  auto& cached = plate_offsets_[index];
  if (cached.empty()) for_each_instance(s, [&] { cached.push_back(target_offset(s, 1)); });
  return cached;
}

double graph::statement_log_density(const statement& s) { return tempered(s, statement_terms(s)); }

double graph::statement_terms(const statement& s) {
  if (s.which == statement::kind::sample && invariant_args_[static_cast<std::size_t>(&s - model_.statements.data())])
    return invariant_log_density(s);
  double total = 0;
  if (batch_log_density(s, total)) return total;
  for_each_instance(s, [&] {
    if (s.which == statement::kind::factor) {
      try {
        total += eval_.eval(*s.value, frame_).scalar();
      } catch (const eval_error& e) {
        fail_in(s, e.pos, e.what());
      }
    } else {
      total += sample_term(s);
    }
  });
  return total;
}

double graph::log_density() { return log_density({}); }

double graph::log_density(const std::vector<char>& skip) {
  double total = 0;
  for (std::size_t i = 0; i < model_.statements.size(); ++i) {
    const statement& s = model_.statements[i];
    if (s.which != statement::kind::assign && !predictive_[i] && !(i < skip.size() && skip[i])) total += statement_log_density(s);
  }
  return total;
}

std::vector<index_t> graph::instance_table(const statement& s) {
  std::vector<index_t> table;
  for_each_instance(s, [&] {
    for (const auto& l : s.loops) table.push_back(frame_.loop[static_cast<std::size_t>(l.slot)]);
  });
  return table;
}

void graph::set_loops(const statement& s, const index_t* loops) {
  for (std::size_t k = 0; k < s.loops.size(); ++k) frame_.loop[static_cast<std::size_t>(s.loops[k].slot)] = loops[k];
}

double graph::instance_log_density(const statement& s, const index_t* loops) {
  set_loops(s, loops);
  if (s.which == statement::kind::sample) return tempered(s, sample_term(s));
  try {
    return tempered(s, eval_.eval(*s.value, frame_).scalar());
  } catch (const eval_error& e) {
    fail_in(s, e.pos, e.what());
  }
}

void graph::run_instance(const statement& s, const index_t* loops) {
  set_loops(s, loops);
  assign_current(s);
}

std::pair<index_t, index_t> graph::assign_current(const statement& s) {
  view x;
  try {
    x = eval_.eval(*s.value, frame_);
  } catch (const eval_error& e) {
    fail_in(s, e.pos, e.what());
  }
  index_t offset = target_offset(s, x.size());
  std::copy(x.begin(), x.end(), values_[static_cast<std::size_t>(s.target)].data.begin() + offset);
  return {offset, x.size()};
}

read_log graph::instance_reads(const statement& s, const index_t* loops) {
  set_loops(s, loops);
  read_log log;
  eval_.log = &log;
  try {
    for (const auto& a : s.args) eval_.eval(*a, frame_);
    if (s.value) eval_.eval(*s.value, frame_);
    for (const auto& ix : s.target_indices) eval_.eval(*ix, frame_);
    if (s.target_from) eval_.eval(*s.target_from, frame_), eval_.eval(*s.target_to, frame_);
  } catch (const eval_error& e) {
    eval_.log = nullptr;
    fail_in(s, e.pos, e.what());
  }
  eval_.log = nullptr;
  if (s.which == statement::kind::sample) {
    const auto& args = eval_args(s);
    shape value = value_shape_of(s, args);
    log.push_back({s.target, target_offset(s, value.size()), value.size()});
  }
  return log;
}

std::pair<index_t, index_t> graph::instance_target(const statement& s, const index_t* loops) {
  set_loops(s, loops);
  index_t size;
  try {
    size = s.which == statement::kind::sample ? value_shape_of(s, eval_args(s)).size() : eval_.eval(*s.value, frame_).size();
  } catch (const eval_error& e) {
    fail_in(s, e.pos, e.what());
  }
  return {target_offset(s, size), size};
}

view graph::eval_at(const statement& s, const index_t* loops, const lang::ir::expr& e) {
  set_loops(s, loops);
  try {
    return eval_.eval(e, frame_);
  } catch (const eval_error& err) {
    fail_in(s, err.pos, err.what());
  }
}

const std::vector<view>& graph::args_at(const statement& s, const index_t* loops) {
  set_loops(s, loops);
  return eval_args(s);
}

double graph::log_density_blanket(int variable, index_t element) {
  auto touches = [&](const read_log& log) {
    for (const auto& r : log)
      if (r.variable == variable && element >= r.offset && element < r.offset + r.size) return true;
    return false;
  };
  // Derived variables that depend (transitively) on `variable`: terms reading them are
  // included whole.
  std::vector<char> affected(model_.variables.size(), 0);
  affected[static_cast<std::size_t>(variable)] = 1;
  for (const statement& s : model_.statements)
    if (s.which == statement::kind::assign && model_.variables[static_cast<std::size_t>(s.target)].role == role::derived)
      for (int r : lang::ir::statement_reads(s))
        if (affected[static_cast<std::size_t>(r)]) affected[static_cast<std::size_t>(s.target)] = 1;
  double total = 0;
  for (const statement& s : model_.statements) {
    if (s.which == statement::kind::assign || predictive(s)) continue;
    bool through_derived = false, direct = s.target == variable;
    for (int r : lang::ir::statement_reads(s)) {
      if (r == variable) direct = true;
      else if (affected[static_cast<std::size_t>(r)]) through_derived = true;
    }
    if (through_derived) {
      total += statement_log_density(s);
    } else if (direct) {
      std::vector<index_t> table = instance_table(s);
      std::size_t depth = s.loops.size();
      std::size_t count = depth ? table.size() / depth : 1;
      for (std::size_t i = 0; i < count; ++i)
        if (touches(instance_reads(s, table.data() + i * depth))) total += instance_log_density(s, table.data() + i * depth);
    }
  }
  return total;
}

void graph::visit_supports(int variable, const std::function<void(index_t, index_t, const stdlib::support&)>& fn) {
  if (ordered(variable)) {
    fn(0, values_[static_cast<std::size_t>(variable)].size(), ordered_support(variable));
    return;
  }
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample) continue;
    for_each_instance(s, [&] {
      const auto& args = eval_args(s);
      shape value = value_shape_of(s, args);
      fn(target_offset(s, value.size()), value.size(), s.dist->value_support(args));
    });
  }
}

// A support moves when its distribution's bounds follow the parameters and an argument
// reads an unknown. Which variables the bounds read is found through the `=` definitions
// they use, back to the unknowns and data.
std::vector<char> graph::support_inputs(int variable) const {
  std::vector<char> reached(model_.variables.size(), 0);
  std::vector<int> pending;
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !s.dist->support_moves()) continue;
    for (const auto& a : s.args)
      if (a->depends_on_unknown) lang::ir::collect_reads(a.get(), pending);
  }
  while (!pending.empty()) {
    const int v = pending.back();
    pending.pop_back();
    if (reached[static_cast<std::size_t>(v)]) continue;
    reached[static_cast<std::size_t>(v)] = 1;
    if (model_.variables[static_cast<std::size_t>(v)].role != role::derived) continue;
    for (int si : model_.variables[static_cast<std::size_t>(v)].statements)
      for (int r : lang::ir::statement_reads(model_.statements[static_cast<std::size_t>(si)])) pending.push_back(r);
  }
  return reached;
}

bool graph::support_moves(int variable) const {
  const auto inputs = support_inputs(variable);
  return std::find(inputs.begin(), inputs.end(), 1) != inputs.end();
}

bool graph::support_reads_itself(int variable) const { return support_inputs(variable)[static_cast<std::size_t>(variable)] != 0; }

namespace {

bool is_flat_bounded(const stdlib::distribution& d) {
  return &d == &stdlib::flat_between() || &d == &stdlib::flat_bounded_below() || &d == &stdlib::flat_bounded_above();
}

}  // namespace

bool graph::follows_bounds(int variable) const {
  bool moves = false;
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !s.dist->support_moves()) continue;
    if (!is_flat_bounded(*s.dist)) return false;
    for (const auto& a : s.args) {
      std::vector<int> reads;
      lang::ir::collect_reads(a.get(), reads);
      for (int r : reads) {
        const auto role = model_.variables[static_cast<std::size_t>(r)].role;
        if (role == role::derived || r == variable || (role == role::unknown && support_moves(r))) return false;
        moves = moves || role == role::unknown;
      }
    }
  }
  return moves;
}

void graph::bound_backward(int variable, index_t element, double d_lower, double d_upper, std::span<double* const> adjoints) {
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !is_flat_bounded(*s.dist)) continue;
    bool done = false;
    for_each_instance(s, [&] {
      if (done) return;
      const auto& args = eval_args(s);
      const index_t size = value_shape_of(s, args).size();
      const index_t offset = target_offset(s, size);
      if (element < offset || element >= offset + size) return;
      // Flat between (lower, upper), above lower, or below upper: its arguments in that order.
      if (s.dist == &stdlib::flat_bounded_above()) {
        eval_.backward(*s.args[0], frame_, &d_upper, adjoints);
      } else {
        eval_.backward(*s.args[0], frame_, &d_lower, adjoints);
        if (s.args.size() > 1) eval_.backward(*s.args[1], frame_, &d_upper, adjoints);
      }
      done = true;
    });
  }
}

stdlib::support graph::element_support(int variable, index_t element) {
  stdlib::support found;
  visit_supports(variable, [&](index_t offset, index_t size, const stdlib::support& s) {
    if (element >= offset && element < offset + size) found = s;
  });
  return found;
}

}  // namespace ppl::model

namespace ppl::model {

std::string graph::first_outside_support(int variable) {
  std::string found;
  tensor& t = values_[static_cast<std::size_t>(variable)];
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample) continue;
    visit_instances(s, [&](const index_t* loops) {
      if (!found.empty()) return;
      const auto& args = args_at(s, loops);
      const index_t offset = instance_target(s, loops).first;
      view x{t.data.data() + offset, value_shape_of(s, args)};
      bool finite = true;
      for (double v : x) finite = finite && !std::isnan(v);
      if (!finite || !s.dist->in_support(args, x))
        found = outside_support_message(model_.variables[static_cast<std::size_t>(variable)].name, t.shape, offset, x, s, args);
    });
  }
  if (found.empty() && ordered(variable)) found = first_unordered(variable);
  return found;
}

// The first instance of a statement whose term is not finite, for an error message.
std::optional<graph::non_finite_term> graph::first_non_finite(const statement& s) {
  std::optional<non_finite_term> found;
  visit_instances(s, [&](const index_t* loops) {
    if (found) return;
    const double lp = instance_log_density(s, loops);
    if (std::isfinite(lp)) return;
    const std::string where = loop_values(s);  // instance_log_density set this instance's loops
    non_finite_term term;
    const std::string value = std::isnan(lp) ? "NaN" : "-inf";
    if (s.which == statement::kind::sample) {
      const tensor& t = values_[static_cast<std::size_t>(s.target)];
      const auto& args = args_at(s, loops);
      const index_t offset = instance_target(s, loops).first;
      term.what = "the log density of " + element_name(model_.variables[static_cast<std::size_t>(s.target)].name, t.shape, offset) +
                  (where.empty() ? "" : " (" + where + ")") + " is " + value;
      try {
        s.dist->check(args);
        view x{t.data.data() + offset, value_shape_of(s, args)};
        if (!s.dist->in_support(args, x)) term.reason = stdlib::format_number(x[0]) + " is outside the support of " + s.dist_name;
      } catch (const stdlib::parameter_error& e) {
        term.reason = e.what();
      }
    } else {
      term.what = "this factor" + (where.empty() ? std::string() : " at " + where) + " is " + value;
    }
    found = std::move(term);
  });
  return found;
}

}  // namespace ppl::model
