#include "model/graph.hpp"

#include "lang/evidence.hpp"
#include "model/build_progress.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;


graph::graph(const lang::ir::model& m, const data::data_table& data, rng& rng, graph_options options)
    : graph(m, data, nullptr, rng, options) {}

graph::graph(const lang::ir::model& m, data::data_table&& data, rng& rng, graph_options options)
    : graph(m, data, &data, rng, options) {}

graph::graph(const lang::ir::model& m, const data::data_table& data, data::data_table* take, rng& rng, graph_options options)
    : model_(m), options_(options), values_(m.variables.size()), missing_(m.variables.size(), 0),
      predictive_(lang::predictive_statements(m)), likelihood_(lang::likelihood_statements(m)), imputed_(m.variables.size()),
      built_(m.variables.size(), 0), eval_(m), defined_(m.variables.size()), holes_(m.variables.size()), valued_(m.variables.size()),
      hole_origin_(m.variables.size()) {
  frame_.values = &values_;
  frame_.loop.assign(m.loop_names.size(), 0);
  bind_data(data, take);
  build_statements(rng, true);
  mark_checks();
}

// Every element but those without a value (model/graph_holes.cpp), or, partly
// observed, the imputed ones.
std::vector<index_t> graph::recorded_elements(int variable) const {
  if (static_cast<std::size_t>(variable) < record_only_.size() && !record_only_[static_cast<std::size_t>(variable)].empty())
    return record_only_[static_cast<std::size_t>(variable)];
  if (partly_observed(variable)) return imputed_elements(variable);
  if (!holes_[static_cast<std::size_t>(variable)].empty()) return valued_[static_cast<std::size_t>(variable)];
  std::vector<index_t> all(static_cast<std::size_t>(value(variable).size()));
  for (std::size_t e = 0; e < all.size(); ++e) all[e] = static_cast<index_t>(e);
  return all;
}

void graph::record_only(int variable, std::vector<index_t> elements) {
  if (record_only_.size() < model_.variables.size()) record_only_.resize(model_.variables.size());
  record_only_[static_cast<std::size_t>(variable)] = std::move(elements);
}

void graph::append_recorded(int variable, std::vector<double>& row) const {
  const auto& d = value(variable).data;
  if (static_cast<std::size_t>(variable) < record_only_.size() && !record_only_[static_cast<std::size_t>(variable)].empty()) {
    for (index_t e : record_only_[static_cast<std::size_t>(variable)]) row.push_back(d[static_cast<std::size_t>(e)]);
    return;
  }
  if (!partly_observed(variable) && holes_[static_cast<std::size_t>(variable)].empty()) {
    row.insert(row.end(), d.begin(), d.end());
    return;
  }
  for (index_t e : partly_observed(variable) ? imputed_elements(variable) : valued_[static_cast<std::size_t>(variable)])
    row.push_back(d[static_cast<std::size_t>(e)]);
}

// Which `~` statements must check their parameters when a term is evaluated: those with
// an argument computed from unknowns. An argument that is an unknown itself, or an element
// or block of one (theta[doc[n]], phi[z[n]]), holds values its own prior and sampler keep
// valid, and a vector's check costs as much as the term (a 3,786-word simplex in LDA), so
// it is not re-checked; should such a value be invalid anyway, the density is NaN, which
// every sampler treats as -inf.
using lang::ir::uses_loop_variable;

void graph::mark_checks() {
  needs_check_.assign(model_.statements.size(), 0);
  invariant_args_.assign(model_.statements.size(), 0);
  for (std::size_t i = 0; i < model_.statements.size(); ++i) {
    const auto& args = model_.statements[i].args;
    const auto& targets = model_.statements[i].target_indices;
    invariant_args_[i] = std::none_of(args.begin(), args.end(), [](const auto& a) { return uses_loop_variable(*a); }) &&
                         std::none_of(targets.begin(), targets.end(), [](const auto& t) { return t->depends_on_unknown; }) &&
                         std::none_of(model_.statements[i].loops.begin(), model_.statements[i].loops.end(),
                                      [](const auto& l) { return l.lo->depends_on_unknown || l.hi->depends_on_unknown; });
  }
  for (std::size_t i = 0; i < model_.statements.size(); ++i)
    for (const auto& a : model_.statements[i].args) {
      if (!a->depends_on_unknown) continue;
      bool direct = a->which == expr::kind::variable ||
                    (a->which == expr::kind::index && a->args[0]->which == expr::kind::variable &&
                     std::all_of(a->indices.begin(), a->indices.end(),
                                 [](const lang::ir::index_item& ix) { return ix.which == lang::ir::index_item::kind::single; }));
      if (!direct) needs_check_[i] = 1;
    }
}

std::string graph::loop_values(const statement& s) const {
  std::string out;
  for (const auto& l : s.loops)
    if (!l.hidden) out += (out.empty() ? "" : ", ") + l.name + " = " + std::to_string(frame_.loop[static_cast<std::size_t>(l.slot)]);
  return out;
}

