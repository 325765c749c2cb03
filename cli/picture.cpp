#include "cli/picture.hpp"

#include <fmt/core.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "cli/picture_font.hpp"

namespace ppl::cli {

namespace {

// "cannot write PATH: No such file or directory", from errno as the failed call left it.
[[noreturn]] void cannot_write(const std::string& path) {
  throw std::invalid_argument("cannot write " + path + ": " + std::strerror(errno));
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string hex(rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

// From the top of a label's box to its baseline: the pixel font's capitals fill rows 1 to 7.
constexpr double baseline = 8;

class svg_canvas final : public canvas {
 public:
  svg_canvas(int width, int height) : width_(width), height_(height) {}
  void rect(double x, double y, double w, double h, rgb fill) override {
    body_ += fmt::format("<rect x=\"{:g}\" y=\"{:g}\" width=\"{:g}\" height=\"{:g}\" fill=\"{}\"/>\n", x, y, w, h, hex(fill));
  }
  void polyline(const std::vector<std::pair<double, double>>& points, rgb stroke) override {
    if (points.size() < 2) return;
    body_ += "<polyline fill=\"none\" stroke-width=\"1\" stroke=\"" + hex(stroke) + "\" points=\"";
    for (const auto& [x, y] : points) body_ += fmt::format("{:.1f},{:.1f} ", x, y);
    body_ += "\"/>\n";
  }
  void draw_text(double left, double top, const std::string& s, rgb colour, bool upwards) override {
    std::string escaped;
    for (char c : s) {
      if (c == '<') escaped += "&lt;";
      else if (c == '>') escaped += "&gt;";
      else if (c == '&') escaped += "&amp;";
      else escaped += c;
    }
    // textLength holds the label to the width the layout gave it, whatever the font.
    const std::string place = upwards ? fmt::format("transform=\"translate({:g},{:g}) rotate(-90)\"", left + baseline, top + text_width(s))
                                      : fmt::format("x=\"{:g}\" y=\"{:g}\"", left, top + baseline);
    body_ += fmt::format("<text {} font-family=\"monospace\" font-size=\"10\" textLength=\"{:g}\" lengthAdjust=\"spacingAndGlyphs\" "
                         "fill=\"{}\">{}</text>\n", place, text_width(s), hex(colour), escaped);
  }
  void save(const std::string& path) override {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) cannot_write(path);
    std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" shape-rendering=\"crispEdges\">\n%s</svg>\n",
                 width_, height_, body_.c_str());
    if (std::fclose(f) != 0) cannot_write(path);
  }

 private:
  int width_, height_;
  std::string body_;
};

// A coordinate as a pixel index. Draws far off the scale (a draw of 1e300, NaN) must
// still give an int, and converting such a double to one is undefined: clamp first, to a
// range wide enough that lines keep their direction and narrow enough that their
// differences cannot overflow.
int pixel(double v) {
  if (std::isnan(v)) return 0;
  return static_cast<int>(std::lround(std::clamp(v, -1e6, 1e6)));
}

class png_canvas final : public canvas {
 public:
  png_canvas(int width, int height)
      : width_(width), height_(height), pixels_(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), rgb{255, 255, 255}) {}

  void rect(double x, double y, double w, double h, rgb fill) override {
    const int x0 = std::max(0, pixel(x)), y0 = std::max(0, pixel(y));
    const int x1 = std::min(width_, pixel(x + w)), y1 = std::min(height_, pixel(y + h));
    for (int j = y0; j < y1; ++j)
      for (int i = x0; i < x1; ++i) at(i, j) = fill;
  }
  void polyline(const std::vector<std::pair<double, double>>& points, rgb stroke) override {
    for (std::size_t k = 1; k < points.size(); ++k)
      line(pixel(points[k - 1].first), pixel(points[k - 1].second),
           pixel(points[k].first), pixel(points[k].second), stroke);
  }
  void draw_text(double left, double top, const std::string& s, rgb colour, bool upwards) override {
    const int x0 = pixel(left), y0 = pixel(top), length = pixel(text_width(s));
    int at = 0;  // pixels along the label
    for (std::size_t k = 0; k < s.size(); ++k) {
      const auto byte = static_cast<unsigned char>(s[k]);
      if (byte >= 0x80 && byte < 0xc0) continue;  // a UTF-8 continuation: its character is drawn as one '?'
      const auto& rows = glyph(byte >= 0x80 ? '?' : s[k]);
      for (int r = 0; r < glyph_rows; ++r)
        for (int c = 0; c < glyph_width; ++c)
          if (rows[static_cast<std::size_t>(r)] >> (glyph_width - 1 - c) & 1) {
            if (upwards) plot(x0 + 1 + r, y0 + length - 1 - (at + c), colour);
            else plot(x0 + at + c, y0 + 1 + r, colour);
          }
      at += glyph_advance;
    }
  }
  void save(const std::string& path) override;

