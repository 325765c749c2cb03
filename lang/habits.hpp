#pragma once
// What users of BUGS, JAGS and Stan write out of habit, and what ppl writes instead: the
// advice added to an error when a model reads like one of theirs.
#include <string>
#include <string_view>

namespace ppl::lang {

// For a BUGS or JAGS distribution (`dnorm`), the ppl one and how its arguments differ:
// "BUGS's dnorm(mu, tau) is Normal(mu, 1 / sqrt(tau)) here: ...". Empty for other names.
std::string bugs_distribution(std::string_view name);

// The same for a BUGS function (`ilogit`, `inprod`).
std::string bugs_function(std::string_view name);

// For a statement that begins with `word` and then reads `next` where ppl expected `~` or
// `=`: a keyword misspelt (`fro i in 1:N`), a block (`model {`), Stan's `target +=`.
// Empty when nothing is recognised.
std::string statement_habit(std::string_view word, std::string_view next);

}  // namespace ppl::lang
