// The supports of a graph's unknowns, from their priors at the current values
// (model/supports.hpp).
#include "model/supports.hpp"

#include <algorithm>

#include "model/graph.hpp"
#include "stdlib/flat.hpp"

namespace ppl::model {

using lang::ir::role;
using lang::ir::statement;

namespace {

bool is_flat_bounded(const stdlib::distribution& d) {
  return &d == &stdlib::flat_between() || &d == &stdlib::flat_bounded_below() || &d == &stdlib::flat_bounded_above();
}

}  // namespace

void supports::visit(int variable, const std::function<void(index_t, index_t, const stdlib::support&)>& fn) {
  if (ordered(variable)) {
    fn(0, g_.values_[static_cast<std::size_t>(variable)].size(), ordered_support(variable));
    return;
  }
  for (int si : g_.model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g_.model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample) continue;
    g_.for_each_instance(s, [&] {
      const auto& args = g_.eval_args(s);
      shape value = g_.value_shape_of(s, args);
      fn(g_.target_offset(s, value.size()), value.size(), s.dist->value_support(args));
    });
  }
}

// A support moves when its distribution's bounds follow the parameters and an argument
// reads an unknown. Which variables the bounds read is found through the `=` definitions
// they use, back to the unknowns and data.
std::vector<char> supports::inputs(int variable) const {
  std::vector<char> reached(g_.model_.variables.size(), 0);
  std::vector<int> pending;
  for (int si : g_.model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g_.model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !s.dist->support_moves()) continue;
    for (const auto& a : s.args)
      if (a->depends_on_unknown) lang::ir::collect_reads(a.get(), pending);
  }
  while (!pending.empty()) {
    const int v = pending.back();
    pending.pop_back();
    if (reached[static_cast<std::size_t>(v)]) continue;
    reached[static_cast<std::size_t>(v)] = 1;
    if (g_.model_.variables[static_cast<std::size_t>(v)].role != role::derived) continue;
    for (int si : g_.model_.variables[static_cast<std::size_t>(v)].statements)
      for (int r : lang::ir::statement_reads(g_.model_.statements[static_cast<std::size_t>(si)])) pending.push_back(r);
  }
  return reached;
}

bool supports::moves(int variable) const {
  const auto read = inputs(variable);
  return std::find(read.begin(), read.end(), 1) != read.end();
}

bool supports::reads_itself(int variable) const { return inputs(variable)[static_cast<std::size_t>(variable)] != 0; }

bool supports::follows_bounds(int variable) const {
  bool follows = false;
  for (int si : g_.model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g_.model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !s.dist->support_moves()) continue;
    if (!is_flat_bounded(*s.dist)) return false;
    for (const auto& a : s.args) {
      std::vector<int> reads;
      lang::ir::collect_reads(a.get(), reads);
      for (int r : reads) {
        const auto role = g_.model_.variables[static_cast<std::size_t>(r)].role;
        if (role == role::derived || r == variable || (role == role::unknown && moves(r))) return false;
        follows = follows || role == role::unknown;
      }
    }
  }
  return follows;
}

void supports::bound_backward(int variable, index_t element, double d_lower, double d_upper, std::span<double* const> adjoints) {
  for (int si : g_.model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g_.model_.statements[static_cast<std::size_t>(si)];
    if (s.which != statement::kind::sample || !is_flat_bounded(*s.dist)) continue;
    bool done = false;
    g_.for_each_instance(s, [&] {
      if (done) return;
      const auto& args = g_.eval_args(s);
      const index_t size = g_.value_shape_of(s, args).size();
      const index_t offset = g_.target_offset(s, size);
      if (element < offset || element >= offset + size) return;
      // Flat between (lower, upper), above lower, or below upper: its arguments in that order.
      if (s.dist == &stdlib::flat_bounded_above()) {
        g_.eval_.backward(*s.args[0], g_.frame_, &d_upper, adjoints);
      } else {
        g_.eval_.backward(*s.args[0], g_.frame_, &d_lower, adjoints);
        if (s.args.size() > 1) g_.eval_.backward(*s.args[1], g_.frame_, &d_upper, adjoints);
      }
      done = true;
    });
  }
}

stdlib::support supports::of_element(int variable, index_t element) {
  stdlib::support found;
  visit(variable, [&](index_t offset, index_t size, const stdlib::support& s) {
    if (element >= offset && element < offset + size) found = s;
  });
  return found;
}

}  // namespace ppl::model
