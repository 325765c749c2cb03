#pragma once
// R's dump format, between its parser (data_r_parser.cpp) and the loader that makes data
// of it (data_r.cpp). Not for use elsewhere: data/data.hpp has the entry points.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/source_error.hpp"
#include "core/tensor.hpp"

namespace ppl::data::r_dump {

// The most values `a:b`, `integer(n)` and their kin may make in one file, together: each
// is a few bytes of text for any number of values, so without a limit a line of them
// would ask for more memory than the machine has, or take seconds to fill (a fuzzed
// input of two 16-million ranges took 2.5 s under AddressSanitizer). 2^22 values (32 MB)
// is far beyond the index vectors such files hold; larger data belong in CSV or JSON.
constexpr index_t max_generated = index_t{1} << 22;

struct field;

// One R value as written. R has no scalars: a number alone is a vector of length one,
// which ppl reads as a scalar, while c(5) and 1:1 stay vectors.
struct value {
  enum class kind { numbers, text, list, null };
  kind what = kind::numbers;
  std::size_t at = 0;          // offset of its first byte, for messages
  std::vector<double> x;       // numbers, in the order written; NA is NaN
  bool integer = true;         // every number written as an integer (no '.' or exponent, or an L)
  bool scalar = false;         // a number alone, not c(...) or a range
  std::size_t first_na = std::string::npos;  // offset of the first NA
  std::size_t first_na_index = 0;            // and its place in x
  bool has_dims = false;       // structure(..., .Dim = d): x is an array of dims d
  std::vector<double> dims;    // as written, checked when the value becomes data
  std::size_t dims_at = 0;
  bool row_major = false;      // BUGS's order (.Dim in a bare list(...)); R's is column-major
  std::string first_text;      // text: its first string, for the message refusing it
  std::vector<field> fields;   // list: its named elements
};

struct field {
  std::string name;
  bool named = true;   // false for an element of list(1, 2), as dimnames are written
  std::size_t at = 0;  // offset of the name, or of the value if it has none
  r_dump::value value;
};

// The file's variables in the order written: `name <- value` statements (the elements of
// a `name <- list(...)` each one variable), or the fields of OpenBUGS's one bare
// list(...). Throws ppl::source_error at malformed text. Declared for the parser
// (r_parser.hpp), which implements it.

}  // namespace ppl::data::r_dump
