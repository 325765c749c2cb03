#pragma once
// Posterior draws and the names of their columns. Draws are streamed to a file as they
// are made (draws/writer.hpp, DESIGN.md requirement 7) and read back in bounded
// memory (draws/reader.hpp); `draws` holds a whole table in memory, for the
// commands that need every value at once (plot, heatmap, topics, the REPL's expressions).
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace ppl::draws {

// The layouts of a draws file:
// - ppl: `chain,iteration,lp__,theta[1,2],...`, every chain in one file;
// - stan: CmdStan's, one file per chain (FILE_1.csv, ...), `lp__,accept_stat__,...,theta.1.2`,
//   the elements of an array in column-major order;
// - plain: `draw,theta[1,2],...`, one chain (what `ppl simulate` writes);
// - coda: JAGS's CODA files, STEMindex.txt (`theta[1,2] 1001 2000`: a column's lines) and
//   STEMchain1.txt, ... (`iteration  value` lines, all of a column's before the next's).
//   Variable-major, so a run streams its rows in ppl's layout to STEM.csv and transposes
//   them at its end (draws/coda_writer.hpp); draws_source reads them back.
enum class draws_format { ppl, stan, plain, coda };

// "theta[2,3]" for element `flat` (row-major) of a shape.
inline std::string element_column(const std::string& name, const shape& s, index_t flat) { return element_name(name, s, flat, ","); }
// The variable a column belongs to: "theta" for "theta[2,3]" (and for "theta").
inline std::string column_variable(const std::string& column) { return column.substr(0, column.find('[')); }
// The sampler's own columns after lp__ (accept_stat__, ...): names ending in "__".
inline bool sampler_column(const std::string& column) { return column.size() > 2 && column.ends_with("__"); }
// Stan's name of a column and back: theta[2,3] <-> theta.2.3 (model names have no dots).
std::string stan_column(std::string column);
std::string from_stan_column(std::string column);
// An order of a table's columns that puts each variable's elements column-major (first
// index fastest, as CmdStan writes matrices) or row-major (as ppl writes them): order[k] is
// the column placed k-th; columns of different variables keep their places.
std::vector<std::size_t> element_order(const std::vector<std::string>& columns, bool column_major);
inline std::vector<std::size_t> stan_column_order(const std::vector<std::string>& columns) { return element_order(columns, true); }

// The files a run writes for `path`: itself, or in Stan's format one per chain,
// FILE_1.csv, FILE_2.csv, ...
std::vector<std::string> draws_paths(const std::string& path, draws_format format, int chains);
// A CODA run's ppl-layout draws file for its --output: DIR/ (or an existing directory)
// stands for DIR/CODA.csv, JAGS's default stem; STEM for STEM.csv; STEM.csv for itself.
std::string coda_draws_path(const std::string& output);
// The stem of a CODA run's files (its draws file without .csv), and the files JAGS names
// after it: STEMindex.txt, then STEMchain1.txt, STEMchain2.txt, ...
std::string coda_stem(const std::string& draws_path);
std::vector<std::string> coda_paths(const std::string& stem, int chains);
// Removes a stem's CODA files (the index and STEMchain1.txt, 2, ... while they exist), so
// that files of an earlier run never pass for those of one stopped before writing its own.
void remove_coda(const std::string& stem);

// The columns a Hamiltonian sampler fills for every kept iteration, after lp__, as
// CmdStan names them.
inline const std::vector<std::string>& hamiltonian_columns() {
  static const std::vector<std::string> names = {"accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__", "divergent__", "energy__"};
  return names;
}

struct table {
  std::vector<std::string> columns;          // lp__ first, then the recorded scalars
  std::vector<std::vector<double>> chains;   // per chain: iterations x columns, row-major
  index_t rows(std::size_t chain) const {
    return columns.empty() ? 0 : static_cast<index_t>(chains[chain].size() / columns.size());
  }
  // The draws of one column, per chain.
  std::vector<std::vector<double>> column(std::size_t c) const;
};

// Reads a whole draws file (any layout; `path` may name a Stan run's FILE_1.csv,
// FILE_2.csv, ... by their common FILE.csv) into memory, with its comment lines. Throws
// ppl::source_error on a malformed file.
table read_draws(const std::string& path, std::vector<std::string>& metadata);

}  // namespace ppl::draws
