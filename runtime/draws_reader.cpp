#include "runtime/draws_reader.hpp"

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

#include "lang/diagnostics.hpp"

namespace ppl::runtime {

namespace {

constexpr int max_chains = 256;  // as many as --chains allows

// The lines of a file, read in blocks: each without its line end, with its number and
// whether it had one (a run stopped while writing may leave a last row cut short).
class line_reader {
 public:
  explicit line_reader(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb"), &std::fclose) {
    if (!file_)
      throw lang::source_error({path, {}, std::string("cannot open the draws file: ") + std::strerror(errno), "", ""});
  }
  bool next(std::string_view& line, bool& complete) {
    for (;;) {
      const std::size_t end = buffer_.find('\n', start_);
      if (end != std::string::npos || eof_) {
        if (start_ >= buffer_.size() && eof_) return false;
        const std::size_t stop = end == std::string::npos ? buffer_.size() : end;
        line = std::string_view(buffer_).substr(start_, stop - start_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        complete = end != std::string::npos;
        start_ = stop + 1;
        ++number_;
        return true;
      }
      buffer_.erase(0, start_);
      start_ = 0;
      char block[1 << 16];
      const std::size_t n = std::fread(block, 1, sizeof block, file_.get());
      if (n == 0) {
        if (std::ferror(file_.get()))
          throw lang::source_error({path_, {}, std::string("cannot read the draws file: ") + std::strerror(errno), "", ""});
        eof_ = true;
      }
      buffer_.append(block, n);
    }
  }
  std::size_t number() const { return number_; }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::string buffer_;
  std::size_t start_ = 0, number_ = 0;
  bool eof_ = false;
};

[[noreturn]] void fail_in_line(const std::string& path, std::size_t line_number, std::string_view line, std::size_t column,
                               const std::string& message) {
  throw lang::source_error({path, {line_number, column + 1}, message, std::string(line.substr(0, 200)), ""});
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

// A cell's number: decimal notation, inf, nan, with an optional sign (Stan writes +inf).
bool parse_cell(std::string_view cell, double& x) {
  if (cell.starts_with('+')) cell.remove_prefix(1);
  auto r = std::from_chars(cell.data(), cell.data() + cell.size(), x);
  return r.ec == std::errc() && r.ptr == cell.data() + cell.size() && !cell.empty();
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
    if (i == 0) held_ = estimated_values(files) <= budget;
    scan(f, &notes_, i == 0 || f.format == draws_format::ppl ? &metadata_ : nullptr, [&](std::size_t chain, const std::vector<double>& row) {
      if (rows_.size() <= chain) rows_.resize(chain + 1, 0), values_.resize(chain + 1);
      ++rows_[chain];
      if (!held_) return;
      stored += columns_.size();
      if (stored > budget) {
        held_ = false;
        values_.assign(values_.size(), {});
        return;
      }
      for (std::size_t k = 0; k < columns_.size(); ++k) values_[chain].push_back(row[f.cell_of[k]]);
    });
    // A Stan or plain file is one chain even when it has no rows.
    if (f.format != draws_format::ppl && rows_.size() <= f.first_chain) rows_.resize(f.first_chain + 1, 0);
  }
  values_.resize(held_ ? rows_.size() : 0);
}

draws_source::draws_source(draws in_memory, std::vector<std::string> metadata)
    : columns_(std::move(in_memory.columns)), metadata_(std::move(metadata)), values_(std::move(in_memory.chains)), held_(true) {
  for (const auto& chain : values_) rows_.push_back(columns_.empty() ? 0 : chain.size() / columns_.size());
}

// The values the files hold, judged from their sizes and the length of the first row.
std::size_t draws_source::estimated_values(const std::vector<std::string>& files) const {
  std::uintmax_t bytes = 0;
  for (const auto& path : files) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) bytes += size;
  }
  const std::size_t row = std::max<std::size_t>(files_.front().first_row_bytes, 2);
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
  const std::vector<std::size_t> order = element_order(names, false);  // a Stan file's are column-major
  std::vector<std::string> columns;
  for (std::size_t k : order) columns.push_back(names[k]);
  if (first) columns_ = columns;
  else if (columns != columns_)
    throw std::invalid_argument("the draws files " + files_.front().path + " and " + path + " have different columns");
  f.cell_of = order;
  f.names = names;
  while (in.next(line, complete))
    if (!line.empty() && line[0] != '#') {
      f.first_row_bytes = line.size() + 1;
      break;
    }
  files_.push_back(std::move(f));
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
    for (std::size_t at = 0, cell = 0;; ++cell) {
      const std::size_t comma = std::min(line.find(',', at), line.size());
      double x = 0;
      if (!parse_cell(line.substr(at, comma - at), x) && check) {
        const std::size_t k = cell < lead ? 0 : cell - lead;
        const std::string column = cell == 0 && lead ? (f.format == draws_format::ppl ? "chain" : "draw")
                                   : cell == 1 && lead == 2 ? "iteration"
                                   : k < f.names.size() ? f.names[k] : "";
        fail_in_line(f.path, in.number(), line, at,
                     "\"" + std::string(line.substr(at, comma - at)) + "\" is not a number" + (column.empty() ? "" : " (column " + column + ")"));
      }
      if (cell == 0 && f.format == draws_format::ppl) chain_number = x;
      if (cell >= lead) values.push_back(x);
      if (comma == line.size()) break;
      at = comma + 1;
    }
    if (check && values.size() != f.names.size())
      fail_in_line(f.path, in.number(), line, 0,
                   fmt::format("this row has {} values but the header has {}", values.size() + lead, f.names.size() + lead));
    // A chain number is one that `ppl infer --chains` can write; anything else (0, -1,
    // 2.5, 1e12) would index a chain that cannot exist.
    if (!(chain_number >= 1 && chain_number <= static_cast<double>(max_chains) && chain_number == std::floor(chain_number)))
      fail_in_line(f.path, in.number(), line, 0,
                   fmt::format("the chain number {} is not a whole number from 1 to {}", chain_number, max_chains));
    row(f.first_chain + static_cast<std::size_t>(chain_number) - 1, values);
  }
}