 private:
  rgb& at(int x, int y) { return pixels_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)]; }
  void plot(int x, int y, rgb c) {
    if (x >= 0 && y >= 0 && x < width_ && y < height_) at(x, y) = c;
  }
  // Bresenham's line algorithm, all octants.
  void line(int x0, int y0, int x1, int y1, rgb c) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (int guard = 0; guard < 100000; ++guard) {
      plot(x0, y0, c);
      if (x0 == x1 && y0 == y1) return;
      const int e2 = 2 * err;
      if (e2 >= dy) err += dy, x0 += sx;
      if (e2 <= dx) err += dx, y0 += sy;
    }
  }

  int width_, height_;
  std::vector<rgb> pixels_;
};

// A PNG (ISO/IEC 15948): signature, IHDR, one zlib-compressed IDAT of filter-0 RGB rows, IEND.
void png_canvas::save(const std::string& path) {
  const auto width = static_cast<std::size_t>(width_), height = static_cast<std::size_t>(height_);
  std::vector<unsigned char> raw;
  raw.reserve(height * (1 + 3 * width));
  for (std::size_t y = 0; y < height; ++y) {
    raw.push_back(0);
    for (std::size_t x = 0; x < width; ++x) {
      const rgb& c = pixels_[y * width + x];
      raw.insert(raw.end(), {c.r, c.g, c.b});
    }
  }
  uLongf packed_size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<unsigned char> packed(packed_size);
  if (compress2(packed.data(), &packed_size, raw.data(), static_cast<uLong>(raw.size()), 9) != Z_OK)
    throw std::runtime_error("PNG compression failed");
  packed.resize(packed_size);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) cannot_write(path);
  auto chunk = [&](const char* type, const std::vector<unsigned char>& data) {
    const unsigned char length[4] = {static_cast<unsigned char>(data.size() >> 24), static_cast<unsigned char>(data.size() >> 16),
                                     static_cast<unsigned char>(data.size() >> 8), static_cast<unsigned char>(data.size())};
    std::fwrite(length, 1, 4, f);
    std::fwrite(type, 1, 4, f);
    uLong crc = crc32(0, reinterpret_cast<const Bytef*>(type), 4);
    // An empty chunk (IEND) has a null buffer: fwrite must not be given one, and crc32
    // would take it as a request to reset.
    if (!data.empty()) {
      std::fwrite(data.data(), 1, data.size(), f);
      crc = crc32(crc, data.data(), static_cast<uInt>(data.size()));
    }
    const unsigned char c[4] = {static_cast<unsigned char>(crc >> 24), static_cast<unsigned char>(crc >> 16),
                                static_cast<unsigned char>(crc >> 8), static_cast<unsigned char>(crc)};
    std::fwrite(c, 1, 4, f);
  };
  const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::fwrite(signature, 1, 8, f);
  auto be32 = [](std::size_t v) {
    return std::vector<unsigned char>{static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                                      static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
  };
  std::vector<unsigned char> header = be32(width);
  auto h = be32(height);
  header.insert(header.end(), h.begin(), h.end());
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8-bit RGB, deflate, no filter, no interlace
  chunk("IHDR", header);
  chunk("IDAT", packed);
  chunk("IEND", {});
  if (std::fclose(f) != 0) cannot_write(path);
}

}  // namespace

double text_width(const std::string& s) {
  std::size_t characters = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++characters;
  return static_cast<double>(glyph_advance) * static_cast<double>(characters);
}

std::string fit_text(const std::string& s, double width) {
  if (text_width(s) <= width) return s;
  std::string out;
  for (char c : s) {  // a UTF-8 continuation adds no width, so a character is never cut in two
    if (text_width(out + c + "..") > width) break;
    out += c;
  }
  return out + "..";
}

std::unique_ptr<canvas> make_canvas(const std::string& path, int width, int height, const std::string& command) {
  if (ends_with(path, ".png")) return std::make_unique<png_canvas>(width, height);
  if (ends_with(path, ".svg")) return std::make_unique<svg_canvas>(width, height);
  throw std::invalid_argument(command + ": --output must end in .svg or .png");
}

}  // namespace ppl::cli