[[noreturn]] void graph::fail_in(const statement& s, std::size_t pos, const std::string& message) {
  const std::string where = loop_values(s);
  ppl::fail_at(model_.source, pos, message + (where.empty() ? "" : " (when " + where + ")"));
}

void graph::for_each_instance(const statement& s, const std::function<void()>& body) {
  // Iterative nested loops: each level's bounds may depend on the outer loop variables.
  std::size_t depth = s.loops.size();
  if (depth == 0) {
    body();
    return;
  }
  std::vector<index_t> hi(depth);
  std::vector<double> runs(depth);  // instances of the loops down to each level, as entered
  std::size_t level = 0;
  auto enter = [&](std::size_t k) {
    const auto& l = s.loops[k];
    try {
      frame_.loop[static_cast<std::size_t>(l.slot)] = eval_.eval_index(*l.lo, frame_);
      hi[k] = eval_.eval_index(*l.hi, frame_);
    } catch (const eval_error& e) {
      fail_in(s, e.pos, e.what());
    }
    const double extent = std::max(0.0, static_cast<double>(hi[k]) - static_cast<double>(frame_.loop[static_cast<std::size_t>(l.slot)]) + 1);
    runs[k] = extent * (k ? runs[k - 1] : 1.0);
    if (runs[k] > static_cast<double>(max_elements))
      ppl::fail_at(model_.source, l.hi->pos, fmt::format("the loops here would run {:.3g} times, more than the limit of {} (2^28)", runs[k], max_elements));
  };
  enter(0);
  // A long build says how far its outer loop is (model/build_progress.hpp).
  const index_t first = frame_.loop[static_cast<std::size_t>(s.loops[0].slot)];
  std::size_t ticks = 0;
  while (true) {
    const auto& l = s.loops[level];
    index_t& i = frame_.loop[static_cast<std::size_t>(l.slot)];
    if (i > hi[level]) {
      if (level == 0) return;
      --level;
      ++frame_.loop[static_cast<std::size_t>(s.loops[level].slot)];
      continue;
    }
    if (level + 1 < depth) {
      enter(++level);
      continue;
    }
    body();
    ++i;
    if (++ticks == report_every) {
      ticks = 0;
      const double outer = static_cast<double>(frame_.loop[static_cast<std::size_t>(s.loops[0].slot)] - first);
      report_instances(model_, s, outer / std::max(1.0, static_cast<double>(hi[0] - first + 1)));
    }
  }
}

bool graph::instances_fixed(const statement& s) {
  for (const auto& l : s.loops)
    if (l.lo->depends_on_unknown || l.hi->depends_on_unknown) return false;
  for (const auto& ix : s.target_indices)
    if (ix->depends_on_unknown) return false;
  return true;
}

// The flat offset of the target element (or block) a statement instance defines.
index_t graph::target_offset(const statement& s, index_t value_size) {
  const tensor& t = values_[static_cast<std::size_t>(s.target)];
  index_t offset = 0;
  for (std::size_t k = 0; k < s.target_indices.size(); ++k) {
    index_t j = eval_.eval_index(*s.target_indices[k], frame_);
    index_t extent = t.shape[static_cast<int>(k)];
    if (j < 1 || j > extent)
      fail_in(s, s.target_indices[k]->pos, "index " + std::to_string(j) + " is out of range 1.." + std::to_string(extent) +
                                               " for `" + model_.variables[static_cast<std::size_t>(s.target)].name + "`");
    offset += (j - 1) * t.shape.stride(static_cast<int>(k));
  }
  int k = static_cast<int>(s.target_indices.size());
  index_t block = k == 0 ? t.size() : t.shape.stride(k - 1);
  if (s.target_from) {  // x[i, from:to]: a block of dimension k
    const index_t from = eval_.eval_index(*s.target_from, frame_), to = eval_.eval_index(*s.target_to, frame_);
    const index_t extent = k < t.shape.rank ? t.shape[k] : 0;
    if (from < 1 || to > extent || to < from)
      fail_in(s, s.target_from->pos, "the range " + std::to_string(from) + ":" + std::to_string(to) + " is not within 1.." +
                                         std::to_string(extent) + " for `" + model_.variables[static_cast<std::size_t>(s.target)].name + "`");
    offset += (from - 1) * t.shape.stride(k);
    block = (to - from + 1) * t.shape.stride(k);
  }
  if (block != value_size)
    fail_in(s, s.pos, "the value has " + std::to_string(value_size) + " elements but its place in `" +
                          model_.variables[static_cast<std::size_t>(s.target)].name + "` has " + std::to_string(block));
  return offset;
}

const std::vector<view>& graph::eval_args(const statement& s) {
  args_.clear();
  try {
    for (const auto& a : s.args) args_.push_back(eval_.eval(*a, frame_));
  } catch (const eval_error& e) {
    fail_in(s, e.pos, e.what());
  }
  return args_;
}

}  // namespace ppl::model
