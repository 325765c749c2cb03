#pragma once
// A statement argument dot(A[...], B[...]) whose two blocks sit at places that do not
// depend on unknowns (a rating's u[user[r]] . v[item[r]]): the places are found once, and
// each instance's product is then read from the two variables' storage in place, with no
// evaluation. Used by the conjugate update of a vector's Normal children and by the
// held-out predictions of matrix factorisation.
#include <vector>

#include "lang/ir.hpp"
#include "model/graph.hpp"

namespace ppl::samplers {

struct dot_rows {
  int left = -1, right = -1;  // the two variables
  const lang::ir::expr* left_ref = nullptr;
  const lang::ir::expr* right_ref = nullptr;
  ppl::index_t size = 0;  // the blocks' length
  std::vector<ppl::index_t> left_offsets, right_offsets;  // per instance, in instance order

  // The product at instance i, from the variables' current values.
  double at(const model::graph& g, std::size_t i) const {
    const double* a = g.value(left).data.data() + left_offsets[i];
    const double* b = g.value(right).data.data() + right_offsets[i];
    double sum = 0;
    for (ppl::index_t k = 0; k < size; ++k) sum += a[k] * b[k];
    return sum;
  }
};

// Fills `out` and returns true when `arg` (an argument of `s`) is such a product; false
// otherwise, `out` then unspecified.
bool read_dot_rows(model::graph& g, const lang::ir::statement& s, const lang::ir::expr& arg, dot_rows& out);

}  // namespace ppl::samplers
