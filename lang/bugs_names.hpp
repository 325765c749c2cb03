#pragma once
// BUGS's distributions and functions and what ppl writes for them, in one table used both
// to translate BUGS files (lang/bugs_lower.cpp) and to advise a user who writes BUGS in a
// .ppl file (lang/habits.cpp). Each entry is written as the two languages read:
// `dnorm(mu, tau)` is `Normal(mu, 1 / sqrt(tau))`.
#include <span>
#include <string_view>

namespace ppl::lang {

struct bugs_name {
  std::string_view bugs;  // the call as BUGS writes it, with its parameters' names: "dnorm(mu, tau)"
  std::string_view ppl;   // the same in ppl, in those names: "Normal(mu, 1 / sqrt(tau))"
  std::string_view note;  // why, for advice: "a standard deviation, not a precision"; may be empty
};

// Sorted by name.
std::span<const bugs_name> bugs_distribution_table();
std::span<const bugs_name> bugs_function_table();

// The entry for a BUGS name (`dnorm`, `ilogit`), or null.
const bugs_name* find_bugs_distribution(std::string_view name);
const bugs_name* find_bugs_function(std::string_view name);

// The name of a call as the entry writes it: "dnorm" of "dnorm(mu, tau)".
constexpr std::string_view callee_of(std::string_view call) { return call.substr(0, call.find('(')); }

}  // namespace ppl::lang
