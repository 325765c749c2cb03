#include "draws/writer.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <numeric>

namespace ppl::draws {

namespace {

// A header cell: names with commas (theta[2,3]) are quoted, as CSV requires.
std::string header_cell(const std::string& name) {
  return name.find(',') == std::string::npos ? name : "\"" + name + "\"";
}

std::string header_line(draws_format format, const std::vector<std::string>& columns, const std::vector<std::size_t>& order) {
  std::string out = format == draws_format::ppl ? "chain,iteration" : format == draws_format::plain ? "draw" : "";
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::string& name = columns[order[k]];
    if (!out.empty()) out += ",";
    out += format == draws_format::stan ? stan_column(name) : header_cell(name);
  }
  return out + "\n";
}

}  // namespace

draws_writer::draws_writer(const std::string& path, draws_format format, int chains, const std::vector<std::vector<std::string>>& comments,
                           const std::vector<std::string>& columns, bool append)
    : format_(format) {
  order_ = format == draws_format::stan ? stan_column_order(columns) : std::vector<std::size_t>(columns.size());
  if (format != draws_format::stan) std::iota(order_.begin(), order_.end(), std::size_t{0});
  paths_ = draws_paths(path, format, chains);
  files_ = std::vector<file>(paths_.size());
  for (std::size_t f = 0; f < paths_.size(); ++f) {
    file& out = files_[f];
    if (paths_[f] == "-") {
      out.fd = STDOUT_FILENO;
    } else {
      out.fd = ::open(paths_[f].c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0666);
      if (out.fd < 0) throw std::invalid_argument("cannot write the draws file " + paths_[f] + ": " + std::strerror(errno));
      struct stat st{};
      if (append && ::fstat(out.fd, &st) == 0) out.written = st.st_size;
    }
    if (append) continue;
    const auto& lines = comments.empty() ? std::vector<std::string>() : comments[std::min(f, comments.size() - 1)];
    for (const auto& line : lines) out.pending += "# " + line + "\n";
    out.pending += header_line(format, columns, order_);
  }
  flush();
}

draws_writer::file::~file() {
  if (fd >= 0 && fd != STDOUT_FILENO) ::close(fd);
}

draws_writer::~draws_writer() {
  try {
    close();
  } catch (const write_error&) {
    // Reported by the close() a caller makes; a destructor after an error only releases.
  }
}

draws_writer::file& draws_writer::file_of(int chain) {
  return files_[format_ == draws_format::stan ? static_cast<std::size_t>(chain - 1) : 0];
}

void draws_writer::write(int chain, long iteration, const double* values) {
  // Nine significant digits, printf's %.9g (to_chars writes exactly what fmt's {:.9g}
  // did, in half the time). A cell takes at most 20 characters ("-9223372036854775808",
  // "-1.23456789e-308") and its comma.
  fmt::memory_buffer row;
  row.resize(21 * (order_.size() + 2) + 1);
  char* out = row.data();
  char* const end = out + row.size();
  if (format_ == draws_format::ppl) out = std::to_chars(out, end, chain).ptr, *out++ = ',';
  if (format_ != draws_format::stan) out = std::to_chars(out, end, iteration).ptr, *out++ = ',';
  for (std::size_t k = 0; k < order_.size(); ++k) {
    if (k) *out++ = ',';
    out = std::to_chars(out, end, values[order_[k]], std::chars_format::general, 9).ptr;
  }
  *out++ = '\n';
  row.resize(static_cast<std::size_t>(out - row.data()));
  std::lock_guard<std::mutex> lock(mutex_);
  if (failed_) throw write_error(error_);
  file& f = file_of(chain);
  f.pending.append(row.data(), row.size());
  ++f.pending_rows;
  const auto now = std::chrono::steady_clock::now();
  if (++rows_since_flush_ >= 200 || now - last_flush_ >= std::chrono::seconds(1)) flush_locked();
}

void draws_writer::note(int chain, const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (format_ == draws_format::stan) file_of(chain).notes_at_end.push_back(text);
  else if (format_ == draws_format::ppl) file_of(chain).pending += "# " + text + "\n";
}

void draws_writer::adaptation(int chain, const std::vector<std::string>& lines) {
  if (format_ != draws_format::stan) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::string& out = file_of(chain).pending;
  out += "# Adaptation terminated\n";
  for (const auto& line : lines) out += "# " + line + "\n";
}

void draws_writer::finish(int chain, double warmup_seconds, double sampling_seconds) {
  if (format_ != draws_format::stan) return;
  std::lock_guard<std::mutex> lock(mutex_);
  file& f = file_of(chain);
  // CmdStan's layout, which readers parse for the times.
  f.pending += fmt::format("# \n#  Elapsed Time: {:.3f} seconds (Warm-up)\n#                {:.3f} seconds (Sampling)\n"
                           "#                {:.3f} seconds (Total)\n# \n",
                           warmup_seconds, sampling_seconds, warmup_seconds + sampling_seconds);
  for (const auto& text : f.notes_at_end) f.pending += "# " + text + "\n";
  f.notes_at_end.clear();
}

void draws_writer::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  flush_locked();
}

long draws_writer::rows_written() const {
  std::lock_guard<std::mutex> lock(mutex_);
  long rows = 0;
  for (const auto& f : files_) rows += f.rows;
  return rows;
}

bool draws_writer::failed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failed_;
}

void draws_writer::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failed_) flush_locked();
  for (std::size_t f = 0; f < files_.size(); ++f) {
    file& out = files_[f];
    if (out.fd < 0 || out.fd == STDOUT_FILENO) continue;
    const int status = ::close(out.fd);
    out.fd = -1;
    if (status != 0 && !failed_) {
      failed_ = true;
      error_ = "cannot write the draws file " + paths_[f] + ": " + std::strerror(errno);
    }
  }
  if (failed_) throw write_error(error_);
}

void draws_writer::flush_locked() {
  if (failed_) throw write_error(error_);
  for (std::size_t f = 0; f < files_.size(); ++f) write_all(f);
  rows_since_flush_ = 0;
  last_flush_ = std::chrono::steady_clock::now();
}

// Writes a file's pending text. On failure the file is cut back to the rows written
// before, which needs no space, so that a reader never meets half a row.
void draws_writer::write_all(std::size_t f) {
  file& out = files_[f];
  std::size_t done = 0;
  while (done < out.pending.size()) {
    const ssize_t n = ::write(out.fd, out.pending.data() + done, out.pending.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    const int error = n < 0 ? errno : ENOSPC;
    if (out.fd != STDOUT_FILENO && ::ftruncate(out.fd, out.written) == 0) ::lseek(out.fd, out.written, SEEK_SET);
    failed_ = true;
    error_ = "cannot write the draws file " + (paths_[f] == "-" ? std::string("(standard output)") : paths_[f]) + ": " +
             std::strerror(error);
    out.pending.clear();
    out.pending_rows = 0;
    throw write_error(error_);
  }
  out.written += static_cast<long long>(out.pending.size());
  out.rows += out.pending_rows;
  out.pending.clear();
  out.pending_rows = 0;
}

}  // namespace ppl::draws
