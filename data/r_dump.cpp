// R's dump format as data: the values data_r_parser.cpp reads, each a variable, arrays
// turned from the order they were written in — R's column-major, or BUGS's row-major in
// OpenBUGS's bare list(...) — into ppl's row-major tensors.
#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "data/data.hpp"
#include "data/r_parser.hpp"
#include "data/row_major.hpp"
#include "data/text.hpp"

namespace ppl::data {

namespace {

using r_dump::value;

struct strides {
  std::array<index_t, max_rank> of{};
  explicit strides(const shape& s) {
    for (int d = 0; d < s.rank; ++d) of[static_cast<std::size_t>(d)] = s.stride(d);
  }
};

// The row-major offset of the element at column-major offset k: R's first index runs
// fastest.
index_t row_major_offset(index_t k, const shape& s, const strides& st) {
  index_t flat = 0;
  for (int d = 0; d < s.rank; ++d) {
    flat += k % s[d] * st.of[static_cast<std::size_t>(d)];
    k /= s[d];
  }
  return flat;
}

shape shape_of(const value& v) {
  if (v.scalar) return shape::scalar();
  if (!v.has_dims) return shape::vector(static_cast<index_t>(v.x.size()));
  shape s;
  s.rank = static_cast<int>(v.dims.size());  // 1 to 4 and their product the length: checked by the parser
  for (int d = 0; d < s.rank; ++d) s.dims[static_cast<std::size_t>(d)] = static_cast<index_t>(v.dims[static_cast<std::size_t>(d)]);
  return s;
}

data_value to_data(const ppl::source_file& src, r_dump::field& f) {
  const std::string name = ppl::printable(f.name);
  value& v = f.value;
  const std::string only_numbers = "; only numbers and arrays of numbers are data";
  if (v.what == value::kind::text)
    ppl::fail_at(src, f.at, "`" + name + "` holds text (\"" + ppl::printable(v.first_text.substr(0, 40)) + "\")" + only_numbers);
  if (v.what == value::kind::null) ppl::fail_at(src, f.at, "`" + name + "` is NULL" + only_numbers);
  if (v.what == value::kind::list)
    ppl::fail_at(src, f.at, "`" + name + "` holds a list" + only_numbers +
                                 " (the elements of a list at the top of the file are variables: data <- list(N = 3, y = c(1, 2, 3)))");
  data_value out;
  out.integer = v.integer;
  out.origin = src.name;
  out.value.shape = shape_of(v);
  out.length_one = out.value.shape.rank == 0;
  const bool reorder = out.value.shape.rank >= 2 && !v.row_major;
  out.value.data = reorder ? to_row_major(v.x, out.value.shape) : std::move(v.x);
  if (v.first_na != std::string::npos) {
    const auto k = static_cast<index_t>(v.first_na_index);
    const index_t flat = reorder ? row_major_offset(k, out.value.shape, strides(out.value.shape)) : k;
    out.first_missing = ppl::make_diagnostic(src, v.first_na, "NA at " + element_name(name, out.value.shape, flat));
  }
  return out;
}

}  // namespace

data_table read_r_dump(const std::string& path) { return parse_r_dump({path, read_file_text(path)}); }

data_table parse_r_dump(const ppl::source_file& src) {
  refuse_binary(src, "R data");
  std::vector<r_dump::field> fields = r_dump::parser(src).file();
  data_table table;
  std::set<std::string> seen;
  std::optional<ppl::line_index> lines;
  for (auto& f : fields) {
    if (f.name.empty()) ppl::fail_at(src, f.at, "empty variable name");
    // JAGS's inits name their random-number generator, the one text JAGS's files hold: kept
    // as text, which --init leaves out with a note (any other text is an error here).
    if (f.name == ".RNG.name" && f.value.what == value::kind::text) {
      if (!lines) lines.emplace(src.text);
      table.set_text("_RNG_name", text_column{ppl::make_diagnostic(src, *lines, f.at, "`.RNG.name` holds text; only numbers are data"),
                                              "is JAGS's random-number generator"});
      continue;
    }
    // BUGS names (alpha.c) cannot be ppl's: read as the translated model names them.
    std::string name = f.name;
    std::replace(name.begin(), name.end(), '.', '_');
    // R would keep the last of two values; in a data file the second is a mistake.
    if (!seen.insert(name).second)
      ppl::fail_at(src, f.at, "duplicate variable name \"" + ppl::printable(name) + "\"" +
                                   (name != f.name ? " (" + ppl::printable(f.name) + " is read as " + ppl::printable(name) + ")" : ""));
    table.set(name, to_data(src, f));
  }
  return table;
}

}  // namespace ppl::data
