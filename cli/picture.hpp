#pragma once
// Pictures for `ppl heatmap` and `ppl plot`: a canvas of pixels (origin top left) with
// rectangles, polylines and short labels, written as SVG (one element each) or as PNG
// (rasterised here: lines by Bresenham's algorithm, labels in a built-in 3 x 5 pixel font
// drawn at twice its size, the file deflated with zlib).
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ppl::cli {

struct rgb {
  unsigned char r = 0, g = 0, b = 0;
};

class canvas {
 public:
  virtual ~canvas() = default;
  virtual void rect(double x, double y, double w, double h, rgb fill) = 0;
  virtual void polyline(const std::vector<std::pair<double, double>>& points, rgb stroke) = 0;
  // A label with its top-left corner at (x, y), about 10 pixels tall.
  virtual void text(double x, double y, const std::string& s, rgb colour) = 0;
  virtual void save(const std::string& path) = 0;

  void frame(double x, double y, double w, double h, rgb stroke) {
    polyline({{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}, {x, y}}, stroke);
  }
};

// An SVG canvas for a path ending in .svg, a PNG one for .png; any other ending is a usage
// error (std::invalid_argument) naming `command`.
std::unique_ptr<canvas> make_canvas(const std::string& path, int width, int height, const std::string& command);

// The width of a label in pixels (PNG: 8 per character; SVG text is about as wide).
inline double text_width(const std::string& s) { return 8.0 * static_cast<double>(s.size()); }

}  // namespace ppl::cli
