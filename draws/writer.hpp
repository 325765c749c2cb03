#pragma once
// Streams draws to a file as they are made (DESIGN.md, requirement 7), in one of the
// layouts of draws/draws.hpp. Rows are buffered and written every 200 rows or every
// second, whichever comes first, and at the end. A write that fails (a full disk, a file
// size limit, a path that takes no data such as /proc/version) is an error: the file is
// cut back to its last complete row, so everything before it stays readable, the writer
// refuses further rows (failed() tells the other chains to stop), and write_error names
// the file and the reason.
//
// In an MPI job (cli/cluster_mpi.cpp) the processes that do not write give their chains
// a writer derived from this one that sends each call on to the process that does.
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "draws/draws.hpp"

namespace ppl::draws {

class write_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class draws_writer {
 public:
  // Opens the file(s) for `path` ("-": standard output) and writes each file's comment
  // lines (`comments[f]`, written as `# line`; one list serves every file if there is one)
  // and the header. `columns` are ppl's names, in the order write() gives values; the Stan
  // layout writes them under Stan's names and order. `append`: add rows to files written
  // before (a resumed run), with no comments or header.
  draws_writer(const std::string& path, draws_format format, int chains, const std::vector<std::vector<std::string>>& comments,
               const std::vector<std::string>& columns, bool append = false);
  virtual ~draws_writer();
  draws_writer(const draws_writer&) = delete;
  draws_writer& operator=(const draws_writer&) = delete;

  // One row of a chain (1-based); thread-safe. Throws write_error.
  virtual void write(int chain, long iteration, const double* values);
  // A comment `# text` about a chain: among the rows in ppl's layout; in Stan's, which
  // has none among its rows, kept for the end of the chain's file.
  virtual void note(int chain, const std::string& text);
  // Stan's layout: the adaptation block ("# Adaptation terminated", then `lines`) before
  // the chain's first row. Nothing in the others.
  virtual void adaptation(int chain, const std::vector<std::string>& lines);
  // The chain is done: in Stan's layout its elapsed times and the notes kept for the end.
  virtual void finish(int chain, double warmup_seconds, double sampling_seconds);
  // Writes what is buffered. Throws write_error.
  virtual void flush();
  // Flushes and closes every file. Throws write_error.
  void close();
  virtual bool failed() const;
  // Rows known to be in the files (all of them whole).
  long rows_written() const;
  // The file names written (one, or one per chain).
  const std::vector<std::string>& paths() const { return paths_; }

 protected:
  // A writer with no file, for one that sends its rows elsewhere.
  draws_writer() = default;

 private:
  struct file {
    file() = default;
    file(const file&) = delete;
    ~file();  // closes fd unless it is standard output or already closed
    int fd = -1;
    std::string pending;  // buffered text not yet written
    long long written = 0;  // bytes known to be in the file, all of them whole rows
    long pending_rows = 0, rows = 0;
    std::vector<std::string> notes_at_end;
  };
  file& file_of(int chain);
  void flush_locked();
  void write_all(std::size_t f);

  draws_format format_ = draws_format::ppl;
  std::vector<std::size_t> order_;  // file column k holds value order_[k]
  std::vector<file> files_;
  std::vector<std::string> paths_;
  mutable std::mutex mutex_;
  bool failed_ = false;
  std::string error_;
  long rows_since_flush_ = 0;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
};

}  // namespace ppl::draws
