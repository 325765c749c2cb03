#pragma once
// A conjugate child that reads the variable through an alias (samplers/structure.hpp,
// alias_form): lambda[i] <- theta[i] * t[i]; x[i] ~ Poisson(lambda[i]). Each instance's
// element of the variable and the form's factor are read once, through the alias's
// definitions, into the layout of a child at fixed places (samplers/conjugate.cpp); a
// factor that reads other unknowns is read again at each update.
#include <vector>

#include "model/graph.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

// A form's factor that reads other unknowns (exp(beta * z[i]) in Idt[i, j] <- Y[i, j] *
// exp(beta * z[i]) * dL0[j]), read again at each update from one definition's instances.
struct alias_factor {
  const lang::ir::statement* def = nullptr;
  const lang::ir::expr* factor = nullptr;
  std::vector<ppl::index_t> loops;              // the definition's instances (instances::table)
  std::vector<std::size_t> rows, instances;     // each child row that takes its factor from it, and which instance
};

struct alias_rows {
  int alias = -1;                       // the derived variable read
  std::size_t which = 0, arg = 0;       // the likelihood matched, and the argument it takes
  const lang::ir::expr* ref = nullptr;  // the variable's reference in a definition
  std::vector<ppl::index_t> elements, value_offsets, value_sizes;
  std::vector<double> fixed_args;       // per instance, one per argument; the factor c at `arg`
  std::vector<alias_factor> varying;    // where c reads other unknowns
};

// The rows of `child` if it reads `variable` through an alias as one of `allowed` takes it;
// false otherwise.
bool read_alias(model::graph& g, int variable, const lang::ir::statement& child, const std::vector<likelihood>& allowed, alias_rows& out);

// The varying factors at the graph's current values into `fixed_args` (rows of `n_args`,
// the factor at `arg`).
void read_factors(model::graph& g, const std::vector<alias_factor>& varying, std::size_t n_args, std::size_t arg,
                  std::vector<double>& fixed_args);

}  // namespace ppl::samplers
