#include "cli/picture_axes.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace ppl::cli {

namespace {

constexpr double tick_length = 3, label_gap = 2;
constexpr double overhang = 12;  // how far a label under a panel may reach past its sides

// The distance between ticks of nice_ticks(lo, hi, count).
double tick_step(double lo, double hi, int count) {
  const double raw = (hi - lo) / std::max(1, count);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / power;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
}

// Whether lo and hi make an axis: finite and apart. (A range of no width, or one as wide
// as the doubles, gets no ticks rather than a loop without end.)
bool usable(double lo, double hi) { return std::isfinite(lo) && std::isfinite(hi) && lo < hi && std::isfinite(hi - lo); }

double step_of(const std::vector<double>& ticks, const scale& s) { return ticks.size() > 1 ? ticks[1] - ticks[0] : s.hi - s.lo; }

double position(const scale& s, double v) { return (v - s.lo) / (s.hi - s.lo); }

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int count) {
  std::vector<double> out;
  if (!usable(lo, hi)) return out;
  const double step = tick_step(lo, hi, count);
  const double first = std::ceil(lo / step - 1e-9);
  for (double k = first; k * step <= hi + step * 1e-9 && out.size() < 50; k += 1) out.push_back(std::abs(k) < 0.5 ? 0.0 : k * step);
  return out;
}

std::string tick_label(double v, double step) {
  const double magnitude = std::max(std::abs(v), step);
  if (magnitude >= 1e6 || step < 1e-5) {  // exponent form, with the digits that tell ticks apart
    const int digits = static_cast<int>(std::floor(std::log10(magnitude)) - std::floor(std::log10(step))) + 1;
    return fmt::format("{:.{}g}", v, std::clamp(digits, 1, 17));
  }
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  return fmt::format("{:.{}f}", v, decimals);
}

std::vector<double> fitting_ticks(const scale& s, double length, bool vertical) {
  auto fits = [&](const std::vector<double>& ticks) {
    const double step = step_of(ticks, s);
    if (s.whole && step < 1) return false;
    if (ticks.size() < 2) return true;
    const double spacing = length * step / (s.hi - s.lo);
    if (vertical) return spacing >= text_height + 7;
    double widest = 0;
    for (double t : ticks) widest = std::max(widest, text_width(tick_label(t, step)));
    return spacing >= widest + 8;
  };
  // A tick every 25 pixels at most, and never more than 8: more is clutter, not precision.
  for (int count = std::clamp(static_cast<int>(length / 25), 2, 8); count >= 1; --count) {
    const auto ticks = nice_ticks(s.lo, s.hi, count);
    if (fits(ticks)) return ticks;
  }
  auto ticks = nice_ticks(s.lo, s.hi, 1);  // nothing fits: one tick
  if (ticks.size() > 1) ticks.resize(1);
  return ticks;
}

double tick_labels_width(const scale& s, double length) {
  const auto ticks = fitting_ticks(s, length, true);
  double widest = 0;
  for (double t : ticks) widest = std::max(widest, text_width(tick_label(t, step_of(ticks, s))));
  return widest;
}

void bottom_axis(canvas& c, const panel& p, const scale& s, const std::string& title, rgb ink) {
  const auto ticks = fitting_ticks(s, p.w, false);
  const double bottom = p.y + p.h;
  for (double t : ticks) {
    const double x = p.px(position(s, t));
    const std::string label = tick_label(t, step_of(ticks, s));
    if (x - text_width(label) / 2 < p.x - overhang || x + text_width(label) / 2 > p.x + p.w + overhang) continue;  // into the next panel's labels
    c.polyline({{x, bottom}, {x, bottom + tick_length}}, ink);
    c.text(x, bottom + tick_length + label_gap, label, ink, anchor::middle);
  }
  c.text(p.x + p.w / 2, bottom + tick_length + label_gap + text_height + 2, title, ink, anchor::middle);
}

void left_axis(canvas& c, const panel& p, const scale& s, const std::string& title, double title_x, rgb ink) {
  const auto ticks = fitting_ticks(s, p.h, true);
  for (double t : ticks) {
    const double y = p.py(position(s, t));
    c.polyline({{p.x - tick_length, y}, {p.x, y}}, ink);
    c.text(p.x - tick_length - label_gap, y - text_height / 2, tick_label(t, step_of(ticks, s)), ink, anchor::end);
  }
  c.text_up(title_x, p.y + p.h / 2, title, ink);
}

void right_axis(canvas& c, const panel& p, const scale& s, rgb ink) {
  const auto ticks = fitting_ticks(s, p.h, true);
  const double right = p.x + p.w;
  for (double t : ticks) {
    const double y = p.py(position(s, t));
    c.polyline({{right, y}, {right + tick_length, y}}, ink);
    c.text(right + tick_length + label_gap, y - text_height / 2, tick_label(t, step_of(ticks, s)), ink);
  }
}

}  // namespace ppl::cli
