#pragma once
// Arrays that arrive column by column (R's dump, NumPy's fortran_order): their values in
// ppl's row-major order.
#include <array>
#include <vector>

#include "core/tensor.hpp"

namespace ppl::data {

// x holds an array of shape s in column-major order (the first index runs fastest).
inline std::vector<double> to_row_major(const std::vector<double>& x, const shape& s) {
  std::vector<double> out(x.size());
  std::array<index_t, max_rank> step{}, index{};
  for (int d = 0; d < s.rank; ++d) step[static_cast<std::size_t>(d)] = s.stride(d);
  for (const double xk : x) {
    index_t flat = 0;
    for (int d = 0; d < s.rank; ++d) flat += index[static_cast<std::size_t>(d)] * step[static_cast<std::size_t>(d)];
    out[static_cast<std::size_t>(flat)] = xk;
    for (int d = 0; d < s.rank && ++index[static_cast<std::size_t>(d)] == s[d]; ++d) index[static_cast<std::size_t>(d)] = 0;
  }
  return out;
}

}  // namespace ppl::data
