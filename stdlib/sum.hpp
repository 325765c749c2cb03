#pragma once
// The tolerance of Sum(x) (stdlib/sum.cpp), shared with what keeps observed sums
// (model/sums.hpp): a relative 1e-9, so that real summands moved by floating point keep
// their sum.
#include <algorithm>
#include <cmath>

namespace ppl::stdlib {

inline bool sum_holds(double value, double total) { return std::abs(value - total) <= 1e-9 * std::max(1.0, std::abs(total)); }

}  // namespace ppl::stdlib