std::vector<draws_source::column_draws> draws_source::read(std::size_t first, std::size_t last, std::size_t stride) const {
  last = std::min(last, columns_.size());
  stride = std::max<std::size_t>(stride, 1);
  std::vector<column_draws> out(last > first ? last - first : 0, column_draws(rows_.size()));
  if (out.empty()) return out;
  for (auto& k : out)
    for (std::size_t c = 0; c < rows_.size(); ++c) k[c].reserve((rows_[c] + stride - 1) / stride);
  if (held_) {
    const std::size_t width = columns_.size();
    for (std::size_t c = 0; c < rows_.size(); ++c)
      for (std::size_t r = 0; r < rows_[c]; r += stride)
        for (std::size_t k = first; k < last; ++k) out[k - first][c].push_back(values_[c][r * width + k]);
    return out;
  }
  std::vector<std::size_t> seen(rows_.size(), 0);
  for (const auto& f : files_)
    scan(f, nullptr, nullptr, [&](std::size_t chain, const std::vector<double>& row) {
      if (seen[chain]++ % stride != 0) return;
      for (std::size_t k = first; k < last; ++k) out[k - first][chain].push_back(row[f.cell_of[k]]);
    });
  return out;
}

draws draws_source::read_all() const {
  draws d;
  d.columns = columns_;
  d.chains.resize(rows_.size());
  if (held_) {
    d.chains = values_;
    return d;
  }
  for (const auto& f : files_)
    scan(f, nullptr, nullptr, [&](std::size_t chain, const std::vector<double>& row) {
      for (std::size_t k = 0; k < columns_.size(); ++k) d.chains[chain].push_back(row[f.cell_of[k]]);
    });
  return d;
}

}  // namespace ppl::runtime
