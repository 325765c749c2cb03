#include "draws/coda_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace ppl::draws {

namespace {

// One file of the set, written to PATH.tmp through a buffer; renamed to PATH by commit().
class coda_file {
 public:
  explicit coda_file(std::string path) : path_(std::move(path)), temporary_(path_ + ".tmp") {
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) fail(errno);
  }
  ~coda_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temporary_.c_str());
  }
  coda_file(const coda_file&) = delete;
  coda_file& operator=(const coda_file&) = delete;

  std::string& buffer() { return buffer_; }
  void flush_if_full() {
    if (buffer_.size() >= (std::size_t{1} << 20)) flush();
  }
  void flush() {
    for (std::size_t done = 0; done < buffer_.size();) {
      const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
      if (n > 0) done += static_cast<std::size_t>(n);
      else if (n < 0 && errno == EINTR) continue;
      else fail(n < 0 ? errno : ENOSPC);
    }
    buffer_.clear();
  }
  // Everything written and closed (a close can report a failed write too).
  void finish() {
    flush();
    const int status = ::close(fd_);
    fd_ = -1;
    if (status != 0) fail(errno);
  }
  void commit() {
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) fail(errno);
    committed_ = true;
  }

 private:
  [[noreturn]] void fail(int error) const {
    throw write_error("cannot write the CODA file " + path_ + ": " + std::strerror(error));
  }

  std::string path_, temporary_, buffer_;
  int fd_ = -1;
  bool committed_ = false;
};

// A value as JAGS writes it: R's spellings for the values that are not finite, which
// every R reader takes; otherwise the shortest text that reads back as the same double.
void append_value(std::string& out, double x) {
  if (std::isnan(x)) out += "NaN";
  else if (std::isinf(x)) out += x > 0 ? "Inf" : "-Inf";
  else {
    char cell[32];
    out.append(cell, std::to_chars(cell, cell + sizeof cell, x).ptr);
  }
}

void append_integer(std::string& out, long long n) {
  char cell[24];
  out.append(cell, std::to_chars(cell, cell + sizeof cell, n).ptr);
}

// `name first last`: the lines of a column's draws in each chain file, after `line` before it.
void append_index_line(std::string& out, const std::string& name, long long line, std::size_t rows) {
  out += name;
  out += ' ';
  append_integer(out, line + 1);
  out += ' ';
  append_integer(out, line + static_cast<long long>(rows));
  out += '\n';
}

// `iteration  value` for each draw of a column in one chain.
void append_draws(std::string& out, const std::vector<double>& draws, coda_iterations at) {
  for (std::size_t r = 0; r < draws.size(); ++r) {
    append_integer(out, at.warmup + static_cast<long long>(r + 1) * at.thin);
    out += "  ";
    append_value(out, draws[r]);
    out += '\n';
  }
}

// A column's name in the index: its variable as `spelled` gives it, the indices kept.
std::string index_name(const std::string& column, const std::map<std::string, std::string>& spelled) {
  if (spelled.empty()) return column;
  const std::string variable = column_variable(column);
  const auto it = spelled.find(variable);
  return it == spelled.end() ? column : it->second + column.substr(variable.size());
}

bool write_files(const draws_source& source, const std::string& stem, coda_iterations at, const std::function<bool()>& stop,
                 std::size_t budget, const std::map<std::string, std::string>& spelled) {
  const std::size_t chains = source.chains();
  const std::size_t rows = chains ? source.rows(0) : 0;
  for (std::size_t c = 1; c < chains; ++c)
    if (source.rows(c) != rows)
      throw std::invalid_argument("the chains have different numbers of draws (" + std::to_string(rows) + " and " +
                                  std::to_string(source.rows(c)) + "), which one CODA index cannot describe");
  const std::vector<std::string> paths = coda_paths(stem, static_cast<int>(chains));
  std::vector<std::unique_ptr<coda_file>> files;
  for (const auto& p : paths) files.push_back(std::make_unique<coda_file>(p));
  coda_file& index = *files.front();
  // Columns in JAGS's order, each array's elements column-major, taken in runs whose span
  // of the table's (row-major) columns holds at most `budget` values: a scalar or a
  // small array joins the run before it, a large matrix is read in slices.
  const std::vector<std::string>& columns = source.columns();
  const std::vector<std::size_t> order = element_order(columns, true);
  const std::size_t per_column = std::max<std::size_t>(1, rows * chains);
  std::vector<draws_source::column_draws> values;
  long long line = 0;
  for (std::size_t p = 0; p < order.size();) {
    if (stop()) return false;
    std::size_t lo = order[p], hi = order[p] + 1, q = p + 1;
    for (; q < order.size(); ++q) {
      const std::size_t a = std::min(lo, order[q]), b = std::max(hi, order[q] + 1);
      if ((b - a) * per_column > budget) break;
      lo = a, hi = b;
    }
    source.read(lo, hi, 1, values);
    for (; p < q; ++p) {
      const std::string& name = columns[order[p]];
      if (sampler_column(name)) continue;
      append_index_line(index.buffer(), index_name(name, spelled), line, rows);
      line += static_cast<long long>(rows);
      for (std::size_t c = 0; c < chains; ++c) {
        coda_file& out = *files[c + 1];
        append_draws(out.buffer(), values[order[p] - lo][c], at);
        out.flush_if_full();
      }
    }
  }
  for (auto& f : files) f->finish();
  // The index last: a set whose index is in place is whole.
  for (std::size_t f = 1; f <= files.size(); ++f) files[f % files.size()]->commit();
  return true;
}

}  // namespace

bool write_coda(const draws_source& source, const std::string& stem, coda_iterations at, const std::function<bool()>& stop,
                std::size_t budget, const std::map<std::string, std::string>& spelled) {
  try {
    return write_files(source, stem, at, stop, budget, spelled);
  } catch (const write_error&) {
    remove_coda(stem);  // chain files renamed before a failure, without their index
    throw;
  }
}

}  // namespace ppl::draws
