#pragma once
// The random stream type shared by every sampler and distribution. Draws go through
// Boost.Random's distributions, whose algorithms are fixed, so a seed gives the same draws
// with any standard library.
#include <cstdint>
#include <random>

namespace ppl {

using rng = std::mt19937_64;

// A uniform in [0, 1) from the top 53 bits of one 64-bit word: for samplers' inner loops,
// where a distribution object per draw would cost more than the draw.
inline double unit_uniform(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }
inline double unit_uniform(rng& r) { return unit_uniform(r()); }

}  // namespace ppl
