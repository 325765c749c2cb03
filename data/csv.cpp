// CSV data (RFC 4180): a header row, then one row of cells per line. The whole file is
// parsed in place from one buffer with std::from_chars, without a string per cell, so the
// 2.2 million LDA tokens read in a fraction of a second. A column that is not all numbers
// (names, dates, notes) is kept as a text_column: an error only if the model reads it.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include "core/source_error.hpp"
#include "data/data.hpp"
#include "data/text.hpp"

namespace ppl::data {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool ends_cell(const char* p, const char* stop) { return p == stop || *p == ',' || *p == '\n'; }

const char* skip_blanks(const char* p, const char* stop) {
  while (p < stop && is_blank(*p)) ++p;
  return p;
}

// A cell as written: its content without quotes or surrounding blanks, doubled quotes
// undone (then a copy in the scratch string).
struct cell {
  std::string_view text;
  const char* start;  // its first byte after blanks (an opening quote): where messages point
  const char* end;    // the ',' or line feed after it, or the end of the file
};

// quoted -> '"' (any byte but '"' | '""')* '"' ; may span lines.
cell scan_quoted(const ppl::source_file& src, const char* open, std::string& scratch) {
  const char* stop = src.text.data() + src.text.size();
  const char* run = open + 1;  // the bytes not yet copied
  bool copied = false;
  scratch.clear();
  const char* q = std::find(run, stop, '"');
  for (; q + 1 < stop && q[1] == '"'; q = std::find(run, stop, '"')) {
    scratch.append(run, q + 1);
    run = q + 2;
    copied = true;
  }
  if (q == stop)
    ppl::fail_at(src, static_cast<std::size_t>(open - src.text.data()),
                  "this quote is never closed (a quote inside a quoted cell is written twice: \"\")");
  std::string_view text(run, static_cast<std::size_t>(q - run));
  if (copied) text = scratch.append(run, q);
  const char* after = skip_blanks(q + 1, stop);
  if (!ends_cell(after, stop))
    ppl::fail_at(src, static_cast<std::size_t>(after - src.text.data()),
                  "text after the closing quote of a cell (a quote inside a quoted cell is written twice: \"\")");
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return {text, open, after};
}

// cell -> blanks (quoted | bare) blanks
cell scan_cell(const ppl::source_file& src, const char* p, std::string& scratch) {
  const char* stop = src.text.data() + src.text.size();
  const char* b = p;
  while (b < stop && (*b == ' ' || *b == '\t')) ++b;  // not '\r': an empty last cell points at the line end
  if (b < stop && *b == '"') return scan_quoted(src, b, scratch);
  const char* end = b;
  while (!ends_cell(end, stop)) ++end;
  const char* e = end;
  while (e > b && is_blank(e[-1])) --e;
  return {std::string_view(b, static_cast<std::size_t>(e - b)), b, end};
}

// The columns as they are read: one vector per header name.
struct csv_columns {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> named;  // the same names, to find one without a scan
  std::vector<std::vector<double>> values;
  std::vector<char> integer;                   // every cell so far was written as an integer
  std::vector<std::optional<text_column>> text;  // set at a column's first cell that is not a number
  std::vector<std::optional<ppl::diagnostic>> missing;  // at a column's first NA or empty cell
  std::optional<ppl::line_index> lines;       // made at the first such cell of a block, for the rest
  std::optional<ppl::diagnostic> row_names;    // at an empty first name in the header
  // A file read a block at a time (read_csv): the line breaks before the block, added to
  // the line of every message about it, and the rows read so far.
  std::size_t line_base = 0;
  std::size_t rows = 0;
};

// A message at an offset of the block, at its line in the file.
ppl::diagnostic diagnostic_at(const ppl::source_file& src, csv_columns& cols, std::size_t offset, std::string message) {
  if (!cols.lines) cols.lines.emplace(src.text);
  ppl::diagnostic d = ppl::make_diagnostic(src, *cols.lines, offset, std::move(message));
  if (d.where.line) d.where.line += cols.line_base;
  return d;
}

// The name the row-name column (an empty first header) is kept under: no model can name it.
constexpr std::string_view row_names_column = "(row names)";

// header -> name (',' name)* ; returns the offset where the data rows start.
std::size_t read_header(const ppl::source_file& src, csv_columns& cols) {
  const std::string& text = src.text;
  const char* stop = text.data() + text.size();
  // Spreadsheets save "UTF-8 with BOM"; the mark is not part of the first name.
  const char* p = text.data() + (text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);
  const char* line_end = std::find(p, stop, '\n');
  if (skip_blanks(p, line_end) == line_end)
    ppl::fail_at(src, static_cast<std::size_t>(p - text.data()), "the header row is empty");
  std::string scratch;
  for (;; ++p) {
    cell c = scan_cell(src, p, scratch);
    std::string name(c.text);
    const auto at = static_cast<std::size_t>(c.start - text.data());
    // R's write.csv and pandas' to_csv write the row names (or index) first, under an empty
    // name: that column is read, and left out with a note.
    if (name.empty() && cols.names.empty() && c.end < stop && *c.end == ',') {
      cols.row_names = ppl::make_diagnostic(src, at, "the row names have no column name");
      name = row_names_column;
    }
    if (name.empty()) ppl::fail_at(src, at, "empty column name in the header");
    if (!cols.named.insert(name).second) ppl::fail_at(src, at, "duplicate column name \"" + ppl::printable(name) + "\"");
    cols.names.push_back(std::move(name));
    p = c.end;
    if (p == stop || *p == '\n') break;
  }
  cols.values.resize(cols.names.size());
  cols.integer.assign(cols.names.size(), 1);
  cols.text.resize(cols.names.size());
  cols.missing.resize(cols.names.size());
  return static_cast<std::size_t>(p - text.data()) + 1;
}

std::string cell_place(const csv_columns& cols, std::size_t c, std::size_t row) {
  return "column \"" + ppl::printable(cols.names[c]) + "\" (row " + std::to_string(row) + ")";
}

// Column c holds text from this cell on: its numbers so far are dropped, and the rest of it
// is not read as numbers.
void mark_text(const ppl::source_file& src, csv_columns& cols, std::size_t c, const char* at, std::string message,
               std::string reason) {
  const auto offset = static_cast<std::size_t>(at - src.text.data());
  cols.text[c] = text_column{diagnostic_at(src, cols, offset, std::move(message)), std::move(reason)};
  std::vector<double>().swap(cols.values[c]);
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

// Why a cell is not data: " is not a number", or not a finite one (inf); where it is
// another program's spelling of a missing value, which ones ppl reads as missing.
std::string not_a_number(std::string_view t, bool parsed) {
  static constexpr std::string_view missing[] = {"N/A", "n/a", "#N/A", "na", "Na", "null", "NULL", "None", "none", ".", "-", "?", "missing"};
  std::string why = parsed ? " is not a finite number" : " is not a number";
  if (std::find(std::begin(missing), std::end(missing), t) != std::end(missing))
    why += " (ppl reads NA, NaN and an empty cell as a missing value)";
  return why;
}

// One cell of column c; returns the position of the ',' or line break after it.
const char* read_cell(const ppl::source_file& src, csv_columns& cols, std::size_t c, const char* p, std::size_t row,
                      std::string& scratch) {
  const char* stop = src.text.data() + src.text.size();
  double x = 0;
  if (!cols.text[c]) {
    const char* b = p;
    while (b < stop && (*b == ' ' || *b == '\t')) ++b;
    if (const char* end = read_integer(b, stop, x)) {
      cols.values[c].push_back(x);
      return end;
    }
  }
  const cell cl = scan_cell(src, p, scratch);
  auto& text = cols.text[c];
  // A column out for empty cells is still read, to say whether it is text as well.
  if (text && text->reason == "is text") return cl.end;
  const std::string_view t = cl.text;
  // An empty cell, NA or NaN (R's and pandas' spellings; nan as NumPy writes it) is a
  // missing value, as R's read.csv reads them: NaN, which the graph imputes where a `~`
  // observes it and refuses anywhere else.
  if (t.empty() || t == "NA" || t == "NaN" || t == "nan" || t == "NAN") {
    if (text) return cl.end;
    cols.values[c].push_back(std::nan(""));
    if (!cols.missing[c])
      cols.missing[c] = diagnostic_at(src, cols, static_cast<std::size_t>(cl.start - src.text.data()),
                                      std::string(t.empty() ? "empty cell" : t) + " in " + cell_place(cols, c, row));
    return cl.end;
  }
  auto r = std::from_chars(t.data(), t.data() + t.size(), x);
  // from_chars also accepts "inf"; data must be finite.
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(x)) {
    if (text) text->reason = "is text";
    else mark_text(src, cols, c, cl.start,
                   "\"" + ppl::printable(t) + "\" in " + cell_place(cols, c, row) +
                       not_a_number(t, r.ec == std::errc() && r.ptr == t.data() + t.size()),
                   "is text");
    return cl.end;
  }
  if (text) return cl.end;
  if (t.find_first_of(".eE") != std::string_view::npos) cols.integer[c] = 0;
  cols.values[c].push_back(x);
  return cl.end;
}

// row -> cell (',' cell)* ; exactly one cell per column. Returns the line break after it.
const char* read_row(const ppl::source_file& src, csv_columns& cols, const char* p, std::size_t row, std::string& scratch) {
  const std::size_t n = cols.names.size();
  for (std::size_t c = 0; c < n; ++c) {
    p = read_cell(src, cols, c, p, row, scratch);
    const bool comma = p < src.text.data() + src.text.size() && *p == ',';
    auto at = static_cast<std::size_t>(p - src.text.data());
    if (!comma && c + 1 < n)
      ppl::fail_at(src, at - (p[-1] == '\r'), "row " + std::to_string(row) + " has " + std::to_string(c + 1) +
                                                 " cells but the header has " + std::to_string(n));
    if (comma && c + 1 == n)
      ppl::fail_at(src, at, "row " + std::to_string(row) + " has more cells than the header's " + std::to_string(n));
    p += comma;
  }
  return p;
}

// Blank lines (a trailing newline, an empty last line) are skipped; rows are counted
// without them, as a spreadsheet user would count.
void read_rows(const ppl::source_file& src, csv_columns& cols, std::size_t from) {
  const char* p = src.text.data() + std::min(from, src.text.size());
  const char* stop = src.text.data() + src.text.size();
  std::string scratch;
  while (p < stop) {
    const char* q = skip_blanks(p, stop);
    p = q == stop || *q == '\n' ? q : read_row(src, cols, p, ++cols.rows, scratch);
    if (p < stop) ++p;
  }
}

// Room for about `rows` rows in every column, so that millions of doubles are not regrown
// (and held twice while they are).
void reserve_rows(csv_columns& cols, std::size_t rows) {
  for (std::size_t c = 0; c < cols.values.size(); ++c)
    if (!cols.text[c] && cols.values[c].capacity() < rows) cols.values[c].reserve(rows);
}

// One block of the file: whole lines, the header's first when `first`. Its messages carry
// their lines in the file.
void read_block(const ppl::source_file& src, csv_columns& cols, bool first) {
  cols.lines.reset();
  try {
    refuse_binary(src, "CSV");
    std::size_t from = 0;
    if (first) {
      from = read_header(src, cols);
      // A row of n cells takes at least 2n bytes (a digit and a separator each), which
      // bounds the rows however many blank lines there are: a wide header over a megabyte
      // of line feeds must not reserve gigabytes.
      const char* p = src.text.data() + std::min(from, src.text.size());
      const char* stop = src.text.data() + src.text.size();
      const auto lines = static_cast<std::size_t>(std::count(p, stop, '\n')) + 1;
      reserve_rows(cols, std::min(lines, static_cast<std::size_t>(stop - p) / (2 * cols.names.size()) + 1));
    }
    read_rows(src, cols, from);
  } catch (const ppl::source_error& e) {
    if (cols.line_base == 0 || e.diag().where.line == 0) throw;
    ppl::diagnostic d = e.diag();
    d.where.line += cols.line_base;
    throw ppl::source_error(std::move(d));
  }
}

// Where a block may end: just after its last line break outside a quoted cell (one with an
// even number of quotes before it in the block, a doubled quote counting two); 0 if none.
std::size_t block_end(std::string_view text) {
  std::size_t quotes = static_cast<std::size_t>(std::count(text.begin(), text.end(), '"'));
  for (std::size_t end = text.size(); end > 0;) {
    const std::size_t nl = text.rfind('\n', end - 1);
    if (nl == std::string_view::npos) return 0;
    quotes -= static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(nl), text.begin() + static_cast<std::ptrdiff_t>(end), '"'));
    if (quotes % 2 == 0) return nl + 1;
    end = nl;
  }
  return 0;
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
// N x P matrix PREFIX, row-major; text if one of them is.
void add_matrix(data_table& table, const std::string& prefix, numbered members, const csv_columns& cols,
                const std::string& path) {
  std::sort(members.begin(), members.end());
  for (std::size_t i = 0; i < members.size(); ++i)
    if (members[i].first != static_cast<int>(i + 1)) return;
  if (cols.named.count(prefix)) return;
  for (const auto& [k, c] : members)
    if (cols.text[c]) {
      text_column t = *cols.text[c];
      t.matrix = true;
      return table.set_text(prefix, std::move(t));
    }
  const std::size_t rows = cols.values[members[0].second].size(), p = members.size();
  data_value v{tensor(shape::matrix(static_cast<index_t>(rows), static_cast<index_t>(p))), true,
               path + ", columns " + prefix + ".1.." + prefix + "." + std::to_string(p), std::nullopt};
  for (std::size_t j = 0; j < p; ++j) {
    const std::size_t c = members[j].second;
    v.integer = v.integer && cols.integer[c];
    if (!v.first_missing) v.first_missing = cols.missing[c];
    for (std::size_t i = 0; i < rows; ++i) v.value.data[i * p + j] = cols.values[c][i];
  }
  table.set(prefix, std::move(v));
}

