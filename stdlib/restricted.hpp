#pragma once
// A distribution of scalars restricted to an interval whose bounds are two more parameters
// (either may be absent), what `y ~ D(...) C[lower, upper]` and `T[lower, upper]` compile to
// (lang/checker_statements.cpp):
//   - censored (`C`, BUGS's C(lower, upper)): the value is known only to lie in the
//     interval. The density is D's inside it and 0 outside, not renormalised: with the
//     value missing from the data and imputed (lang/checker_missing.cpp), integrating it
//     out leaves P(lower <= Y <= upper | parameters), the censored observation's likelihood.
//     An observed value inside the interval keeps D's density, as in OpenBUGS.
//   - truncated (`T`, JAGS's T(lower, upper), Stan's T[lower, upper]): D renormalised to
//     the interval, log p(y) - log P(lower <= Y <= upper), the probability from D's CDF.
#include <memory>
#include <string>
#include <vector>

#include "stdlib/distribution.hpp"

namespace ppl::stdlib {

// Null, with `why` set, when `inner` cannot be restricted (a distribution of vectors, or
// of too many parameters; truncation of one without a CDF).
std::unique_ptr<distribution> make_restricted(const distribution& inner, bool truncated, bool has_lower, bool has_upper,
                                              std::string& why);

// Whether `d` is a censored distribution: its density does not integrate to one (the
// interval's probability is the likelihood it carries).
bool censored(const distribution& d);

}  // namespace ppl::stdlib
