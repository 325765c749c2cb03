#include "cli/progress.hpp"

#include <fmt/core.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace ppl::cli {

std::size_t terminal_width() {
  winsize w{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    std::size_t n = 0;
    if (std::from_chars(columns, columns + std::strlen(columns), n).ec == std::errc() && n > 0) return n;
  }
  return 80;
}

std::string progress_state::line(std::size_t width) const {
  const double span = static_cast<double>(std::max(1L, total));
  // Each chain's progress through its current phase: warmup, then sampling.
  auto warming = [&](std::size_t c) { return done[c] < warmup; };
  auto phase = [&](std::size_t c) { return warming(c) ? "warmup" : "sampling"; };
  auto percent = [&](std::size_t c) {
    const double part = warming(c) ? static_cast<double>(done[c]) / static_cast<double>(warmup)
                                   : static_cast<double>(done[c] - warmup) / static_cast<double>(std::max(1L, total - warmup));
    return static_cast<int>(std::floor(100.0 * part));
  };
  const std::string tail = fmt::format(" | {:.0f} it/s | {:.0f} s left", rate, seconds_left);
  const std::string short_tail = fmt::format(" | {:.0f} s left", seconds_left);
  std::string wide, medium, narrow;
  long all = 0;
  for (std::size_t c = 0; c < done.size(); ++c) {
    wide += fmt::format("{}[{}] {} {:3d}% lp__ {:.6g}", c ? "  " : "", c + 1, phase(c), percent(c), lp[c]);
    medium += fmt::format("{}[{}] {}{:d}%", c ? " " : "", c + 1, phase(c)[0] == 'w' ? "W" : "S", percent(c));
    narrow += fmt::format("{}{}{:d}%", c ? " " : "", phase(c)[0] == 'w' ? "W" : "S", percent(c));
    all += done[c];
  }
  const double overall = 100.0 * static_cast<double>(all) / (span * static_cast<double>(std::max<std::size_t>(1, done.size())));
  const std::string minimal = fmt::format("{:.0f}%{}", std::floor(overall), short_tail);
  for (const std::string& candidate : {wide + tail, medium + tail, narrow + tail, narrow + short_tail, minimal})
    if (candidate.size() < width) return candidate;
  return minimal.substr(0, width > 1 ? width - 1 : 0);
}

progress_display::progress_display(int chains, long warmup, bool enabled) : enabled_(enabled) {
  state_.done.assign(static_cast<std::size_t>(chains), 0);
  state_.lp.assign(static_cast<std::size_t>(chains), NAN);
  state_.warmup = warmup;
}

void progress_display::update(int chain, long done, long total, double lp) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  state_.done[static_cast<std::size_t>(chain)] = done;
  state_.lp[static_cast<std::size_t>(chain)] = lp;
  state_.total = total;
  long sum = 0;
  for (long d : state_.done) sum += d;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  state_.rate = static_cast<double>(sum) / std::max(seconds, 1e-9);
  const double remaining = static_cast<double>(total) * static_cast<double>(state_.done.size()) - static_cast<double>(sum);
  state_.seconds_left = remaining / std::max(state_.rate, 1e-9);
  // \r back to the line's start, the line, then erase whatever a longer line left.
  fmt::print(stderr, "\r{}\033[K", state_.line(terminal_width()));
  drawn_ = true;
}

void progress_display::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (enabled_ && drawn_) fmt::print(stderr, "\n");
  drawn_ = false;
}

void progress_display::note(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  fmt::print(stderr, "{}{}\n", enabled_ && drawn_ ? "\r\033[K" : "", text);
}

}  // namespace ppl::cli
