#pragma once
// Reading draws files back in bounded memory, whatever wrote them: `ppl infer` (ppl's
// layout, Stan's one file per chain, or JAGS's CODA files), `ppl simulate`, CmdStan or JAGS. One pass reads
// the comments, the header and every row, checking each cell, and keeps the values when
// they fit in `budget` doubles; a larger file is read again for each batch of columns a
// caller asks for, so memory never grows with the number of draws.
#include <cstddef>
#include <string>
#include <vector>

#include "draws/draws.hpp"
#include "draws/reader_coda.hpp"

namespace ppl::draws {

// Values held at once: the whole table when it fits, else one batch of columns.
constexpr std::size_t draws_budget = std::size_t{1} << 22;  // 32 MB of doubles

class draws_source {
 public:
  // One path, or several: each Stan or plain file is one chain, a ppl file holds its own
  // chains (numbered after those of the files before it). A path that is not a file but
  // whose Stan files are (PATH_1.csv, PATH_2.csv, ... for PATH.csv) stands for them. A
  // CODA index (STEMindex.txt, or its STEM) stands for its chain files, one chain each.
  // Throws ppl::source_error on a malformed file, std::invalid_argument when files
  // disagree.
  explicit draws_source(const std::vector<std::string>& paths, std::size_t budget = draws_budget);
  // Draws already in memory (the REPL's expressions over draws), read the same way.
  explicit draws_source(table in_memory, std::vector<std::string> metadata = {});

  // ppl's names, every array's elements in row-major order whatever the file's order.
  const std::vector<std::string>& columns() const { return columns_; }
  // The comment lines (without "# "): all of a ppl file's, the first file's of a Stan run.
  const std::vector<std::string>& metadata() const { return metadata_; }
  // Lines about the reading itself: an incomplete last row left out.
  const std::vector<std::string>& notes() const { return notes_; }
  std::size_t chains() const { return rows_.size(); }
  std::size_t rows(std::size_t chain) const { return rows_[chain]; }
  // Whether the values are in memory: reading columns then costs no pass over the files.
  bool held() const { return held_; }

  // Columns first .. last-1, every `stride`-th row of each chain from its first:
  // out[k][c] holds column first + k of chain c.
  using column_draws = std::vector<std::vector<double>>;
  std::vector<column_draws> read(std::size_t first, std::size_t last, std::size_t stride = 1) const;
  // The same into `out`, whose vectors keep their memory from one call to the next (fresh
  // memory for every batch costs a page fault per 4 KB).
  void read(std::size_t first, std::size_t last, std::size_t stride, std::vector<column_draws>& out) const;
  // Every value in memory.
  table read_all() const;

 private:
  struct file_info {
    std::string path;
    draws_format format = draws_format::ppl;
    std::size_t first_chain = 0;      // its chain 1 is chain first_chain (0-based) of the whole
    std::vector<std::string> names;   // the value cells' columns (after chain,iteration or draw), in the file's order
    std::vector<std::size_t> cell_of;  // cell_of[k]: the value cell holding column k
    std::size_t first_row_bytes = 0;
    detail::coda_index coda;           // a CODA index: its columns' lines and chain files
    std::vector<std::size_t> column_of;  // a CODA index: column_of[cell], the inverse of cell_of
  };
  template <class Row>
  void scan(const file_info& f, std::vector<std::string>* notes, std::vector<std::string>* comments, const Row& row) const;
  void open_file(const std::string& path, bool first);
  void set_columns(file_info& f, const std::vector<std::string>& names, bool first);
  // CODA files (draws/reader_coda.cpp): the index, then every chain file read once
  // (its values kept when they fit); later, columns read again from the files.
  void open_coda(const std::string& path, bool first);
  void load_coda(const file_info& f, std::size_t budget, std::size_t& stored);
  void read_coda(const file_info& f, std::size_t first, std::size_t last, std::size_t stride, std::vector<column_draws>& out) const;
  void read_all_coda(const file_info& f, table& d) const;
  std::size_t estimated_values(const std::vector<std::string>& files) const;

  std::vector<file_info> files_;
  std::vector<std::string> columns_, metadata_, notes_;
  std::vector<std::size_t> rows_;
  // When they fit: every row, row-major over columns_, in the files' order; row r of chain
  // c starts at values_[row_at_[c][r]].
  std::vector<double> values_;
  std::vector<std::vector<std::size_t>> row_at_;
  bool held_ = false;
};

// The paths a user's draws argument stands for (see draws_source).
std::vector<std::string> expand_draws_paths(const std::vector<std::string>& paths);

}  // namespace ppl::draws
