#pragma once
// What a start whose log density is not finite reads, and the repairs a chain tries before
// starting again elsewhere (model/failed_start.cpp; inference/chain_start.cpp). A view of
// the graph, made where it is used (`failed_start(g).first_non_finite(s)`).
#include <optional>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "lang/ir.hpp"

namespace ppl::model {

class graph;

class failed_start {
 public:
  explicit failed_start(graph& g) : g_(g) {}

  // Whether --init gives a value for every unknown (a start that cannot vary).
  bool covered_by_init() const;
  // The first instance of a statement whose term is NaN or -inf: what it is ("the log
  // density of y[3] (n = 3) is -inf", "this factor at i = 2 is NaN") and, for a `~`, why
  // where the parameters or the support tell ("Normal: scale sigma is -1; it must be ...").
  struct non_finite_term {
    std::string what, reason;
  };
  std::optional<non_finite_term> first_non_finite(const lang::ir::statement& s);
  // Marks (by variable) the unknowns that terms whose log density is not finite read,
  // directly or through `=` definitions, or are the density of: those a start that failed
  // should choose differently. False when every term is finite.
  bool mark_non_finite_inputs(std::vector<char>& marks);
  // Scalar unknowns whose blanket's log density is not finite, element by element, in
  // passes while any term is not finite: discrete ones of finite support drawn from their
  // full conditional by enumerating the support, continuous ones drawn again on their
  // unconstrained scale until their blanket is finite (`continuous`: a pass element by
  // element costs several whole evaluations, so a chain asks for it on its first starts
  // only); those --init gives are left as given. Whether any element changed.
  bool settle(rng& rng, bool continuous);

 private:
  struct settled {
    bool moved = false;  // some element drawn again
    long finite = 0;     // elements whose terms are now finite
  };
  void settle_variable(int v, rng& rng, bool continuous, settled& outcome, long& budget);

  graph& g_;
};

}  // namespace ppl::model
