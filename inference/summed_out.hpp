#pragma once
// Discrete unknowns summed out of the target that the approximations at the mode climb and
// fit (--method optimize, laplace, pathfinder, advi: inference/mode.hpp). Each element of
// such an unknown has a small finite support, the one the plan enumerates for the gibbs
// sampler. None of its terms (its Markov blanket, model::blanket) reads another summed
// element. The elements are then independent given the continuous unknowns theta, and the
// sum over all their values is a product of one sum per element:
//
//   log p(theta) = rest(theta) + sum_e log sum_k exp l_e(k; theta),
//
// with l_e(k) the element's terms at its k-th value. The gradient of one element's part is
// its values' gradients averaged by their conditional probabilities
// r_k = exp(l_e(k) - log sum_j exp l_e(j)) (Fisher's identity; Dempster, Laird and Rubin
// 1977). So each value's terms are differentiated once, with r_k as their adjoint
// (graph::own_terms, instances::differentiate). This is what Stan's users write by hand
// with log_sum_exp over a mixture's components, found from the model as written.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "model/blanket.hpp"
#include "model/graph.hpp"

namespace ppl::inference {

// The unknowns not marked in `predicted` (by variable), by how the approximations at the
// mode and SMC's summed moves treat them: smooth continuous ones (samplers::smooth_block),
// which they move; discrete ones, which they sum out; and the rest, named with why the
// gradient cannot reach them, as "x reads ...; y ...".
struct unknown_split {
  std::vector<int> smooth, discrete;
  std::string rough;
};
unknown_split split_unknowns(model::graph& g, const std::vector<char>& predicted);

class summed_out final : public model::graph::own_terms {
 public:
  // Throws std::invalid_argument saying why one of them cannot be summed: a support that is
  // not a small finite set, or one that follows other unknowns; a read through an index
  // that depends on unknowns; a term shared by two elements.
  summed_out(model::graph& g, const std::vector<int>& variables);
  double total() override;
  double add(std::span<double* const> slots) override;
  // Sets each element given the rest: to a draw from its conditional (from `rng`), or,
  // with none, to its most probable value. Derived variables that read it follow.
  void set(ppl::rng* rng);
  // "z, c", for the report.
  std::string names() const;
  // Whether variable v is one of those summed out.
  bool holds(int v) const { return std::find(variables_.begin(), variables_.end(), v) != variables_.end(); }

 private:
  struct element {
    std::size_t unknown;  // index into variables_ and blankets_
    index_t index;        // the element within its variable
    std::vector<double> values;
  };
  // The element's terms at each of its values, into logs_; returns their log-sum-exp.
  // Leaves the element at its last value.
  double conditional(const element& e);
  double& value_of(const element& e);
  // Their sum (with the gradient into `slots` when given), untempered.
  double sum(std::span<double* const> slots, bool differentiate);

  model::graph& graph_;
  std::vector<int> variables_;
  std::vector<std::unique_ptr<model::blanket>> blankets_;
  std::vector<element> elements_;
  // Instances of the summed statements that read no summed element: they are added at
  // weight 1.
  struct loose {
    int statement;
    std::vector<index_t> loops;  // each instance's, flattened
    std::size_t count;
  };
  std::vector<loose> loose_;
  std::vector<double> logs_;
  std::vector<std::pair<int, const index_t*>> derived_;
};

}  // namespace ppl::inference
