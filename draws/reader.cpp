#include "draws/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "core/source_error.hpp"
#include "draws/reader_lines.hpp"

namespace ppl::draws {

namespace {

using detail::line_reader;
constexpr int max_chains = 256;  // as many as --chains allows

[[noreturn]] void fail_in_line(const std::string& path, std::size_t line_number, std::string_view line, std::size_t column,
                               const std::string& message) {
  throw ppl::source_error({path, {line_number, column + 1}, message, std::string(line.substr(0, 200)), ""});
}

// A cell of a row that is not a number: an error naming the cell and its column.
[[noreturn]] void bad_cell(const std::string& path, const std::vector<std::string>& names, std::size_t lead, bool ppl_layout,
                           std::size_t line_number, std::string_view line, std::ptrdiff_t at, std::ptrdiff_t length, std::size_t cell) {
  const std::size_t k = cell < lead ? 0 : cell - lead;
  const std::string column = cell == 0 && lead ? (ppl_layout ? "chain" : "draw")
                             : cell == 1 && lead == 2 ? "iteration"
                             : k < names.size() ? names[k] : "";
  const auto offset = static_cast<std::size_t>(at);
  fail_in_line(path, line_number, line, offset,
               "\"" + std::string(line.substr(offset, static_cast<std::size_t>(length))) + "\" is not a number" +
                   (column.empty() ? "" : " (column " + column + ")"));
}

// A header's names, unquoted.
std::vector<std::string> header_names(std::string_view line) {
  std::vector<std::string> names(1);
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) names.emplace_back();
    else names.back() += ch;
  }
  return names;
}

}  // namespace

std::vector<std::string> expand_draws_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec) || p == "-") {
      out.push_back(p);
      continue;
    }
    if (std::filesystem::is_regular_file(p + "index.txt", ec)) {  // a CODA stem
      out.push_back(p + "index.txt");
      continue;
    }
    const std::string stem = p.ends_with(".csv") ? p.substr(0, p.size() - 4) : p;
    std::size_t before = out.size();
    for (int c = 1; c <= max_chains; ++c) {
      const std::string chain_file = stem + "_" + std::to_string(c) + ".csv";
      if (!std::filesystem::is_regular_file(chain_file, ec)) break;
      out.push_back(chain_file);
    }
    if (out.size() == before) out.push_back(p);  // opening it says what is wrong
  }
  return out;
}

draws_source::draws_source(const std::vector<std::string>& paths, std::size_t budget) {
  std::size_t stored = 0;
  const std::vector<std::string> files = expand_draws_paths(paths);
  for (std::size_t i = 0; i < files.size(); ++i) {
    open_file(files[i], i == 0);
    const file_info& f = files_.back();
    // Values are held when the files' size, in rows as long as the first, says they fit;
    // a growing table overshoots its need by up to half again, so never try beyond.
    // Held rows go into one array, in the files' order (chains interleave), sized from the
    // estimate at the start: growing it row by row would copy it again and again.
    if (i == 0) {
      const std::size_t estimate = estimated_values(files);
      held_ = estimate <= budget;
      if (held_) values_.reserve(std::min(estimate + columns_.size(), budget));
    }
    if (f.format == draws_format::coda) {
      load_coda(f, budget, stored);
      continue;
    }
    scan(f, &notes_, i == 0 || f.format == draws_format::ppl ? &metadata_ : nullptr, [&](std::size_t chain, const std::vector<double>& row) {
      if (rows_.size() <= chain) rows_.resize(chain + 1, 0), row_at_.resize(chain + 1);
      ++rows_[chain];
      if (!held_) return;
      stored += columns_.size();
      if (stored > budget) {
        held_ = false;
        values_ = {};
        row_at_.assign(row_at_.size(), {});
        return;
      }
      row_at_[chain].push_back(values_.size());
      for (std::size_t k = 0; k < columns_.size(); ++k) values_.push_back(row[f.cell_of[k]]);
    });
    // A Stan or plain file is one chain even when it has no rows.
    if (f.format != draws_format::ppl && rows_.size() <= f.first_chain) rows_.resize(f.first_chain + 1, 0);
  }
  row_at_.resize(held_ ? rows_.size() : 0);
}

