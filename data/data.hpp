#pragma once
// Data from files and the command line, before it meets the model: named arrays of
// numbers. Binding them to `data` declarations (kinds, shapes, sizes, domains) is the graph
// builder's job (model/bind_data.cpp).
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source_error.hpp"
#include "core/tensor.hpp"

namespace ppl::data {

struct data_value {
  tensor value;
  bool integer = false;  // every element was written as an integer
  std::string origin;    // for messages: "data.csv, column y", "data.json", "--set K=50"
  // Missing values (CSV's NA or empty cell, JSON's null) are NaN. Where the file can say
  // where the first one is (a CSV cell), this is the message at it, for the error given
  // when the model cannot impute it.
  std::optional<ppl::diagnostic> first_missing;
  // R's dump has no scalars: `y <- 2.5` is a vector of length 1, read as a number, which
  // fits a model's array of one element as well (cli/session.cpp's fit_length_one).
  bool length_one = false;
};

// A CSV column that is not all numbers and missing values (names, dates). It is no value of
// the table: a model that reads it gets `problem`, the error at its first cell that is not
// a number; otherwise it is left out with a note saying why (`reason`).
struct text_column {
  ppl::diagnostic problem;  // "\"Bob\" in column \"name\" (row 2) is not a number", at the cell
  std::string reason;        // "is text"
  bool matrix = false;       // X of columns X.1 ... X.P, one of which is text: no column of its own
};

class data_table {
 public:
  // Adds or replaces (later sources override earlier ones, --set last).
  void set(std::string name, data_value v) {
    text_.erase(name);
    values_[std::move(name)] = std::move(v);
  }
  void set_text(std::string name, text_column c) {
    values_.erase(name);
    text_[std::move(name)] = std::move(c);
  }
  // The column of text of that name, if the value is one (find() then gives nothing).
  const text_column* text(std::string_view name) const {
    auto it = text_.find(name);
    return it == text_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, text_column, std::less<>>& text_columns() const { return text_; }
  const data_value* find(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  data_value* find(std::string_view name) {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, data_value, std::less<>>& values() const { return values_; }
  void merge(const data_table& other) {
    for (const auto& [k, v] : other.values_) set(k, v);
    for (const auto& [k, c] : other.text_) set_text(k, c);
  }

 private:
  std::map<std::string, data_value, std::less<>> values_;
  std::map<std::string, text_column, std::less<>> text_;
};

// CSV with a header row (RFC 4180: a cell or name may be quoted, with "" for a quote
// inside); each column of numbers is a 1-D array named by its header, and any other column
// a text_column. Columns named X.1 ... X.P (consecutive, same prefix) also form the matrix
// X with P columns. A `.gz` file is decompressed on the fly. Errors throw
// ppl::source_error naming file, line and column; binary content (a NUL byte, an image,
// a compressed file without its .gz name) is refused in one line.
// The file is read a block of `block_bytes` at a time (whole lines, a quoted cell never
// split), so memory holds the values (8 bytes a number) and one block, not the text; the
// default suits any file, a smaller block is for tests.
data_table read_csv(const std::string& path, std::size_t block_bytes = std::size_t{16} << 20);

// Called by the CSV and JSON readers after each block of a file (bytes read, the file's
// size as far as it is known, 0 if not): a status line on a terminal (cli/progress.hpp).
// One for the process; null (the default) for none.
using read_progress = std::function<void(std::size_t done, std::size_t total)>;
void set_read_progress(read_progress progress);
void report_read(std::size_t done, std::size_t total);

// JSON in Stan's data format: an object of numbers and row-major nested arrays. Read as a
// stream of events (stream_json), each value's numbers straight into its array, with no
// document of the file: memory is the values. Where the stream stops (bad syntax, a
// ragged array, a duplicate name), the file is read again as a document (parse_json), for
// the message at its place.
data_table read_json(const std::string& path);
// The stream alone: nothing where it stops.
std::optional<data_table> stream_json(const std::string& path);

// R's dump format, as JAGS and OpenBUGS users keep data and initial values: `name <-
// value` statements as R's dump() and rjags write them, or OpenBUGS's one bare
// `list(name = value, ...)`. Values are numbers (an L suffix, TRUE and FALSE as 1 and 0),
// NA (missing: NaN), c(...), a:b, integer(0), and structure(data, .Dim = dims) for
// arrays of one to four dimensions, which R fills column by column and BUGS (.Dim in the
// bare list) row by row; both become ppl's row-major tensors. Anything that needs R to
// run (seq(...), rep(...), a name) is an error at its place. A name's dots, which ppl's
// names cannot hold, are read as underscores (alpha.c is alpha_c).
data_table read_r_dump(const std::string& path);

// The same from text already in memory (the fuzzers' entry points); `src.name` names it in
// messages.
data_table parse_csv(const ppl::source_file& src);
data_table parse_json(const ppl::source_file& src);
data_table parse_r_dump(const ppl::source_file& src);

// NumPy's files (data/numpy.cpp): an .npy file is one array, named by the file's stem
// (rating.npy is `rating`); an .npz file, as numpy.savez or savez_compressed write it, one
// variable a member (name.npy). Numbers of any dtype but complex and strings; integer and
// bool dtypes are integers; NaN is missing; fortran_order arrays are turned row-major.
// Values are read a block at a time into their arrays (8 bytes a number). Errors name the
// file and the member, and say what is wrong (a truncated file, a damaged member, its CRC).
data_table read_npy(const std::string& path);
data_table read_npz(const std::string& path);
// Writes every value of `table` as an .npz archive (stored, ZIP64 past 4 GiB) that
// numpy.load and read_npz read: integers as int32 where they fit, else int64; reals and
// arrays with missing values as float64. Text columns are not written.
void write_npz(const data_table& table, std::ostream& out);

// Chooses by extension: .json is JSON, .R and .r (plain or .gz) R's dump format, .csv CSV,
// .npy and .npz NumPy's;
// any other file is R if it starts as R does (`list(` or `name <-`, after comments), as
// OpenBUGS's .txt files do, and CSV otherwise.
data_table read_data_file(const std::string& path);

// One `--set name=value`: value is a number or a JSON array. Throws
// std::invalid_argument with a message saying what was wrong.
void apply_set(data_table& table, std::string_view assignment);

}  // namespace ppl::data
