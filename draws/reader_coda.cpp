#include "draws/reader_coda.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <numeric>

#include "core/source_error.hpp"
#include "draws/reader.hpp"
#include "draws/reader_lines.hpp"

namespace ppl::draws::detail {

namespace {

[[noreturn]] void fail_at(const std::string& path, std::size_t line_number, std::string_view line, const std::string& message) {
  // Line 0: about the whole file.
  throw ppl::source_error({path, {line_number, line_number ? std::size_t{1} : 0}, message, std::string(line.substr(0, 200)), ""});
}

// The fields of a line separated by spaces or tabs.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t start = line.find_first_not_of(" \t", at);
    if (start == std::string_view::npos) break;
    const std::size_t stop = std::min(line.find_first_of(" \t", start), line.size());
    out.push_back(line.substr(start, stop - start));
    at = stop;
  }
  return out;
}

bool whole_number(std::string_view s, std::size_t& n) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), n);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool number(std::string_view s, double& x) { return parse_number(s.data(), s.data() + s.size(), x) == s.data() + s.size(); }

}  // namespace

coda_kind coda_line_kind(std::string_view line) {
  const auto f = fields(line);
  std::size_t a = 0, b = 0;
  double x = 0, y = 0;
  if (f.size() == 3 && whole_number(f[1], a) && whole_number(f[2], b)) return coda_kind::index;
  if (f.size() == 2 && number(f[0], x) && number(f[1], y)) return coda_kind::chain;
  return coda_kind::none;
}

coda_index read_coda_index(const std::string& path) {
  constexpr std::string_view suffix = "index.txt";
  if (!path.ends_with(suffix))
    fail_at(path, 0, "", "a CODA index is named STEMindex.txt, which names its chain files STEMchain1.txt, ... (JAGS: CODAindex.txt)");
  coda_index out;
  line_reader in(path);
  std::string_view line;
  bool complete = true;
  while (in.next(line, complete)) {
    const auto f = fields(line);
    if (f.empty()) continue;
    std::size_t first = 0, last = 0;
    if (f.size() != 3 || !whole_number(f[1], first) || !whole_number(f[2], last) || first < 1 || last < first)
      fail_at(path, in.number(), line, "expected `name first last`, a column's name and its first and last line in each chain file");
    const std::size_t length = last - first + 1;
    if (!out.names.empty() && length != out.length)
      fail_at(path, in.number(), line,
              fmt::format("{} has {} draws but {} has {}: columns thinned differently cannot be read as one table", f[0], length,
                          out.names.front(), out.length));
    out.names.emplace_back(f[0]);
    out.first.push_back(first);
    out.length = length;
  }
  if (out.names.empty()) fail_at(path, 1, "", "this CODA index names no column");
  std::vector<std::size_t> order(out.first.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return out.first[a] < out.first[b]; });
  for (std::size_t j = 1; j < order.size(); ++j)
    if (out.first[order[j]] < out.first[order[j - 1]] + out.length)
      fail_at(path, 0, "", "the lines of " + out.names[order[j - 1]] + " and " + out.names[order[j]] + " overlap");
  const std::string stem = path.substr(0, path.size() - suffix.size());
  std::error_code ec;
  for (int c = 1; std::filesystem::is_regular_file(stem + "chain" + std::to_string(c) + ".txt", ec); ++c)
    out.chains.push_back(stem + "chain" + std::to_string(c) + ".txt");
  if (out.chains.empty()) fail_at(path, 0, "", "no chain file " + stem + "chain1.txt beside this CODA index");
  return out;
}

void scan_coda_chain(const std::string& path, const coda_index& index, const std::function<void(std::size_t, std::size_t, double)>& value) {
  // The names in the order of their lines; blank lines are not counted, as R's scan()
  // in coda::read.coda does not count them.
  std::vector<std::size_t> order(index.names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return index.first[a] < index.first[b]; });
  const std::size_t end = index.first[order.back()] + index.length;  // one past the last line named
  line_reader in(path);
  std::string_view line;
  bool complete = true;
  std::size_t record = 0, j = 0;
  while (record + 1 < end && in.next(line, complete)) {
    const auto f = fields(line);
    if (f.empty()) continue;
    ++record;
    while (record >= index.first[order[j]] + index.length) ++j;
    if (record < index.first[order[j]]) continue;
    double iteration = 0, x = 0;
    if (f.size() != 2 || !number(f[0], iteration) || !number(f[1], x))
      fail_at(path, in.number(), line, "expected `iteration value`, two numbers");
    value(order[j], record - index.first[order[j]], x);
  }
  if (record + 1 < end)
    fail_at(path, in.number(), "",
            fmt::format("this chain file ends after {} lines, but its index names lines up to {}", record, end - 1));
}

}  // namespace ppl::draws::detail

namespace ppl::draws {

void draws_source::open_coda(const std::string& path, bool first) {
  file_info f;
  f.path = path;
  f.format = draws_format::coda;
  f.first_chain = rows_.size();
  f.coda = detail::read_coda_index(path);
  set_columns(f, f.coda.names, first);
  f.column_of.resize(f.cell_of.size());
  for (std::size_t k = 0; k < f.cell_of.size(); ++k) f.column_of[f.cell_of[k]] = k;
  files_.push_back(std::move(f));
}

// Every chain file is read once here, checking each line, whether or not its values are
// kept; kept, a chain's draws are laid out row by row as those of the other layouts.
void draws_source::load_coda(const file_info& f, std::size_t budget, std::size_t& stored) {
  const std::size_t width = columns_.size(), rows = f.coda.length;
  for (std::size_t c = 0; c < f.coda.chains.size(); ++c) {
    const std::size_t chain = f.first_chain + c;
    if (rows_.size() <= chain) rows_.resize(chain + 1, 0), row_at_.resize(chain + 1);
    rows_[chain] = rows;
    stored += rows * width;
    if (held_ && stored > budget) {
      held_ = false;
      values_ = {};
      row_at_.assign(row_at_.size(), {});
    }
    const std::size_t base = values_.size();
    if (held_) {
      values_.resize(base + rows * width);
      for (std::size_t r = 0; r < rows; ++r) row_at_[chain].push_back(base + r * width);
    }
    detail::scan_coda_chain(f.coda.chains[c], f.coda, [&](std::size_t k, std::size_t i, double x) {
      if (held_) values_[base + i * width + f.column_of[k]] = x;
    });
  }
}

void draws_source::read_coda(const file_info& f, std::size_t first, std::size_t last, std::size_t stride,
                             std::vector<column_draws>& out) const {
  for (std::size_t c = 0; c < f.coda.chains.size(); ++c)
    detail::scan_coda_chain(f.coda.chains[c], f.coda, [&](std::size_t k, std::size_t i, double x) {
      const std::size_t column = f.column_of[k];
      if (column >= first && column < last && i % stride == 0) out[column - first][f.first_chain + c].push_back(x);
    });
}

void draws_source::read_all_coda(const file_info& f, table& d) const {
  const std::size_t width = columns_.size();
  for (std::size_t c = 0; c < f.coda.chains.size(); ++c) {
    std::vector<double>& chain = d.chains[f.first_chain + c];
    chain.resize(f.coda.length * width);
    detail::scan_coda_chain(f.coda.chains[c], f.coda,
                            [&](std::size_t k, std::size_t i, double x) { chain[i * width + f.column_of[k]] = x; });
  }
}

}  // namespace ppl::draws
