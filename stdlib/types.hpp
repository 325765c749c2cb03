#pragma once
// What the checker knows about a value before data arrive: integer or real, and its rank.
#include <string>

namespace ppl::stdlib {

enum class scalar_kind { integer, real };

struct type_sig {
  scalar_kind kind = scalar_kind::real;
  int rank = 0;  // 0 scalar, 1 vector, 2 matrix, ...

  friend bool operator==(const type_sig&, const type_sig&) = default;
};

// "int", "real[]", "real[,]": how types read in messages.
inline std::string to_string(const type_sig& t) {
  std::string s = t.kind == scalar_kind::integer ? "int" : "real";
  if (t.rank > 0) s += "[" + std::string(static_cast<std::size_t>(t.rank - 1), ',') + "]";
  return s;
}

}  // namespace ppl::stdlib
