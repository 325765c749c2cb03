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
  void text(double x, double y, const std::string& s, rgb colour) override {
    std::string escaped;
    for (char c : s) {
      if (c == '<') escaped += "&lt;";
      else if (c == '>') escaped += "&gt;";
      else if (c == '&') escaped += "&amp;";
      else escaped += c;
    }
    body_ += fmt::format("<text x=\"{:g}\" y=\"{:g}\" font-family=\"monospace\" font-size=\"11\" fill=\"{}\">{}</text>\n", x,
                         y + 9, hex(colour), escaped);
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

// A 3 x 5 pixel font of our own: five rows of three bits per glyph, the top row in the
// high bits. Letters are drawn as capitals whatever their case.
std::uint16_t glyph(char c) {
  auto g = [](int a, int b, int c2, int d, int e) { return static_cast<std::uint16_t>(a << 12 | b << 9 | c2 << 6 | d << 3 | e); };
  if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  switch (c) {
    case '0': return g(7, 5, 5, 5, 7);
    case '1': return g(2, 6, 2, 2, 7);
    case '2': return g(7, 1, 7, 4, 7);
    case '3': return g(7, 1, 7, 1, 7);
    case '4': return g(5, 5, 7, 1, 1);
    case '5': return g(7, 4, 7, 1, 7);
    case '6': return g(7, 4, 7, 5, 7);
    case '7': return g(7, 1, 1, 2, 2);
    case '8': return g(7, 5, 7, 5, 7);
    case '9': return g(7, 5, 7, 1, 7);
    case 'a': return g(2, 5, 7, 5, 5);
    case 'b': return g(6, 5, 6, 5, 6);
    case 'c': return g(3, 4, 4, 4, 3);
    case 'd': return g(6, 5, 5, 5, 6);
    case 'e': return g(7, 4, 6, 4, 7);
    case 'f': return g(7, 4, 6, 4, 4);
    case 'g': return g(3, 4, 5, 5, 3);
    case 'h': return g(5, 5, 7, 5, 5);
    case 'i': return g(7, 2, 2, 2, 7);
    case 'j': return g(1, 1, 1, 5, 2);
    case 'k': return g(5, 5, 6, 5, 5);
    case 'l': return g(4, 4, 4, 4, 7);
    case 'm': return g(5, 7, 7, 5, 5);
    case 'n': return g(6, 5, 5, 5, 5);
    case 'o': return g(2, 5, 5, 5, 2);
    case 'p': return g(6, 5, 6, 4, 4);
    case 'q': return g(2, 5, 5, 6, 3);
    case 'r': return g(6, 5, 6, 5, 5);
    case 's': return g(3, 4, 2, 1, 6);
    case 't': return g(7, 2, 2, 2, 2);
    case 'u': return g(5, 5, 5, 5, 7);
    case 'v': return g(5, 5, 5, 5, 2);
    case 'w': return g(5, 5, 7, 7, 5);
    case 'x': return g(5, 5, 2, 5, 5);
    case 'y': return g(5, 5, 2, 2, 2);
    case 'z': return g(7, 1, 2, 4, 7);
    case '.': return g(0, 0, 0, 0, 2);
    case ',': return g(0, 0, 0, 2, 4);
    case '-': return g(0, 0, 7, 0, 0);
    case '+': return g(0, 2, 7, 2, 0);
    case '_': return g(0, 0, 0, 0, 7);
    case '[': return g(6, 4, 4, 4, 6);
    case ']': return g(3, 1, 1, 1, 3);
    case '(': return g(2, 4, 4, 4, 2);
    case ')': return g(2, 1, 1, 1, 2);
    case ':': return g(0, 2, 0, 2, 0);
    case '=': return g(0, 7, 0, 7, 0);
    case '/': return g(1, 1, 2, 4, 4);
    case '*': return g(0, 5, 2, 5, 0);
    case '^': return g(2, 5, 0, 0, 0);
    case '<': return g(1, 2, 4, 2, 1);
    case '>': return g(4, 2, 1, 2, 4);
    case ' ': return 0;
    default: return g(7, 1, 2, 0, 2);  // '?'
  }
}

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
  void text(double x, double y, const std::string& s, rgb colour) override {
    int left = pixel(x);
    const int top = pixel(y);
    for (char c : s) {
      const std::uint16_t bits = glyph(c);
      for (int row = 0; row < 5; ++row)
        for (int col = 0; col < 3; ++col)
          if (bits >> ((4 - row) * 3 + (2 - col)) & 1) rect(left + 2 * col, top + 2 * row, 2, 2, colour);
      left += 8;
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

std::unique_ptr<canvas> make_canvas(const std::string& path, int width, int height, const std::string& command) {
  if (ends_with(path, ".png")) return std::make_unique<png_canvas>(width, height);
  if (ends_with(path, ".svg")) return std::make_unique<svg_canvas>(width, height);
  throw std::invalid_argument(command + ": --output must end in .svg or .png");
}

}  // namespace ppl::cli
