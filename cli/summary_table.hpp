#pragma once
// The posterior summary table printed by `ppl infer` and `ppl summary`.
#include <string>
#include <vector>

#include "runtime/draws.hpp"

namespace ppl::cli {

struct table_options {
  std::size_t max_rows_per_variable = 20;  // larger arrays are summarised compactly
  std::vector<std::string> show;           // print every element of these variables
};

// Prints one row per scalar column (name, mean, sd, 5%, 50%, 95%, mcse, ess_bulk,
// ess_tail, rhat) and warnings for R-hat > 1.01 or ESS < 400. Returns the warnings.
std::vector<std::string> print_summary(const runtime::draws& d, const table_options& o);

}  // namespace ppl::cli
