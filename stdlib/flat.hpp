#pragma once
// The improper flat prior: a density of 1 on the reals, or on a half-line. `Flat()` is
// BUGS's dflat(); a `param` declared without a `~` gets the one of its bounds (Stan's
// implicit prior). It has no draws: `ppl simulate` and ancestral sampling refuse it.
#include "stdlib/distribution.hpp"

namespace ppl::stdlib {

// Flat on (lower, inf) with a parameter `lower`, or on (-inf, upper) with `upper`.
const distribution& flat_bounded_below();
const distribution& flat_bounded_above();
// Density 1 on (lower, upper), not normalised: the implicit prior of a `param` whose bounds
// follow other unknowns (Stan's `real<lower=0, upper=1 - a> b`), where Uniform's 1 / (upper -
// lower) would add a term Stan's flat prior does not have. No draws: the joint prior it
// gives (flat on a triangle) is not drawn variable by variable.
const distribution& flat_between();

// Whether a distribution is improper (has no normalising constant, nor draws).
bool improper(const distribution& d);

}  // namespace ppl::stdlib
