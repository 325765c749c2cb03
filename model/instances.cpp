// One statement, or one instance of one, at a time (model/instances.hpp): what samplers
// and the blanket index read term by term.
#include "model/instances.hpp"

#include <algorithm>

#include "model/graph.hpp"
#include "model/graph_batch_internal.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;
using batch::for_each_block;

double instances::log_density(const statement& s) { return g_.statement_log_density(s); }

double instances::terms(const statement& s) { return g_.statement_terms(s); }

std::vector<index_t> instances::table(const statement& s) {
  std::vector<index_t> table;
  table.reserve(static_cast<std::size_t>(g_.instance_count(s)) * s.loops.size());
  g_.for_each_instance(s, [&] {
    for (const auto& l : s.loops) table.push_back(g_.frame_.loop[static_cast<std::size_t>(l.slot)]);
  });
  return table;
}

double instances::log_density(const statement& s, const index_t* loops) {
  ++g_.work_;
  g_.set_loops(s, loops);
  if (s.which == statement::kind::sample) return g_.tempered(s, g_.sample_term(s));
  try {
    return g_.tempered(s, g_.eval_.eval(*s.value, g_.frame_).scalar());
  } catch (const eval_error& e) {
    g_.fail_in(s, e.pos, e.what());
  }
}

double instances::differentiate(const statement& s, const index_t* loops, std::span<double* const> slots, double weight) {
  g_.work_ += 2;
  g_.set_loops(s, loops);
  double* target = slots[static_cast<std::size_t>(s.target)];
  if (s.which == statement::kind::assign && !target) return 0;  // nothing to pass on
  try {
    const double value = g_.differentiate_instance(s, slots, weight);
    if (s.which == statement::kind::assign) {
      const auto [offset, size] = this->target(s, loops);
      std::fill(target + offset, target + offset + size, 0.0);
    }
    return value;
  } catch (const eval_error& e) {
    g_.fail_in(s, e.pos, e.what());
  }
}

void instances::run(const statement& s, const index_t* loops) {
  ++g_.work_;
  g_.set_loops(s, loops);
  g_.assign_current(s);
}

void instances::run(const statement& s) { g_.recompute(s); }

read_log instances::reads(const statement& s, const index_t* loops) {
  g_.set_loops(s, loops);
  read_log log;
  g_.eval_.log = &log;
  try {
    for (const auto& a : s.args) g_.eval_.eval(*a, g_.frame_);
    if (s.value) g_.eval_.eval(*s.value, g_.frame_);
    for (const auto& ix : s.target_indices) g_.eval_.eval(*ix, g_.frame_);
    if (s.target_from) g_.eval_.eval(*s.target_from, g_.frame_), g_.eval_.eval(*s.target_to, g_.frame_);
  } catch (const eval_error& e) {
    g_.eval_.log = nullptr;
    g_.fail_in(s, e.pos, e.what());
  }
  g_.eval_.log = nullptr;
  if (s.which == statement::kind::sample) {
    const auto& args = g_.eval_args(s);
    shape value = g_.value_shape_of(s, args);
    log.push_back({s.target, g_.target_offset(s, value.size()), value.size()});
  }
  return log;
}

std::pair<index_t, index_t> instances::target(const statement& s, const index_t* loops) {
  g_.set_loops(s, loops);
  index_t size = 1;
  try {
    // A scalar distribution's value, or a scalar definition, is one element: its arguments
    // need no evaluation for that (they were checked when the graph was built).
    if (s.which == statement::kind::sample) {
      if (s.dist->value_rank() != 0) size = g_.value_shape_of(s, g_.eval_args(s)).size();
    } else if (s.value->type.rank != 0) {
      size = g_.eval_.eval(*s.value, g_.frame_).size();
    }
  } catch (const eval_error& e) {
    g_.fail_in(s, e.pos, e.what());
  }
  return {g_.target_offset(s, size), size};
}

view instances::eval_at(const statement& s, const index_t* loops, const lang::ir::expr& e) {
  g_.set_loops(s, loops);
  try {
    return g_.eval_.eval(e, g_.frame_);
  } catch (const eval_error& err) {
    g_.fail_in(s, err.pos, err.what());
  }
}

const std::vector<view>& instances::args_at(const statement& s, const index_t* loops) {
  g_.set_loops(s, loops);
  return g_.eval_args(s);
}

double instances::blanket_log_density(int variable, index_t element) {
  auto touches = [&](const read_log& log) {
    for (const auto& r : log)
      if (r.variable == variable && element >= r.offset && element < r.offset + r.size) return true;
    return false;
  };
  // Derived variables that depend (transitively) on `variable`: terms reading them are
  // included whole.
  std::vector<char> affected(g_.model_.variables.size(), 0);
  affected[static_cast<std::size_t>(variable)] = 1;
  for (const statement& s : g_.model_.statements)
    if (s.which == statement::kind::assign && g_.model_.variables[static_cast<std::size_t>(s.target)].role == role::derived)
      for (int r : lang::ir::statement_reads(s))
        if (affected[static_cast<std::size_t>(r)]) affected[static_cast<std::size_t>(s.target)] = 1;
  double total = 0;
  for (const statement& s : g_.model_.statements) {
    if (s.which == statement::kind::assign || g_.predictive(s)) continue;
    bool through_derived = false, direct = s.target == variable;
    for (int r : lang::ir::statement_reads(s)) {
      if (r == variable) direct = true;
      else if (affected[static_cast<std::size_t>(r)]) through_derived = true;
    }
    if (through_derived) {
      total += log_density(s);
    } else if (direct) {
      std::vector<index_t> rows = table(s);
      std::size_t depth = s.loops.size();
      std::size_t count = depth ? rows.size() / depth : 1;
      for (std::size_t i = 0; i < count; ++i)
        if (touches(reads(s, rows.data() + i * depth))) total += log_density(s, rows.data() + i * depth);
    }
  }
  return total;
}

void instances::visit(const statement& s, const std::function<void(const index_t* loops)>& fn) {
  std::vector<index_t> loops(s.loops.size());
  g_.for_each_instance(s, [&] {
    for (std::size_t k = 0; k < s.loops.size(); ++k) loops[k] = g_.frame_.loop[static_cast<std::size_t>(s.loops[k].slot)];
    fn(loops.data());
  });
}

index_t instances::count(const statement& s) {
  index_t n = 0;
  g_.for_each_instance(s, [&] { ++n; });
  return n;
}

bool instances::batch_values(const statement& s, const expr& e, std::vector<double>& out) {
  graph::batch_plan* p = g_.plan_batch(s);
  if (!p || e.type.rank != 0) return false;
  g_.work_ += static_cast<std::uint64_t>(p->rows);
  out.resize(static_cast<std::size_t>(p->rows));
  return for_each_block(*p, [&] {
    graph::batch_column c;
    if (!g_.batch_try(*p, e, c)) return false;
    for (index_t r = 0; r < p->count; ++r) out[static_cast<std::size_t>(p->first + r)] = c.data[c.varies ? r : 0];
    return true;
  });
}

}  // namespace ppl::model
