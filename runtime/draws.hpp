#pragma once
// Posterior draws: in memory per chain for the summary, and streamed to a CSV file as
// they are made (DESIGN.md, requirement 7). The file starts with `#` comment lines of
// metadata, then a header `chain,iteration,lp__,theta[1,2],...`; with the Stan format,
// one file per chain with Stan's column names (`theta.1.2`) and no chain column.
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/tensor.hpp"

namespace ppl::runtime {

enum class draws_format { ppl, stan };

// "theta[2,3]" (or "theta.2.3" for Stan) for element `flat` of a shape.
std::string element_column(const std::string& name, const shape& s, index_t flat, draws_format f = draws_format::ppl);
// The variable a ppl-format column belongs to: "theta" for "theta[2,3]" (and for "theta").
inline std::string column_variable(const std::string& column) { return column.substr(0, column.find('[')); }

// The files a draws_writer writes for `path`: itself, or in Stan's format one per chain,
// FILE_1.csv, FILE_2.csv, ...
std::vector<std::string> draws_paths(const std::string& path, draws_format format, int chains);

struct draws {
  std::vector<std::string> columns;          // lp__ first, then the monitored scalars
  std::vector<std::vector<double>> chains;   // per chain: iterations x columns, row-major
  index_t rows(std::size_t chain) const {
    return columns.empty() ? 0 : static_cast<index_t>(chains[chain].size() / columns.size());
  }
  // The draws of one column, per chain.
  std::vector<std::vector<double>> column(std::size_t c) const;
};

class draws_writer {
 public:
  // Opens the file(s); `metadata` lines are written as `# line`. An empty path writes
  // nothing. `append`: add rows to a file written before (a resumed run), without metadata
  // or header.
  draws_writer(const std::string& path, draws_format format, int chains, const std::vector<std::string>& metadata,
               const std::vector<std::string>& columns, bool append = false);
  ~draws_writer();
  draws_writer(const draws_writer&) = delete;
  draws_writer& operator=(const draws_writer&) = delete;

  // One row; thread-safe. Flushed every 200 rows or every second, and at the end.
  void write(int chain, long iteration, const double* values);
  // A comment line `# text` among the rows (to chain's file in Stan's format), read back
  // by read_draws as metadata.
  void note(int chain, const std::string& text);
  void flush();
  // The file names written (one, or one per chain).
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  draws_format format_;
  std::vector<std::FILE*> files_;
  std::vector<std::string> paths_;
  std::size_t width_;
  std::mutex mutex_;
  long rows_since_flush_ = 0;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
};

// Reads a draws file written by draws_writer (ppl format) back, for `ppl summary`.
// Throws lang::source_error on a malformed file.
draws read_draws(const std::string& path, std::vector<std::string>& metadata);

}  // namespace ppl::runtime
