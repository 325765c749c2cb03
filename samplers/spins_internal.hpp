#pragma once
// What the files that read a pairwise model off the factors share: spins_read.cpp (the
// reading, instance by instance where it must, and the model's assembly) and
// spins_columns.cpp (a factor's instances read all at once, as columns). Nothing outside
// them and their tests includes this.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "samplers/spins.hpp"

namespace ppl::samplers::spins::detail {

// The most distinct spins one factor instance may read: its 2^k values are enumerated.
constexpr std::size_t max_spins_per_term = 12;

struct pair_term {
  std::uint32_t a, b;  // a < b
  double j;
};

// The terms of log p(s) found so far, in the order the instances were read.
struct term_sum {
  double constant = 0;
  std::vector<double> field;
  std::vector<pair_term> pairs;

  // Adds one factor instance reading the k distinct spins `elements` (k <= 12), given its
  // values at their 2^k configurations in `values` (bit i of a configuration set: spin
  // elements[i] is +1), which are transformed in place. False, with `reason`, when a value
  // is not finite or the instance couples three or more spins.
  bool add(const std::uint32_t* elements, std::size_t k, double* values, std::string& reason);
};

// Adds every instance of factor `s` of spin variable `variable` to `sum` in one pass per
// expression node over blocks of instances, where the factor is a scalar expression of
// element reads of the spins, data and loop variables through elementwise functions (the
// Ising and Boltzmann-machine forms). The outcome: `done`; `declined` when the factor has
// another form (nothing was added: the caller reads this statement instance by
// instance); `abandoned` when an instance failed a check after others were added (the
// caller reads every statement again instance by instance, which gives the reasons).
enum class column_outcome { done, declined, abandoned };
column_outcome add_factor_columns(model::graph& g, const lang::ir::statement& s, int variable, term_sum& sum);

// The reading itself, uncached; `columns` false reads every factor instance by instance
// (the general path, which tests compare the column path against).
std::optional<pairwise_model> read_pairwise(model::graph& g, int variable, std::string& reason, bool columns = true);

}  // namespace ppl::samplers::spins::detail
