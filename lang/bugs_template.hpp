#pragma once
// A row of lang/bugs_names.hpp made into ppl's syntax: its ppl side parsed, the call's
// arguments put in place of the parameters' names. Part of the BUGS front end.
#include <cstddef>
#include <string_view>
#include <vector>

#include "lang/ast.hpp"

namespace ppl::lang {

// The number of parameters of a row's BUGS call: 2 for "dnorm(mu, tau)".
std::size_t template_arity(std::string_view bugs_call);

// The row's ppl text (`Normal(mu, 1 / sqrt(tau))`) with `args` in place of the BUGS call's
// parameters (`dnorm(mu, tau)`), in order; its own nodes placed at [pos, end).
ast::operand instantiate(std::string_view bugs_call, std::string_view ppl_text, std::vector<ast::operand> args, std::size_t pos,
                         std::size_t end);

}  // namespace ppl::lang
