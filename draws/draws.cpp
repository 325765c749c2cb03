#include "draws/draws.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <numeric>

#include "draws/reader.hpp"

namespace ppl::draws {

std::string stan_column(std::string column) {
  std::replace(column.begin(), column.end(), '[', '.');
  std::replace(column.begin(), column.end(), ',', '.');
  std::erase(column, ']');
  return column;
}

std::string from_stan_column(std::string column) {
  const std::size_t dot = column.find('.');
  if (dot == std::string::npos) return column;
  column[dot] = '[';
  std::replace(column.begin() + static_cast<std::ptrdiff_t>(dot), column.end(), '.', ',');
  return column + "]";
}

namespace {

// The indices of "theta[2,3]": {2, 3}; empty for a scalar or a name that is not indexed.
std::vector<long> column_indices(const std::string& column) {
  std::vector<long> out;
  std::size_t at = column.find('[');
  if (at == std::string::npos) return out;
  while (++at < column.size()) {
    long i = 0;
    auto r = std::from_chars(column.data() + at, column.data() + column.size(), i);
    if (r.ec != std::errc()) return {};
    out.push_back(i);
    at = static_cast<std::size_t>(r.ptr - column.data());
    if (at >= column.size() || column[at] != ',') break;
  }
  return out;
}

}  // namespace

std::vector<std::size_t> element_order(const std::vector<std::string>& columns, bool column_major) {
  std::vector<std::size_t> order(columns.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Each run of one variable's elements is sorted by its indices, read last to first for
  // column-major order.
  for (std::size_t a = 0, b = 0; a < columns.size(); a = b) {
    const std::string variable = column_variable(columns[a]);
    for (b = a + 1; b < columns.size() && column_variable(columns[b]) == variable; ++b) {}
    std::vector<std::vector<long>> keys;
    for (std::size_t k = a; k < b; ++k) {
      keys.push_back(column_indices(columns[k]));
      if (column_major) std::reverse(keys.back().begin(), keys.back().end());
    }
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(a), order.begin() + static_cast<std::ptrdiff_t>(b),
                     [&](std::size_t x, std::size_t y) { return keys[x - a] < keys[y - a]; });
  }
  return order;
}

std::vector<std::string> draws_paths(const std::string& path, draws_format format, int chains) {
  if (format != draws_format::stan) return {path};
  std::string stem = path.size() > 4 && path.ends_with(".csv") ? path.substr(0, path.size() - 4) : path;
  std::vector<std::string> out;
  for (int c = 1; c <= chains; ++c) out.push_back(stem + "_" + std::to_string(c) + ".csv");
  return out;
}

std::string coda_draws_path(const std::string& output) {
  std::error_code ec;
  if (output.ends_with('/') || std::filesystem::is_directory(output, ec))
    return (std::filesystem::path(output) / "CODA.csv").lexically_normal().string();
  return output.ends_with(".csv") ? output : output + ".csv";
}

std::string coda_stem(const std::string& draws_path) {
  return draws_path.ends_with(".csv") ? draws_path.substr(0, draws_path.size() - 4) : draws_path;
}

std::vector<std::string> coda_paths(const std::string& stem, int chains) {
  std::vector<std::string> out = {stem + "index.txt"};
  for (int c = 1; c <= chains; ++c) out.push_back(stem + "chain" + std::to_string(c) + ".txt");
  return out;
}

void remove_coda(const std::string& stem) {
  std::error_code ec;
  std::filesystem::remove(stem + "index.txt", ec);
  for (int c = 1;; ++c)
    if (!std::filesystem::remove(stem + "chain" + std::to_string(c) + ".txt", ec)) break;
}

std::vector<std::vector<double>> table::column(std::size_t c) const {
  std::vector<std::vector<double>> out(chains.size());
  for (std::size_t k = 0; k < chains.size(); ++k)
    for (std::size_t i = c; i < chains[k].size(); i += columns.size()) out[k].push_back(chains[k][i]);
  return out;
}

table read_draws(const std::string& path, std::vector<std::string>& metadata) {
  const draws_source source({path});
  metadata.insert(metadata.end(), source.metadata().begin(), source.metadata().end());
  return source.read_all();
}

}  // namespace ppl::draws
