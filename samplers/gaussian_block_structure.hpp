#pragma once
// What a `gaussian_block` reads, found from the model's structure once (samplers/
// gaussian_block.cpp samples it): its variables' elements, its terms and the derived
// variables between, why a set of variables cannot form a block, and which of its terms
// have an affine form the data fix for the run.
#include <string>
#include <utility>
#include <vector>

#include "model/graph.hpp"

namespace ppl::samplers {

// What the block reads: its variables' elements, the terms, and the derived variables to
// recompute when they change.
struct block_structure {
  std::vector<int> variables;
  std::vector<std::pair<int, ppl::index_t>> elements;  // (variable, element) per coordinate (list_elements)
  std::vector<const lang::ir::statement*> terms;
  std::vector<char> derived;  // by variable: derived from the block and read by a term
};

// 0 Normal(m, s), 1 MultiNormal(m, Sigma), 2 MultiNormalPrec(m, P); -1 none of them.
int term_form(const lang::ir::statement& s);

// Why `variables` cannot form a block, or empty when their terms have the form above
// (structurally: Normal everywhere, scales and indices free of the block). The elements are
// not listed: a question of whether a variable could join a block (BPMF's U, 4.8M
// elements at Netflix's size) does not need them.
std::string structure_of(model::graph& g, const std::vector<int>& variables, block_structure& out);
// Lists the elements of the block's variables (b.elements), for a block that is made.
void list_elements(model::graph& g, block_structure& b);

// By term of `b`: Normal (or MultiNormal with one covariance or precision for all its
// instances), with a mean, value, loop bounds and indices that read no unknown outside the
// block (through derived variables or not), only the block and data: its residual
// y - m = r0 + A b then has r0 and A fixed for the run.
std::vector<char> fixed_terms(const lang::ir::model& m, const block_structure& b);

}  // namespace ppl::samplers
