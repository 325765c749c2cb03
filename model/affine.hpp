#pragma once
// Which expressions are affine in the model's unknowns with coefficients the data fix —
// built from unknowns and data by sums, differences, negation, products and quotients with
// one side free of unknowns, dot products, sums, means, transposes, concatenations,
// cumulative sums and indices free of unknowns — a structural question the gradient's
// sufficient statistics (model/graph_linear_normal.cpp) and the affine definitions
// (model/graph_affine_definitions.cpp) ask before they read the coefficients by evaluation.
#include <vector>

#include "lang/ir.hpp"

namespace ppl::model {

class affinity {
 public:
  // `through_derived`: a derived variable read counts as affine where every definition of it
  // is (its loops and indices free of unknowns, a definition that reads itself refused), and
  // what it reaches is collected; else it is a leaf like an unknown, and collected itself.
  affinity(const lang::ir::model& m, bool through_derived);
  // Whether `e` is affine; the variables it reaches are added to reached().
  bool operator()(const lang::ir::expr& e);
  // The unknowns (and derived leaves) reached so far, sorted, each once.
  std::vector<int> reached() const;

 private:
  const lang::ir::model& model_;
  bool through_derived_;
  std::vector<char> memo_;  // by variable: 0 not yet asked, 1 affine, 2 not (or being asked)
  std::vector<int> reached_;
};

// Whether `e` reads any of `variables`, directly or through derived variables.
bool reads_any(const lang::ir::model& m, const lang::ir::expr& e, const std::vector<int>& variables);

}  // namespace ppl::model
