#pragma once
// Questions about the graph's structure that several factories ask.
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "runtime/graph.hpp"

namespace ppl::samplers {

// Whether some observation or `factor` depends on the variable (through any path of
// statements); an unknown that none does is drawn exactly from its prior.
bool informed(const lang::ir::model& m, int variable);

// Whether some `~` or `factor` depends on a derived variable (else it is output only,
// recomputed once per iteration, and no sampler needs to care about it).
bool feeds_density(const lang::ir::model& m, int variable);

// The statements other than its own prior that read the variable, leaving out the
// definitions of output-only derived variables.
std::vector<int> reading_statements(const lang::ir::model& m, int variable);

// A distribution and the argument through which a conjugate prior's variable enters it.
struct likelihood {
  std::string dist;
  std::size_t arg;
};

// A conjugate link: `~` statements, each of a listed distribution whose listed argument is
// the variable, or one element or leading-index block of it selected by indices that do
// not mention it, and that read it nowhere else. Fills `children` and returns ""
// on success, else the reason.
std::string direct_children(const lang::ir::model& m, int variable, const std::vector<likelihood>& allowed,
                            std::vector<int>& children);

// The variable's prior distribution name if all its `~` statements use the same one.
std::string prior_name(const lang::ir::model& m, int variable);

// Whether every element's support is finite and small enough to enumerate; sets `reason`.
bool finite_support(runtime::graph& g, int variable, std::string& reason);

}  // namespace ppl::samplers
