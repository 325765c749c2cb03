#pragma once
// What the evidence reaches: which unknowns an observation or `factor` depends on, and which
// `~` statements only predict (a posterior-predictive `yrep[n] ~ Normal(mu[n], s)`).
#include <vector>

#include "lang/ir.hpp"

namespace ppl::lang {

// By variable: whether some observation or `factor` depends on it, through any path of
// statements. An unknown that none does is drawn exactly from its prior given its parents.
std::vector<char> informed_variables(const ir::model& m);

// By statement: the `~` of an unknown that no evidence depends on but that depends, through
// any path, on an unknown that evidence does inform. Such a variable is a prediction: the
// informed unknowns' conditionals leave its terms out (they integrate to one), and it is
// drawn from its prior after them in every sweep, so it never slows their mixing.
std::vector<char> predictive_statements(const ir::model& m);

// By statement: the terms of the likelihood, the observations of data and the `factor`s
// (everything the evidence p(data) integrates over the prior's other terms). Tempered
// methods raise these to a power beta (model::graph::set_temperature).
std::vector<char> likelihood_statements(const ir::model& m);

}  // namespace ppl::lang
