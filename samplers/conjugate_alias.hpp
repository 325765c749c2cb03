#pragma once
// A conjugate child that reads the variable through an alias (samplers/structure.hpp,
// alias_form): lambda[i] <- theta[i] * t[i]; x[i] ~ Poisson(lambda[i]). Each instance's
// element of the variable and the form's factor are read once, through the alias's
// definitions, into the layout of a child at fixed places (samplers/conjugate.cpp).
#include <vector>

#include "model/graph.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

struct alias_rows {
  int alias = -1;                       // the derived variable read
  std::size_t which = 0, arg = 0;       // the likelihood matched, and the argument it takes
  const lang::ir::expr* ref = nullptr;  // the variable's reference in a definition
  std::vector<ppl::index_t> elements, value_offsets, value_sizes;
  std::vector<double> fixed_args;       // per instance, one per argument; the factor c at `arg`
};

// The rows of `child` if it reads `variable` through an alias as one of `allowed` takes it;
// false otherwise.
bool read_alias(model::graph& g, int variable, const lang::ir::statement& child, const std::vector<likelihood>& allowed, alias_rows& out);

}  // namespace ppl::samplers
