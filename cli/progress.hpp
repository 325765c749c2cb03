#pragma once
// The status line of `ppl infer` on a terminal: each chain's phase (warmup or sampling)
// and how far through it the chain is, the speed and the time left, redrawn in place. It never wraps: the
// fullest form that fits the terminal's width is chosen at every redraw (a line wider
// than the terminal would wrap, and `\r` would then leave a trail of lines).
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace ppl::cli {

// The progress of the chains at one moment, and the line that shows it in `width`
// columns (or fewer; never more).
struct progress_state {
  std::vector<long> done;   // iterations done per chain
  std::vector<double> lp;   // latest lp__ per chain
  long warmup = 0, total = 0;  // per chain
  double rate = 0;          // iterations per second, all chains together
  double seconds_left = 0;
  std::string line(std::size_t width) const;
};

class progress_display {
 public:
  progress_display(int chains, long warmup, bool enabled);
  void update(int chain, long done, long total, double lp);
  // Ends the status line (the next output starts on a line of its own).
  void finish();
  // A line of its own above the status line.
  void note(const std::string& text);

 private:
  progress_state state_;
  bool enabled_, drawn_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The terminal's width in columns (standard error's), or COLUMNS, or 80.
std::size_t terminal_width();

}  // namespace ppl::cli
