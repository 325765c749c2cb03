#pragma once
// `print(a, b[i], ...)` (docs/language.md, "Printing values"): each argument becomes a
// derived variable of its own, `print__lineL_K`, defined where the print stands (indexed by
// the loops around it), which the chains compute and print at each kept draw
// (inference/chain.cpp) and leave out of the draws.
#include <string>
#include <vector>

#include "core/source_error.hpp"
#include "lang/ast.hpp"

namespace ppl::lang {

struct printed {
  std::string variable;  // print__lineL_K
  std::string label;     // the argument as written: `b[i]`
  std::string loops;     // the loops it is indexed by, "i, j" (empty at the top level)
  std::size_t pos = 0;   // the print's place
};

// Every print in the program written as definitions, in place, and what they print.
void write_prints(const source_file& src, ast::program& program, std::vector<printed>& out);

}  // namespace ppl::lang
