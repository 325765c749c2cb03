// Log densities: the joint, single statement instances, and element blankets by scanning.
#include <algorithm>
#include <cmath>

#include "model/graph.hpp"
#include "stdlib/checks.hpp"

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

std::uint64_t graph::instance_count(const statement& s) {
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (instance_counts_.size() != model_.statements.size()) instance_counts_.assign(model_.statements.size(), -1);
  if (instance_counts_[index] < 0) {
    const std::vector<index_t> loops = frame_.loop;  // a caller may be inside another statement's instance
    std::int64_t n = 0;
    for_each_instance(s, [&] { ++n; });
    frame_.loop = loops;
    instance_counts_[index] = n;
  }
  return static_cast<std::uint64_t>(instance_counts_[index]);
}

double graph::statement_terms(const statement& s) {
  work_ += instance_count(s);
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
    if (own_terms_ && own_terms_->statements[i]) continue;
    if (s.which != statement::kind::assign && !predictive_[i] && !(i < skip.size() && skip[i])) total += statement_log_density(s);
  }
  if (own_terms_ && temperature_ > 0) total += temperature_ * own_terms_->total();
  return total;
}

void graph::set_loops(const statement& s, const index_t* loops) {
  for (std::size_t k = 0; k < s.loops.size(); ++k) frame_.loop[static_cast<std::size_t>(s.loops[k].slot)] = loops[k];
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

}  // namespace ppl::model

namespace ppl::model {

std::string graph::first_outside_support(int variable) {
  std::string found;
  tensor& t = values_[static_cast<std::size_t>(variable)];
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample) continue;
    instances(*this).visit(s, [&](const index_t* loops) {
      if (!found.empty()) return;
      const auto& args = instances(*this).args_at(s, loops);
      const index_t offset = instances(*this).target(s, loops).first;
      view x{t.data.data() + offset, value_shape_of(s, args)};
      bool finite = true;
      for (double v : x) finite = finite && !std::isnan(v);
      if (!finite || !s.dist->in_support(args, x))
        found = outside_support_message(model_.variables[static_cast<std::size_t>(variable)].name, t.shape, offset, x, s, args);
    });
  }
  if (found.empty() && supports(*this).ordered(variable)) found = supports(*this).first_unordered(variable);
  return found;
}

}  // namespace ppl::model
