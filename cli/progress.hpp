#pragma once
// The status line of `ppl infer` on a terminal: each chain's phase (warmup or sampling)
// and how far through it the chain is, the speed and the time left, redrawn in place. It never wraps: the
// fullest form that fits the terminal's width is chosen at every redraw (a line wider
// than the terminal would wrap, and `\r` would then leave a trail of lines).
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "model/build_progress.hpp"

namespace ppl::cli {

// The progress of the chains at one moment, and the line that shows it in `width`
// columns (or fewer; never more).
struct progress_state {
  std::vector<long> done;   // iterations done per chain
  std::vector<double> lp;   // latest lp__ per chain
  long warmup = 0, total = 0;  // per chain
  double rate = 0;          // iterations per second, all chains together
  double seconds_left = 0;
  double resident = 0;      // bytes of memory in use (0: not known, not shown)
  std::string line(std::size_t width) const;
};

class progress_display {
 public:
  progress_display(int chains, long warmup, bool enabled);
  void update(int chain, long done, long total, double lp);
  // The build's step before the chains run (model/build_progress.hpp): a line of its own
  // kind, drawn once the build has taken half a second, at most five times a second; the
  // chains' line replaces it. The chains' speed is counted from the build's last step.
  void building(const model::build_step& step);
  // Ends the status line (the next output starts on a line of its own).
  void finish();
  // A line of its own above the status line.
  void note(const std::string& text);

 private:
  progress_state state_;
  bool enabled_, drawn_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), resident_read_{},
      built_{}, build_drawn_{};  // the build's last step, and its line's last redraw
};

// The status line of progress_display::building after `seconds`, in `width` columns (or fewer):
// "building the samplers: line 21, 48% | 12 s | 1.9 GB in use".
std::string build_line(const model::build_step& step, double seconds, double resident, std::size_t width);

// The terminal's width in columns (standard error's), or COLUMNS, or 80.
std::size_t terminal_width();

// The process's resident memory in bytes (/proc/self/statm), 0 where it cannot be read.
double resident_bytes();
// "812 MB", "1.9 GB": memory for a status line.
std::string memory_text(double bytes);

// On a terminal, a line that follows the reading of a large data file (data::read_progress):
// "reading FILE: 812 of 2,185 MB (37%) | 240 MB/s | 1.9 GB in use", redrawn in place at most
// five times a second once the read has taken half a second, and erased at its end.
// Does nothing when standard error is not a terminal or with `quiet`.
class reading_display {
 public:
  reading_display(std::string path, bool quiet);
  ~reading_display();
  reading_display(const reading_display&) = delete;
  reading_display& operator=(const reading_display&) = delete;

 private:
  void update(std::size_t done, std::size_t total);
  std::string path_;
  bool enabled_, drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

// The status line of reading_display at `done` of `total` bytes after `seconds`, in
// `width` columns (or fewer).
std::string reading_line(const std::string& path, std::size_t done, std::size_t total, double seconds, double resident,
                         std::size_t width);

}  // namespace ppl::cli
