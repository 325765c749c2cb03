// R's dump format as data: the values data_r_parser.cpp reads, each a variable, arrays
// turned from the order they were written in — R's column-major, or BUGS's row-major in
// OpenBUGS's bare list(...) — into ppl's row-major tensors.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <functional>
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

data_value to_data(ppl::source_view src, r_dump::field& f) {
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

// The table from a text, checked not to be binary; `release` as the parser's.
data_table table_of(ppl::source_view src, const std::function<void(std::size_t)>& release = {}) {
  refuse_binary(src, "R data");
  if (release) release(src.text.size());  // that check read the whole text
  std::vector<r_dump::field> fields = r_dump::parser(src, release).file();
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

// A plain file mapped into memory, read once from start to end: the pages behind the
// parse go back as it passes them, so that memory holds the values and not the text.
class mapped_text {
 public:
  explicit mapped_text(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      size_ = static_cast<std::size_t>(st.st_size);
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        base_ = static_cast<char*>(p);
        ::madvise(base_, size_, MADV_SEQUENTIAL);
      }
    }
    ::close(fd);
  }
  ~mapped_text() {
    if (base_) ::munmap(base_, size_);
  }
  mapped_text(const mapped_text&) = delete;
  mapped_text& operator=(const mapped_text&) = delete;
  bool mapped() const { return base_ != nullptr; }
  std::string_view text() const { return {base_, size_}; }
  // The pages wholly before `offset` leave memory (read again from the file if a message
  // needs them).
  void release(std::size_t offset) const {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t end = std::min(offset, size_) / page * page;
    if (end > 0) ::madvise(base_, end, MADV_DONTNEED);
  }

 private:
  char* base_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace

data_table read_r_dump(const std::string& path) {
  // A .gz is inflated whole, as is a file that cannot be mapped (a pipe, an empty file).
  if (!path.ends_with(".gz")) {
    const mapped_text m(path);
    if (m.mapped()) return table_of({path, m.text()}, [&m](std::size_t offset) { m.release(offset); });
  }
  return parse_r_dump({path, read_file_text(path)});
}

data_table parse_r_dump(const ppl::source_file& src) { return table_of(src); }

}  // namespace ppl::data
