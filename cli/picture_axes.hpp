#pragma once
// Axes for the panels of `ppl plot` and the colour bar of `ppl heatmap`: ticks at round
// numbers (1, 2 or 5 times a power of ten), labelled as briefly as their spacing allows,
// and as many of them as fit without their labels touching.
#include <string>
#include <vector>

#include "cli/picture.hpp"

namespace ppl::cli {

// A rectangle of the picture that values are drawn into.
struct panel {
  double x, y, w, h;
  double px(double t) const { return x + t * w; }      // t in [0, 1] from the left
  double py(double t) const { return y + h - t * h; }  // t in [0, 1] from the bottom
};

// The values along an axis, lo at one end and hi at the other; `whole`: only whole
// numbers get ticks (iterations, counts).
struct scale {
  double lo, hi;
  bool whole = false;
};

// Round numbers in [lo, hi], about `count` of them (at least one when lo < hi; none when
// lo and hi are not finite numbers apart).
std::vector<double> nice_ticks(double lo, double hi, int count);

// A tick's label with the decimals its spacing `step` needs: 0.05, 12.5, 2000, 1e+06.
std::string tick_label(double v, double step);

// The ticks of `s` along `length` pixels: as many as leave their labels apart (a vertical
// axis: a line of text each and a gap; a horizontal one: their widths and a space).
std::vector<double> fitting_ticks(const scale& s, double length, bool vertical);

// The widest label of a vertical axis for `s` along `length` pixels.
double tick_labels_width(const scale& s, double length);

// The axis under `p`, lo at its left edge: tick marks and labels below the panel, and
// `title` centred under them.
void bottom_axis(canvas& c, const panel& p, const scale& s, const std::string& title, rgb ink);

// The axis left of `p`, lo at its bottom: tick marks and labels (right-aligned against the
// panel) and `title` reading upwards with its left edge at `title_x`.
void left_axis(canvas& c, const panel& p, const scale& s, const std::string& title, double title_x, rgb ink);

// The axis right of `p` (a colour bar's), lo at its bottom: tick marks and labels,
// left-aligned beside the panel.
void right_axis(canvas& c, const panel& p, const scale& s, rgb ink);

}  // namespace ppl::cli
