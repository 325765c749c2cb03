#pragma once
// One statement of a built graph, or one instance of it, at a time: what samplers and the
// blanket index read term by term (model/instances.cpp). A view of the graph, made where
// it is used (`instances(g).table(s)`): it holds nothing but the graph.
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "lang/ir.hpp"
#include "model/evaluator.hpp"

namespace ppl::model {

class graph;

class instances {
 public:
  explicit instances(graph& g) : g_(g) {}

  // Loop values of every instance of a statement, flattened (loops.size() per instance).
  std::vector<index_t> table(const lang::ir::statement& s);
  // Calls fn(loops) for every instance of a statement, in order, without a table.
  void visit(const lang::ir::statement& s, const std::function<void(const index_t* loops)>& fn);
  // Number of loop instances of a statement.
  index_t count(const lang::ir::statement& s);

  // The whole of one statement's terms, times the temperature for the likelihood's
  // (graph::set_temperature).
  double log_density(const lang::ir::statement& s);
  // The same, untempered.
  double terms(const lang::ir::statement& s);
  // The log density (sample) or value (factor) of one instance, tempered; -inf where a
  // parameter that depends on unknowns is invalid.
  double log_density(const lang::ir::statement& s, const index_t* loops);
  // The terms of the joint that involve element `element` (0-based, row-major) of
  // `variable` (its own prior term and every term that reads it, factors included),
  // found by scanning every instance. Samplers use model::blanket, which indexes them once.
  double blanket_log_density(int variable, index_t element);

  // Within a gradient (graph::own_terms::add): one instance of a term differentiated, its
  // gradient times `weight` added into `slots`; returns its log density, untempered (-inf
  // where a parameter that depends on unknowns is invalid). One instance of an `=`
  // statement instead passes its target's adjoint on, then sets that adjoint to 0.
  double differentiate(const lang::ir::statement& s, const index_t* loops, std::span<double* const> slots, double weight);
  // Recomputes one instance of an `=` statement.
  void run(const lang::ir::statement& s, const index_t* loops);
  // Recomputes every instance of an `=` statement, as one batch where it can be.
  void run(const lang::ir::statement& s);
  // The variables one instance reads (and, for `~`, the element it is the density of).
  read_log reads(const lang::ir::statement& s, const index_t* loops);
  // The block of its target that one instance writes: (offset, size).
  std::pair<index_t, index_t> target(const lang::ir::statement& s, const index_t* loops);
  // Evaluates an expression of a statement at one of its instances.
  view eval_at(const lang::ir::statement& s, const index_t* loops, const lang::ir::expr& e);
  // The arguments of a `~` statement at one of its instances.
  const std::vector<view>& args_at(const lang::ir::statement& s, const index_t* loops);
  // The value of `e`, a scalar argument of `s`, at every instance of `s` in instance order
  // (that of table()), as one batch (model/graph_batch.cpp); false when `s` is not
  // evaluated as a batch, or not at the current values.
  bool batch_values(const lang::ir::statement& s, const lang::ir::expr& e, std::vector<double>& out);

 private:
  graph& g_;
};

}  // namespace ppl::model
