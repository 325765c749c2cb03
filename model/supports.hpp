#pragma once
// The supports of a built graph's unknowns, as their priors give them at the current
// values (model/supports.cpp), and ordered vectors' supports (model/supports_ordered.cpp).
// A view of the graph, made where it is used (`supports(g).moves(v)`).
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "stdlib/distribution.hpp"

namespace ppl::model {

class graph;

class supports {
 public:
  explicit supports(graph& g) : g_(g) {}

  // Calls fn(offset, size, support) for each block of an unknown defined by one instance;
  // for an ordered vector, once for the whole vector.
  void visit(int variable, const std::function<void(index_t, index_t, const stdlib::support&)>& fn);
  // The support of the element `element` of unknown `variable`, from its prior.
  stdlib::support of_element(int variable, index_t element);
  // Whether the bounds of an unknown's support follow other unknowns' values (x ~
  // Uniform(0, theta), k ~ Binomial(n, p) with n unknown): samplers then read the
  // support again before each update rather than once. And whether they follow its own
  // values (x[i] ~ Uniform(0, x[i - 1])), which only element-by-element samplers can take.
  bool moves(int variable) const;
  bool reads_itself(int variable) const;
  // The variables the moving bounds of `variable`'s support read, through `=` definitions.
  std::vector<char> inputs(int variable) const;
  // Whether a sampler's transform can move `variable` together with the unknowns its
  // bounds follow: a `param`'s flat prior within bounds (stdlib/flat.hpp) whose bound
  // expressions read only unknowns, none of them `variable` or one whose own support moves
  // (Stan's real<lower=0, upper=1 - alpha1>; samplers/unconstrained.cpp).
  bool follows_bounds(int variable) const;
  // For element `element` of such a variable: adds d_lower * d(lower)/dx + d_upper *
  // d(upper)/dx to adjoints[x] for each unknown x the bounds read (where not null).
  void bound_backward(int variable, index_t element, double d_lower, double d_upper, std::span<double* const> adjoints);

  // ---- ordered vectors (model/supports_ordered.cpp) ----
  // Whether `variable` is declared `ordered[K]` or `positive_ordered[K]`.
  bool ordered(int variable) const;
  // Its support as one block: support_kind::ordered, above the type's bound (0 for
  // positive_ordered) and its elements' priors' common lower bound. An error naming the
  // variable when those priors cannot hold an ordered vector (bounded above, discrete, on
  // a simplex, or with bounds that follow other unknowns).
  stdlib::support ordered_support(int variable);
  // The first element out of order, as "c[2] = 0.5 is not above c[1] = 1 (...)"; empty
  // when the vector is strictly increasing (and above its bound).
  std::string first_unordered(int variable);
  // Whether sorting draws of the elements is a draw of the prior on the ordered set (one
  // prior shared by every element, within the set's range); `why` says why not.
  bool ordered_draw_exact(int variable, std::string& why);

 private:
  graph& g_;
};

}  // namespace ppl::model