// The name a model reads column c by: R's dotted names (log.dose) as the R-dump reader and
// the BUGS front end spell them, log_dose, unless a column already has that name; the
// members of a matrix (X.1, X.2) keep theirs.
std::string model_name(const csv_columns& cols, const std::map<std::string, numbered>& matrices, std::size_t c) {
  std::string name = cols.names[c];
  const auto dot = name.rfind('.');
  if (dot == std::string::npos) return name;
  if (const auto m = matrices.find(name.substr(0, dot)); m != matrices.end())
    for (const auto& [k, member] : m->second)
      if (member == c) return name;
  std::replace(name.begin(), name.end(), '.', '_');
  return cols.named.count(name) ? cols.names[c] : name;
}

// The table of the columns read.
data_table make_table(csv_columns& cols, const std::string& path) {
  data_table table;
  const std::map<std::string, numbered> matrices = numbered_columns(cols.names);
  for (const auto& [prefix, members] : matrices) add_matrix(table, prefix, members, cols, path);
  for (std::size_t c = 0; c < cols.names.size(); ++c) {
    if (c == 0 && cols.row_names) {
      table.set_text(cols.names[c], text_column{*cols.row_names,
                                                "holds row names (its name is empty, as R's write.csv and pandas' to_csv write them)"});
      continue;
    }
    if (cols.text[c]) {
      table.set_text(cols.names[c], std::move(*cols.text[c]));
      continue;
    }
    data_value v;
    v.value.shape = shape::vector(static_cast<index_t>(cols.values[c].size()));
    v.value.data = std::move(cols.values[c]);
    v.integer = cols.integer[c] != 0;
    v.origin = path + ", column " + cols.names[c];
    v.first_missing = std::move(cols.missing[c]);
    table.set(model_name(cols, matrices, c), std::move(v));
  }
  return table;
}

}  // namespace

