#pragma once
// Observed sums of unknowns (`y ~ Sum([a, b, c])` with y data; JAGS's dsum): the unknowns
// must add up to the data, a set no single-site update can move on. The graph's start
// puts them on it (start_on_sums, called at the end of graph::start), and the `sum_move`
// sampler (samplers/sum_move.cpp) moves them in pairs that keep it.
#include <vector>

#include "model/graph.hpp"

namespace ppl::model {

// One summand that is an element of an unknown.
struct summand {
  int variable = -1;
  index_t element = 0;
  bool integer = false;
};

// One instance of an observed Sum: its unknown summands and the total they must reach
// (the data less the summands that are not unknown).
struct observed_sum {
  const lang::ir::statement* statement = nullptr;
  std::vector<summand> unknowns;
  double total = 0;
};

// Every instance of every observed Sum statement. A summand computed from unknowns
// (`Sum([a + 1, b])`) rather than read from one is not a summand ppl can move, nor is one
// in two sums: an error at the statement (ppl::source_error).
std::vector<observed_sum> observed_sums(graph& g);

// Moves the unknown summands of each observed Sum onto it: scaled in proportion when they
// and their total are non-negative (counts stay counts, rounded by largest remainders),
// else shifted equally; then recomputes the derived variables.
void start_on_sums(graph& g);

}  // namespace ppl::model
