#include "core/tensor.hpp"

namespace ppl {

std::string element_name(const std::string& name, const shape& s, index_t flat, std::string_view separator) {
  if (s.rank == 0) return name;
  std::string out = name + "[";
  for (int d = 0; d < s.rank; ++d) {
    const index_t stride = s.stride(d);
    if (d) out += separator;
    out += std::to_string(flat / stride + 1);
    flat %= stride;
  }
  return out + "]";
}

}  // namespace ppl