draws_source::draws_source(table in_memory, std::vector<std::string> metadata)
    : columns_(std::move(in_memory.columns)), metadata_(std::move(metadata)), held_(true) {
  const std::size_t width = columns_.size();
  for (const auto& chain : in_memory.chains) {
    rows_.push_back(width == 0 ? 0 : chain.size() / width);
    row_at_.emplace_back();
    for (std::size_t r = 0; r < rows_.back(); ++r) row_at_.back().push_back(values_.size() + r * width);
    values_.insert(values_.end(), chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(rows_.back() * width));
  }
}

// The values the files hold, judged from their sizes and the length of the first row.
std::size_t draws_source::estimated_values(const std::vector<std::string>& files) const {
  std::uintmax_t bytes = 0;
  for (const auto& path : files) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) bytes += size;
  }
  const file_info& front = files_.front();
  if (front.format == draws_format::coda) return front.coda.chains.size() * front.coda.length * columns_.size();
  const std::size_t row = std::max<std::size_t>(front.first_row_bytes, 2);
  return static_cast<std::size_t>(bytes / row) * std::max<std::size_t>(columns_.size(), 1);
}

// Reads the comments and the header of a file, and finds its layout and columns.
void draws_source::open_file(const std::string& path, bool first) {
  line_reader in(path);
  file_info f;
  f.path = path;
  f.first_chain = rows_.size();
  std::string_view line;
  bool complete = true;
  std::vector<std::string> names, comments;
  while (in.next(line, complete)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      comments.emplace_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
      continue;
    }
    if (const auto kind = detail::coda_line_kind(line); kind == detail::coda_kind::index) {
      open_coda(path, first);
      return;
    } else if (kind == detail::coda_kind::chain) {
      const std::size_t at = path.rfind("chain");
      const std::string index = at == std::string::npos ? "STEMindex.txt" : path.substr(0, at) + "index.txt";
      fail_in_line(path, in.number(), line, 0, "this is a CODA chain file (`iteration value` lines): read it through its index, " + index);
    }
    names = header_names(line);
    if (names.size() >= 2 && names[0] == "chain" && names[1] == "iteration") {
      f.format = draws_format::ppl;
      names.erase(names.begin(), names.begin() + 2);
    } else if (names.size() >= 1 && names[0] == "draw") {
      f.format = draws_format::plain;
      names.erase(names.begin());
    } else if (std::find(names.begin(), names.end(), "lp__") != names.end()) {
      f.format = draws_format::stan;
      for (auto& n : names) n = from_stan_column(n);
    } else {
      fail_in_line(path, in.number(), line, 0,
                   "expected a header starting with chain,iteration (ppl infer), draw (ppl simulate), or Stan's with lp__");
    }
    break;
  }
  if (names.empty()) fail_in_line(path, std::max<std::size_t>(in.number(), 1), "", 0, "no header row: this is not a draws file");
  if (first || f.format == draws_format::ppl) metadata_.insert(metadata_.end(), comments.begin(), comments.end());
  set_columns(f, names, first);
  while (in.next(line, complete))
    if (!line.empty() && line[0] != '#') {
      f.first_row_bytes = line.size() + 1;
      break;
    }
  files_.push_back(std::move(f));
}

// A file's columns in ppl's order (a Stan file's and a CODA file's are column-major), which
// must be the first file's.
void draws_source::set_columns(file_info& f, const std::vector<std::string>& names, bool first) {
  const std::vector<std::size_t> order = element_order(names, false);
  std::vector<std::string> columns;
  for (std::size_t k : order) columns.push_back(names[k]);
  if (first) columns_ = columns;
  else if (columns != columns_)
    throw std::invalid_argument("the draws files " + files_.front().path + " and " + f.path + " have different columns");
  f.cell_of = order;
  f.names = names;
}

