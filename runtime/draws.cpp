#include "runtime/draws.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lang/diagnostics.hpp"

namespace ppl::runtime {

std::string element_column(const std::string& name, const shape& s, index_t flat, draws_format f) {
  if (s.rank == 0) return name;
  bool stan = f == draws_format::stan;
  std::string out = name + (stan ? "." : "[");
  for (int d = 0; d < s.rank; ++d) {
    index_t stride = s.stride(d);
    out += (d ? (stan ? "." : ",") : "") + std::to_string(flat / stride + 1);
    flat %= stride;
  }
  return out + (stan ? "" : "]");
}

std::vector<std::vector<double>> draws::column(std::size_t c) const {
  std::vector<std::vector<double>> out(chains.size());
  for (std::size_t k = 0; k < chains.size(); ++k)
    for (std::size_t i = c; i < chains[k].size(); i += columns.size()) out[k].push_back(chains[k][i]);
  return out;
}

draws_writer::draws_writer(const std::string& path, draws_format format, int chains, const std::vector<std::string>& metadata,
                           const std::vector<std::string>& columns)
    : format_(format), width_(columns.size()) {
  if (path.empty()) return;
  if (format == draws_format::ppl) {
    paths_.push_back(path);
  } else {
    std::string stem = path.size() > 4 && path.ends_with(".csv") ? path.substr(0, path.size() - 4) : path;
    for (int c = 1; c <= chains; ++c) paths_.push_back(stem + "_" + std::to_string(c) + ".csv");
  }
  for (const auto& p : paths_) {
    std::FILE* f = std::fopen(p.c_str(), "w");
    if (!f) throw std::invalid_argument("cannot write the draws file " + p);
    files_.push_back(f);
    for (const auto& line : metadata) fmt::print(f, "# {}\n", line);
    // Names with commas (theta[2,3]) are quoted, as CSV requires.
    std::string header = format == draws_format::ppl ? "chain,iteration," : "";
    for (std::size_t i = 0; i < columns.size(); ++i) {
      bool quote = columns[i].find(',') != std::string::npos;
      header += (i ? "," : "") + (quote ? "\"" + columns[i] + "\"" : columns[i]);
    }
    fmt::print(f, "{}\n", header);
  }
}

draws_writer::~draws_writer() {
  flush();
  for (auto* f : files_) std::fclose(f);
}

void draws_writer::write(int chain, long iteration, const double* values) {
  if (files_.empty()) return;
  fmt::memory_buffer row;
  if (format_ == draws_format::ppl) fmt::format_to(std::back_inserter(row), "{},{}", chain, iteration);
  for (std::size_t i = 0; i < width_; ++i)
    fmt::format_to(std::back_inserter(row), "{}{:.9g}", (i || format_ == draws_format::ppl) ? "," : "", values[i]);
  row.push_back('\n');
  std::lock_guard<std::mutex> lock(mutex_);
  std::FILE* f = files_[format_ == draws_format::ppl ? 0 : static_cast<std::size_t>(chain - 1)];
  std::fwrite(row.data(), 1, row.size(), f);
  if (++rows_since_flush_ >= 200) {
    for (auto* file : files_) std::fflush(file);
    rows_since_flush_ = 0;
  }
}

void draws_writer::note(int chain, const std::string& text) {
  if (files_.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::FILE* f = files_[format_ == draws_format::ppl ? 0 : static_cast<std::size_t>(chain - 1)];
  std::fprintf(f, "# %s\n", text.c_str());
}

void draws_writer::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto* f : files_) std::fflush(f);
}

draws read_draws(const std::string& path, std::vector<std::string>& metadata) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw lang::source_error({path, {}, "cannot open the draws file", "", ""});
  std::ostringstream os;
  os << in.rdbuf();
  lang::source_file src{path, os.str()};
  draws out;
  std::size_t pos = 0, chain_col = 0;
  bool header = false;
  while (pos < src.text.size()) {
    std::size_t end = src.text.find('\n', pos);
    if (end == std::string::npos) end = src.text.size();
    std::string_view line(src.text.data() + pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
    } else if (line[0] == '#') {
      metadata.emplace_back(line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1));
    } else if (!header) {
      std::vector<std::string> names(1);
      bool quoted = false;
      for (char ch : line) {
        if (ch == '"') quoted = !quoted;
        else if (ch == ',' && !quoted) names.emplace_back();
        else names.back() += ch;
      }
      if (names.size() < 3 || names[0] != "chain" || names[1] != "iteration")
        lang::fail_at(src, pos, "expected a header starting with chain,iteration (a draws file written by ppl infer)");
      out.columns.assign(names.begin() + 2, names.end());
      header = true;
    } else {
      std::vector<double> row;
      const char* p = line.data();
      const char* last = line.data() + line.size();
      while (p <= last) {
        double x;
        auto r = std::from_chars(p, last, x);
        if (r.ec != std::errc()) lang::fail_at(src, pos + static_cast<std::size_t>(p - line.data()), "expected a number");
        row.push_back(x);
        p = r.ptr + 1;
        if (r.ptr == last) break;
      }
      if (row.size() != out.columns.size() + 2)
        lang::fail_at(src, pos, "this row has " + std::to_string(row.size()) + " values but the header has " +
                                    std::to_string(out.columns.size() + 2));
      // Checked as a double: converting -1, 1e30 or nan to an integer is undefined.
      if (!(row[0] >= 1 && row[0] <= 65536) || row[0] != std::floor(row[0]))
        lang::fail_at(src, pos, "chain numbers are whole numbers from 1 to 65536");
      chain_col = static_cast<std::size_t>(row[0]);
      if (out.chains.size() < chain_col) out.chains.resize(chain_col);
      out.chains[chain_col - 1].insert(out.chains[chain_col - 1].end(), row.begin() + 2, row.end());
    }
    pos = end + 1;
  }
  if (!header) lang::fail_at(src, 0, "no header row: this is not a draws file");
  return out;
}

}  // namespace ppl::runtime
