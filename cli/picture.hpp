#pragma once
// Pictures for `ppl heatmap` and `ppl plot`: a canvas of pixels (origin top left) with
// rectangles, polylines and short labels, written as SVG (one element each) or as PNG
// (rasterised here: lines by Bresenham's algorithm, labels in the pixel font of
// picture_font.hpp, the file deflated with zlib). A label takes the same room in both:
// 6 pixels a character, 11 pixels a line.
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ppl::cli {

struct rgb {
  unsigned char r = 0, g = 0, b = 0;
};

// The colour of text, frames and axes in every picture.
inline constexpr rgb ink{40, 40, 40};

// Where a label's x is: its left end, its middle or its right end.
enum class anchor { start, middle, end };

inline constexpr double text_height = 11;

// The width of a label in pixels: 6 per character (a UTF-8 sequence is one character).
double text_width(const std::string& s);

class canvas {
 public:
  virtual ~canvas() = default;
  virtual void rect(double x, double y, double w, double h, rgb fill) = 0;
  virtual void polyline(const std::vector<std::pair<double, double>>& points, rgb stroke) = 0;
  virtual void save(const std::string& path) = 0;

  // A label text_height tall from y down, placed at x by `a`.
  void text(double x, double y, const std::string& s, rgb colour, anchor a = anchor::start) {
    const double w = text_width(s);
    draw_text(a == anchor::start ? x : a == anchor::middle ? x - w / 2 : x - w, y, s, colour, false);
  }
  // A label reading upwards (a vertical axis's title), text_height wide from x to the
  // right, its middle at height y.
  void text_up(double x, double y, const std::string& s, rgb colour) { draw_text(x, y - text_width(s) / 2, s, colour, true); }

  void frame(double x, double y, double w, double h, rgb stroke) {
    polyline({{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}, {x, y}}, stroke);
  }

 protected:
  // The label in the box from (left, top), text_width(s) by text_height, or turned a
  // quarter to the left (text_height by text_width(s)) when `upwards`.
  virtual void draw_text(double left, double top, const std::string& s, rgb colour, bool upwards) = 0;
};

// An SVG canvas for a path ending in .svg, a PNG one for .png; any other ending is a usage
// error (std::invalid_argument) naming `command`.
std::unique_ptr<canvas> make_canvas(const std::string& path, int width, int height, const std::string& command);

// `s` shortened to at most `width` pixels, ending in ".." when cut.
std::string fit_text(const std::string& s, double width);

}  // namespace ppl::cli
