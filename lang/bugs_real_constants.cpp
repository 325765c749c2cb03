// Whole numbers beside reals among one variable's `=` definitions, as reals (bugs_rewrites.hpp).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "lang/bugs_nodes.hpp"
#include "lang/bugs_rewrites.hpp"

namespace ppl::lang::bugs_rewrites {

using namespace bugs_nodes;

// BUGS has no integers: `p[i, 1] <- 0` beside `log(p[i, j]) <- ...` fills one real array.
// ppl types a variable by its definitions, so where some definitions of a variable are
// whole numbers and others are not, the numbers are written as reals.
void real_constants(std::vector<ast::statement>& body) {
  std::map<std::string, std::vector<ast::assign_stmt*>> defs;
  collect_assignments(body, defs);
  for (auto& [name, list] : defs) {
    auto whole = [](const ast::assign_stmt* a) { return boost::get<ast::int_literal>(&a->value) != nullptr; };
    if (list.size() < 2 || std::all_of(list.begin(), list.end(), whole) || std::none_of(list.begin(), list.end(), whole)) continue;
    for (auto* a : list)
      if (const auto* n = boost::get<ast::int_literal>(&a->value)) a->value = real_number(static_cast<double>(n->value), n->pos, n->end);
  }
}

}  // namespace ppl::lang::bugs_rewrites
