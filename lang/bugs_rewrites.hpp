#pragma once
// Rewrites of a lowered BUGS program that need all of it, run by lang/bugs_lower.cpp after
// the statements are lowered one by one, in the order declared here; each pass is a file
// of its own, named after it.
#include <functional>
#include <set>
#include <vector>

#include "lang/ast.hpp"
#include "core/source_error.hpp"

namespace ppl::lang::bugs_rewrites {

// JAGS's dinterval beside its node's `~`, as ppl's censoring (an if/else per node);
// `several(c)` tells whether the cut points `c` are a vector (bugs_intervals.cpp).
void intervals(const source_file& src, std::vector<ast::statement>& body, const std::function<bool(const ast::operand&)>& several);

// BUGS's ordered cut points written as a cycle of neighbours' bounds, element by element
// with literal indices: `a[1] ~ dunif(L, a[2])`, `a[k] ~ dunif(a[k - 1], a[k + 1])`, ...,
// `a[K] ~ dunif(a[K - 1], U)` (MultiBUGS's Inhalers), or the same with `dflat()T(lower,
// upper)` (OpenBUGS's). BUGS samples it through its full conditionals; as one density it is
// the product of the elements' on the ordered vectors between L and U: 1 / (upper - lower)
// for each dunif, 1 for each dflat. It becomes
//   param a: ordered[K]
//   factor -log(a[2] - L) - log(a[3] - a[1]) - ... + log(a[1] > L) + log(a[K] < U)
// (the last two -inf outside the outer bounds; bugs_ordered.cpp).
void ordered_chains(std::vector<ast::statement>& body);

// An array whose elements are partly `~` and partly `<-` (BUGS's corner constraints,
// `alpha[1] <- 0` beside `alpha[k] ~ dnorm(0, 1.0E-6)`): each `~` defines a variable of its
// own (`alpha_free`), which the array's elements copy (bugs_mixed_arrays.cpp).
void mixed_arrays(const source_file& src, std::vector<ast::statement>& body);

// Arrays that read each other element by element, each element defined on its own
// (Magnesium's `tau.sqrd[1] <- 1 / inv.tau.sqrd[1]` beside `inv.tau.sqrd[2] <- 1 /
// tau.sqrd[2]`): a cycle between variables for ppl, none between elements. Each element's
// definition becomes a scalar of its own, which the others read and the array copies
// (bugs_element_cycles.cpp).
void element_cycles(std::vector<ast::statement>& body);

// A helper array on such a cycle inside loops (a second-order random walk, `m[t] <- 2 *
// x[t - 1] - x[t - 2]` beside `x[t] ~ dnorm(m[t], tau)`): its definition is written into
// the statements on the cycle that read it, so that x reads its own earlier elements; the
// helper stays for the draws (bugs_cycle_helpers.cpp).
void cycle_helpers(std::vector<ast::statement>& body);

// Whole numbers beside reals among one variable's `=` definitions, as reals
// (bugs_real_constants.cpp).
void real_constants(std::vector<ast::statement>& body);

// An observation of a linked node given the linear predictor; `links` are the offsets of
// the `=`s that came from a link on the left (bugs_linear_predictors.cpp).
void linear_predictors(std::vector<ast::statement>& body, const std::set<std::size_t>& links);

}  // namespace ppl::lang::bugs_rewrites