data_table parse_csv(const ppl::source_file& src) {
  csv_columns cols;
  read_block(src, cols, true);
  return make_table(cols, src.name);
}

// A block at a time: the values are kept and each block's text is dropped once read. The
// columns are sized once from the first block's rows per byte and the file's size.
data_table read_csv(const std::string& path, std::size_t block_bytes) {
  text_blocks in(path);
  csv_columns cols;
  ppl::source_file block{path, {}};
  std::string rest;
  std::size_t read_bytes = 0;
  for (bool first = true, more = true; more;) {
    block.text.swap(rest);
    rest.clear();
    more = in.read(block.text, block_bytes) > 0;
    const std::size_t end = more ? block_end(block.text) : block.text.size();
    if (more && end == 0) {  // no whole line yet (a line or quoted cell longer than a block)
      rest.swap(block.text);
      continue;
    }
    rest.assign(block.text, end, std::string::npos);
    block.text.resize(end);
    read_block(block, cols, first);
    read_bytes += end;
    if (first && in.size_hint() > read_bytes && read_bytes > 0)
      reserve_rows(cols, static_cast<std::size_t>(static_cast<double>(cols.rows) * static_cast<double>(in.size_hint()) /
                                                   static_cast<double>(read_bytes) * 1.02) + 64);
    first = false;
    cols.line_base += static_cast<std::size_t>(std::count(block.text.begin(), block.text.end(), '\n'));
  }
  return make_table(cols, path);
}

}  // namespace ppl::data
