#pragma once
// The text of a draws file as the reader meets it: lines read in blocks, and the numbers
// of a row's cells.
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace ppl::draws::detail {

// The lines of a file: each without its line end, with its number and whether it had one
// (a run stopped while writing may leave a last row cut short). Blocks are read straight
// into one buffer, which grows only for a line longer than it. Throws ppl::source_error
// when the file cannot be opened or read.
class line_reader {
 public:
  explicit line_reader(const std::string& path);
  bool next(std::string_view& line, bool& complete);
  std::size_t number() const { return number_; }

 private:
  void refill();

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::size_t capacity_ = std::size_t{1} << 16, start_ = 0, end_ = 0, number_ = 0;  // before buffer_, which it sizes
  std::unique_ptr<char[]> buffer_;
  bool eof_ = false;
};

// Reads the number at the start of [at, end): decimal notation, inf or nan, with an
// optional sign (Stan writes +inf). Returns where it stops, or nullptr when there is none.
inline const char* parse_number(const char* at, const char* end, double& x) {
  if (at != end && *at == '+') ++at;
  const auto r = std::from_chars(at, end, x);
  return r.ec == std::errc() ? r.ptr : nullptr;
}

}  // namespace ppl::draws::detail
