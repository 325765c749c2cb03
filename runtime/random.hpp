#pragma once
// The random stream type shared by every sampler and distribution. Draws go through
// Boost.Random's distributions, whose algorithms are fixed, so a seed gives the same draws
// with any standard library.
#include <random>

namespace ppl::runtime {

using rng = std::mt19937_64;

}  // namespace ppl::runtime
