// CSV data: a header row, then one row of numbers per line. The whole file is parsed in
// place from one buffer with std::from_chars, without a string per cell, so the 2.2
// million LDA tokens read in a fraction of a second.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <zlib.h>

#include "lang/diagnostics.hpp"
#include "runtime/data.hpp"

namespace ppl::runtime {

namespace {

[[noreturn]] void fail_file(const std::string& path, std::string message) {
  throw lang::source_error({path, {}, std::move(message), "", ""});
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A gzip file ends with its uncompressed size modulo 2^32: a hint that lets the text be
// inflated into one allocation. Capped, since a plain file passed through has no trailer.
std::size_t gzip_size_hint(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const auto size = static_cast<std::size_t>(std::max<std::streamoff>(in ? std::streamoff(in.tellg()) : 0, 0));
  unsigned char head[2] = {}, tail[4] = {};
  if (size < 18 || !in.seekg(0).read(reinterpret_cast<char*>(head), 2) || head[0] != 0x1f || head[1] != 0x8b) return 0;
  in.seekg(-4, std::ios::end).read(reinterpret_cast<char*>(tail), 4);
  std::size_t hint = tail[0] | tail[1] << 8 | tail[2] << 16 | std::size_t{tail[3]} << 24;
  return std::min(hint, size * 64);
}

// gzread passes uncompressed files through, but a damaged or truncated archive must not
// pass as a shorter data set.
std::string read_gzip(const std::string& path) {
  std::string text(gzip_size_hint(path) + 1, '\0');
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) fail_file(path, std::string("cannot open the file: ") + std::strerror(errno));
  gzbuffer(f, 1 << 18);
  std::size_t used = 0;
  int n = 0;
  do {
    if (used == text.size()) text.resize(2 * text.size());
    n = gzread(f, text.data() + used, static_cast<unsigned>(std::min<std::size_t>(text.size() - used, 1u << 30)));
    if (n > 0) used += static_cast<std::size_t>(n);
  } while (n > 0);
  // A stream cut short reads as a clean end of file with Z_BUF_ERROR set.
  int code = Z_OK;
  std::string why = gzerror(f, &code);
  if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);  // zlib prefixes the path
  gzclose(f);
  if (n < 0 || code != Z_OK)
    fail_file(path, "cannot decompress the file: " + (code == Z_BUF_ERROR ? std::string("it is truncated") : why));
  text.resize(used);
  return text;
}

std::string read_text(const std::string& path) {
  if (ends_with(path, ".gz")) return read_gzip(path);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) fail_file(path, std::string("cannot open the file: ") + std::strerror(errno));
  std::string text(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

struct span {
  const char* b;
  const char* e;
};

span trimmed(const char* b, const char* e) {
  while (b < e && is_blank(*b)) ++b;
  while (e > b && is_blank(e[-1])) --e;
  return {b, e};
}

// The columns as they are read: one vector per header name.
struct csv_columns {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> named;  // the same names, to find one without a scan
  std::vector<std::vector<double>> values;
  std::vector<char> integer;  // every cell so far was written as an integer
};

// header -> name (',' name)* ; a name may be quoted, as R and pandas write them.
// Returns the offset where the data rows start.
std::size_t read_header(const lang::source_file& src, csv_columns& cols) {
  const std::string& text = src.text;
  // Spreadsheets save "UTF-8 with BOM"; the mark is not part of the first name.
  std::size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::size_t end = std::min(text.find('\n', start), text.size());
  if (trimmed(text.data() + start, text.data() + end).b == text.data() + end) lang::fail_at(src, start, "the header row is empty");
  for (std::size_t cell = start; cell <= end;) {
    std::size_t comma = std::min(text.find(',', cell), end);
    auto [b, e] = trimmed(text.data() + cell, text.data() + comma);
    if (e - b >= 2 && *b == '"' && e[-1] == '"') ++b, --e;
    std::string name(b, e);
    if (name.empty()) lang::fail_at(src, cell, "empty column name in the header");
    if (!cols.named.insert(name).second) lang::fail_at(src, cell, "duplicate column name \"" + name + "\"");
    cols.names.push_back(std::move(name));
    cell = comma + 1;
  }
  cols.values.resize(cols.names.size());
  cols.integer.assign(cols.names.size(), 1);
  return end + 1;
}

bool ends_cell(const char* p, const char* stop) { return p == stop || *p == ',' || *p == '\n'; }

const char* skip_blanks(const char* p, const char* stop) {
  while (p < stop && is_blank(*p)) ++p;
  return p;
}

std::string cell_place(const csv_columns& cols, std::size_t c, std::size_t row) {
  return "column \"" + cols.names[c] + "\" (row " + std::to_string(row) + ")";
}

// Digits with an optional minus sign, few enough to be exact: the common case in token
// and count data, read in the same pass that finds the cell's end. Null if not that case.
const char* read_integer(const char* p, const char* stop, double& x) {
  const bool negative = p < stop && *p == '-';
  const char* digits = p + negative;
  std::int64_t v = 0;
  for (p = digits; p < stop && static_cast<unsigned char>(*p - '0') < 10; ++p) {
    if (p - digits == 15) return nullptr;  // 16 digits or more: the general reader (and no overflow here)
    v = v * 10 + (*p - '0');
  }
  if (p == digits) return nullptr;
  p = skip_blanks(p, stop);
  x = static_cast<double>(negative ? -v : v);
  return ends_cell(p, stop) ? p : nullptr;
}

// cell -> blanks number blanks ; returns the position of the ',' or line break after it.
// An error points at the cell's first byte.
const char* read_cell(const lang::source_file& src, csv_columns& cols, std::size_t c, const char* p, std::size_t row) {
  const char* stop = src.text.data() + src.text.size();
  const char* b = p;
  while (b < stop && (*b == ' ' || *b == '\t')) ++b;  // not '\r': an empty last cell points at the line end
  double x = 0;
  if (const char* end = read_integer(b, stop, x)) {
    cols.values[c].push_back(x);
    return end;
  }
  const char* end = b;
  while (!ends_cell(end, stop)) ++end;
  const char* e = end;
  while (e > b && is_blank(e[-1])) --e;
  auto offset = static_cast<std::size_t>(b - src.text.data());
  if (b == e) lang::fail_at(src, offset, "empty cell in " + cell_place(cols, c, row));
  auto r = std::from_chars(b, e, x);
  // from_chars also accepts "inf" and "nan"; data must be finite.
  if (r.ec != std::errc() || r.ptr != e || !std::isfinite(x))
    lang::fail_at(src, offset, "\"" + std::string(b, e) + "\" in " + cell_place(cols, c, row) + " is not a number");
  if (std::find_if(b, e, [](char ch) { return ch == '.' || ch == 'e' || ch == 'E'; }) != e) cols.integer[c] = 0;
  cols.values[c].push_back(x);
  return end;
}

// row -> cell (',' cell)* ; exactly one cell per column. Returns the line break after it.
const char* read_row(const lang::source_file& src, csv_columns& cols, const char* p, std::size_t row) {
  const std::size_t n = cols.names.size();
  for (std::size_t c = 0; c < n; ++c) {
    p = read_cell(src, cols, c, p, row);
    const bool comma = p < src.text.data() + src.text.size() && *p == ',';
    auto at = static_cast<std::size_t>(p - src.text.data());
    if (!comma && c + 1 < n)
      lang::fail_at(src, at - (p[-1] == '\r'), "row " + std::to_string(row) + " has " + std::to_string(c + 1) +
                                                 " cells but the header has " + std::to_string(n));
    if (comma && c + 1 == n)
      lang::fail_at(src, at, "row " + std::to_string(row) + " has more cells than the header's " + std::to_string(n));
    p += comma;
  }
  return p;
}

// Blank lines (a trailing newline, an empty last line) are skipped; rows are counted
// without them, as a spreadsheet user would count.
void read_rows(const lang::source_file& src, csv_columns& cols, std::size_t from) {
  const char* p = src.text.data() + std::min(from, src.text.size());
  const char* stop = src.text.data() + src.text.size();
  // Reserving for every line up front avoids regrowing millions of doubles. A row of n
  // cells takes at least 2n bytes (a digit and a separator each), which bounds the rows
  // however many blank lines there are: a wide header over a megabyte of line feeds must
  // not reserve gigabytes.
  const auto lines = static_cast<std::size_t>(std::count(p, stop, '\n')) + 1;
  const auto rows = std::min(lines, static_cast<std::size_t>(stop - p) / (2 * cols.names.size()) + 1);
  for (auto& column : cols.values) column.reserve(rows);
  for (std::size_t row = 0; p < stop;) {
    const char* q = skip_blanks(p, stop);
    p = q == stop || *q == '\n' ? q : read_row(src, cols, p, ++row);
    if (p < stop) ++p;
  }
}

using numbered = std::vector<std::pair<int, std::size_t>>;  // (k of PREFIX.k, column)

// Columns named PREFIX.k, grouped by prefix, for the matrices they may form.
std::map<std::string, numbered> numbered_columns(const std::vector<std::string>& names) {
  std::map<std::string, numbered> groups;
  for (std::size_t c = 0; c < names.size(); ++c) {
    auto dot = names[c].rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == names[c].size() || names[c][dot + 1] == '0') continue;
    int k = 0;
    const char* tail = names[c].data() + dot + 1;
    const char* stop = names[c].data() + names[c].size();
    auto r = std::from_chars(tail, stop, k);
    if (r.ec == std::errc() && r.ptr == stop) groups[names[c].substr(0, dot)].push_back({k, c});
  }
  return groups;
}

// PREFIX.1 ... PREFIX.P, all present and not shadowed by a column named PREFIX, form the
// N x P matrix PREFIX, row-major.
void add_matrix(data_table& table, const std::string& prefix, numbered members, const csv_columns& cols,
                const std::string& path) {
  std::sort(members.begin(), members.end());
  for (std::size_t i = 0; i < members.size(); ++i)
    if (members[i].first != static_cast<int>(i + 1)) return;
  if (cols.named.count(prefix)) return;
  const std::size_t rows = cols.values[members[0].second].size(), p = members.size();
  data_value v{tensor(shape::matrix(static_cast<index_t>(rows), static_cast<index_t>(p))), true,
               path + ", columns " + prefix + ".1.." + prefix + "." + std::to_string(p)};
  for (std::size_t j = 0; j < p; ++j) {
    const std::size_t c = members[j].second;
    v.integer = v.integer && cols.integer[c];
    for (std::size_t i = 0; i < rows; ++i) v.value.data[i * p + j] = cols.values[c][i];
  }
  table.set(prefix, std::move(v));
}

}  // namespace

data_table read_csv(const std::string& path) { return parse_csv({path, read_text(path)}); }

data_table parse_csv(const lang::source_file& src) {
  const std::string& path = src.name;
  csv_columns cols;
  read_rows(src, cols, read_header(src, cols));
  data_table table;
  for (auto& [prefix, members] : numbered_columns(cols.names)) add_matrix(table, prefix, std::move(members), cols, path);
  for (std::size_t c = 0; c < cols.names.size(); ++c) {
    data_value v;
    v.value.shape = shape::vector(static_cast<index_t>(cols.values[c].size()));
    v.value.data = std::move(cols.values[c]);
    v.integer = cols.integer[c] != 0;
    v.origin = path + ", column " + cols.names[c];
    table.set(cols.names[c], std::move(v));
  }
  return table;
}

}  // namespace ppl::runtime