// Calls row(chain, values) for each data row of a file, values in the file's order.
// With `notes`, every cell and row width is checked, and a cut-short last row noted;
// `comments` receives the comment lines after the header.
template <class Row>
void draws_source::scan(const file_info& f, std::vector<std::string>* notes, std::vector<std::string>* comments, const Row& row) const {
  const bool check = notes != nullptr;
  line_reader in(f.path);
  std::string_view line;
  bool complete = true, header = false;
  std::vector<double> values;
  const std::size_t lead = f.format == draws_format::ppl ? 2 : f.format == draws_format::plain ? 1 : 0;
  while (in.next(line, complete)) {
    if (!line.empty() && line[0] == '#' && header && comments) comments->emplace_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
    if (line.empty() || line[0] == '#') continue;
    if (!header) {
      header = true;
      continue;
    }
    if (!complete) {
      if (check) notes->push_back(f.path + ": the last row has no line end (the run was stopped while writing it); it is left out");
      break;
    }
    values.clear();
    double chain_number = 1;
    std::size_t cell = 0;
    // A cell is a number up to the next comma: parsing finds the comma, and only a cell
    // that is not a number is searched for its end.
    const char *const begin = line.data(), *const end = begin + line.size();
    for (const char *at = begin, *stop;; at = stop + 1) {
      double x = 0;
      stop = detail::parse_number(at, end, x);
      if (stop == nullptr || (stop != end && *stop != ',')) {
        stop = std::find(at, end, ',');
        x = 0;
        if (check) bad_cell(f.path, f.names, lead, f.format == draws_format::ppl, in.number(), line, at - begin, stop - at, cell);
      }
      if (cell == 0 && f.format == draws_format::ppl) chain_number = x;
      if (cell++ >= lead) values.push_back(x);
      if (stop == end) break;
    }
    if (check && values.size() != f.names.size())
      fail_in_line(f.path, in.number(), line, 0,
                   fmt::format("this row has {} values but the header has {}", cell, f.names.size() + lead));
    // A chain number is one that `ppl infer --chains` can write; anything else (0, -1,
    // 2.5, 1e12) would index a chain that cannot exist.
    if (!(chain_number >= 1 && chain_number <= static_cast<double>(max_chains) && chain_number == std::floor(chain_number)))
      fail_in_line(f.path, in.number(), line, 0,
                   fmt::format("the chain number {} is not a whole number from 1 to {}", chain_number, max_chains));
    row(f.first_chain + static_cast<std::size_t>(chain_number) - 1, values);
  }
}

std::vector<draws_source::column_draws> draws_source::read(std::size_t first, std::size_t last, std::size_t stride) const {
  std::vector<column_draws> out;
  read(first, last, stride, out);
  return out;
}

void draws_source::read(std::size_t first, std::size_t last, std::size_t stride, std::vector<column_draws>& out) const {
  last = std::min(last, columns_.size());
  stride = std::max<std::size_t>(stride, 1);
  out.resize(last > first ? last - first : 0);
  for (auto& k : out) {
    k.resize(rows_.size());
    for (std::size_t c = 0; c < rows_.size(); ++c) k[c].clear(), k[c].reserve((rows_[c] + stride - 1) / stride);
  }
  if (out.empty()) return;
  if (held_) {
    for (auto& k : out)
      for (std::size_t c = 0; c < rows_.size(); ++c) k[c].resize((rows_[c] + stride - 1) / stride);
    for (std::size_t c = 0; c < rows_.size(); ++c)
      for (std::size_t r = 0, j = 0; r < rows_[c]; r += stride, ++j) {
        const double* row = values_.data() + row_at_[c][r];
        for (std::size_t k = first; k < last; ++k) out[k - first][c][j] = row[k];
      }
    return;
  }
  std::vector<std::size_t> seen(rows_.size(), 0);
  for (const auto& f : files_)
    if (f.format == draws_format::coda) read_coda(f, first, last, stride, out);
    else scan(f, nullptr, nullptr, [&](std::size_t chain, const std::vector<double>& row) {
      if (seen[chain]++ % stride != 0) return;
      for (std::size_t k = first; k < last; ++k) out[k - first][chain].push_back(row[f.cell_of[k]]);
    });
}

table draws_source::read_all() const {
  table d;
  d.columns = columns_;
  d.chains.resize(rows_.size());
  if (held_) {
    for (std::size_t c = 0; c < rows_.size(); ++c) {
      d.chains[c].reserve(rows_[c] * columns_.size());
      for (std::size_t at : row_at_[c]) d.chains[c].insert(d.chains[c].end(), values_.begin() + static_cast<std::ptrdiff_t>(at), values_.begin() + static_cast<std::ptrdiff_t>(at + columns_.size()));
    }
    return d;
  }
  for (const auto& f : files_)
    if (f.format == draws_format::coda) read_all_coda(f, d);
    else scan(f, nullptr, nullptr, [&](std::size_t chain, const std::vector<double>& row) {
      for (std::size_t k = 0; k < columns_.size(); ++k) d.chains[chain].push_back(row[f.cell_of[k]]);
    });
  return d;
}

}  // namespace ppl::draws
