#pragma once
// The loop bound the checker writes for a vectorised statement (`y ~ Normal(mu, sigma)`
// over arrays): the extent of one dimension of the arrays the statement reads, once it has
// checked that they all have one shape. A mismatch is an error naming both ("`y` has shape
// [10] but `mu` has shape [8]"), never a loop over the shorter one.
#include <memory>
#include <string>
#include <vector>

#include "stdlib/function.hpp"

namespace ppl::lang {

// Each argument is one array of the statement, labelled for messages; with `declared`,
// the first `rank` arguments are instead the sizes of a declaration (`param b: real[K]`).
std::unique_ptr<stdlib::function> make_extent_function(int dimension, int rank, bool declared,
                                                       std::vector<std::string> labels);

}  // namespace ppl::lang
