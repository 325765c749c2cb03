#include "cli/progress.hpp"

#include <fmt/core.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <iterator>

#include "data/data.hpp"

namespace ppl::cli {

namespace {

// The first of a status line's forms, fullest first, that is narrower than the terminal;
// else the last, cut to fit.
std::string fitting(std::initializer_list<std::string> forms, std::size_t width) {
  for (const std::string& form : forms)
    if (form.size() < width) return form;
  return std::data(forms)[forms.size() - 1].substr(0, width > 1 ? width - 1 : 0);
}

}  // namespace

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
  const std::string memory = resident > 0 ? " | " + memory_text(resident) : "";
  // A sweep of a hundred million ratings takes seconds: its rate keeps two figures.
  const std::string speed = rate >= 10 ? fmt::format("{:.0f}", rate) : fmt::format("{:.2g}", rate);
  const std::string tail = fmt::format(" | {} it/s{} | {:.0f} s left", speed, memory, seconds_left);
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
  return fitting({wide + tail, medium + tail, narrow + tail, narrow + short_tail, minimal}, width);
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
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - std::max(start_, built_)).count();
  state_.rate = static_cast<double>(sum) / std::max(seconds, 1e-9);
  const double remaining = static_cast<double>(total) * static_cast<double>(state_.done.size()) - static_cast<double>(sum);
  state_.seconds_left = remaining / std::max(state_.rate, 1e-9);
  // The memory in use from /proc at most four times a second: a fast model reports every
  // few iterations.
  if (const auto now = std::chrono::steady_clock::now(); now - resident_read_ >= std::chrono::milliseconds(250))
    state_.resident = resident_bytes(), resident_read_ = now;
  // \r back to the line's start, the line, then erase whatever a longer line left.
  fmt::print(stderr, "\r{}\033[K", state_.line(terminal_width()));
  drawn_ = true;
}

void progress_display::building(const model::build_step& step) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - start_).count();
  built_ = now;
  if (seconds < 0.5 || (drawn_ && now - build_drawn_ < std::chrono::milliseconds(200))) return;
  build_drawn_ = now;
  fmt::print(stderr, "\r{}\033[K", build_line(step, seconds, resident_bytes(), terminal_width()));
  drawn_ = true;
}

std::string build_line(const model::build_step& step, double seconds, double resident, std::size_t width) {
  const std::string where = step.line ? fmt::format(": line {}, {:.0f}%", step.line, std::floor(100 * step.fraction)) : "";
  const std::string memory = resident > 0 ? " | " + memory_text(resident) + " in use" : "";
  const std::string time = fmt::format(" | {:.0f} s", seconds);
  const std::string phase = "building " + std::string(step.phase);
  return fitting({phase + where + time + memory, phase + where, "building"}, width);
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

double resident_bytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  long pages = 0, resident = 0;
  const bool read = std::fscanf(f, "%ld %ld", &pages, &resident) == 2;
  std::fclose(f);
  return read ? static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) : 0;
}

std::string memory_text(double bytes) {
  return bytes >= 1e9 ? fmt::format("{:.1f} GB", bytes / 1e9) : fmt::format("{:.0f} MB", bytes / 1e6);
}

std::string reading_line(const std::string& path, std::size_t done, std::size_t total, double seconds, double resident,
                         std::size_t width) {
  const double mb = static_cast<double>(done) / 1e6;
  const std::string part = total > 0 ? fmt::format("{:.0f} of {:.0f} MB ({:.0f}%)", mb, static_cast<double>(total) / 1e6,
                                                   std::floor(100.0 * static_cast<double>(done) / static_cast<double>(total)))
                                     : fmt::format("{:.0f} MB", mb);
  const std::string rate = fmt::format(" | {:.0f} MB/s", mb / std::max(seconds, 1e-9));
  const std::string memory = resident > 0 ? " | " + memory_text(resident) + " in use" : "";
  const std::string name = std::filesystem::path(path).filename().string();
  return fitting({"reading " + name + ": " + part + rate + memory, "reading " + part + memory, part}, width);
}

reading_display::reading_display(std::string path, bool quiet) : path_(std::move(path)), enabled_(!quiet && isatty(STDERR_FILENO)) {
  if (enabled_) data::set_read_progress([this](std::size_t done, std::size_t total) { update(done, total); });
}

reading_display::~reading_display() {
  if (!enabled_) return;
  data::set_read_progress(nullptr);
  if (drawn_) fmt::print(stderr, "\r\033[K");
}

void reading_display::update(std::size_t done, std::size_t total) {
  const auto now = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(now - start_).count();
  if (seconds < 0.5 || (drawn_ && now - last_ < std::chrono::milliseconds(200))) return;
  last_ = now;
  fmt::print(stderr, "\r{}\033[K", reading_line(path_, done, total, seconds, resident_bytes(), terminal_width()));
  drawn_ = true;
}

}  // namespace ppl::cli
