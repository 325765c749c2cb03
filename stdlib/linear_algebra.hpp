#pragma once
#include "stdlib/registry.hpp"

namespace ppl::stdlib {

// `*`, dot, transpose (and the postfix '), softmax, rep, length, max and min.
void register_linear_algebra(registry& r);

}  // namespace ppl::stdlib
