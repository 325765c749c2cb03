#include "core/source_error.hpp"

#include <algorithm>

namespace ppl {

location locate(std::string_view text, std::size_t offset) {
  text = text.substr(0, std::min(offset, text.size()));
  const std::size_t line_start = text.rfind('\n') + 1;  // npos + 1 == 0 on the first line
  return {static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1, text.size() - line_start + 1};
}

line_index::line_index(std::string_view text) : size_(text.size()) {
  for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1)) starts_.push_back(i + 1);
}

std::size_t line_index::start_of(std::size_t line) const {
  return line >= 1 && line <= starts_.size() ? starts_[line - 1] : size_;
}

location line_index::locate(std::size_t offset) const {
  offset = std::min(offset, size_);
  // The last line starting at or before the offset.
  const auto line = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin();
  return {static_cast<std::size_t>(line), offset - starts_[static_cast<std::size_t>(line - 1)] + 1};
}

namespace {

// The length of the well-formed UTF-8 sequence of two to four bytes at `i`, or 0.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t n = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
  return n;
}

bool plain(char c) { return c == '\t' || (c >= 0x20 && c < 0x7f); }

// A source line shown under a message: each byte that `printable` would escape becomes
// one '?', which keeps the caret under its column.
std::string shown_line(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t n = plain(line[i]) ? 1 : utf8_length(line, i);
    out += n ? line.substr(i, n) : "?";
    i += n ? n : 1;
  }
  return out;
}

std::string_view line_at(std::string_view text, std::size_t line) {
  std::size_t start = 0;
  for (std::size_t l = 1; l < line; ++l) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  std::size_t end = text.find('\n', start);
  std::string_view s = text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = plain(text[i]) ? 1 : utf8_length(text, i);
    if (n) {
      out += text.substr(i, n);
      i += n;
      continue;
    }
    const auto b = static_cast<unsigned char>(text[i++]);
    out += std::string("\\x") + hex[b >> 4] + hex[b & 15];
  }
  return out;
}

std::string diagnostic::str() const {
  std::string out = file;
  if (where.line > 0) out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  out += ": error: " + message + "\n";
  if (where.line > 0 && !source_line.empty()) {
    std::string num = std::to_string(where.line);
    std::string gutter(num.size(), ' ');
    std::string caret;
    // Keep tabs so the caret lines up under the offending character.
    for (std::size_t i = 0; i + 1 < where.column && i < source_line.size(); ++i)
      caret += source_line[i] == '\t' ? '\t' : ' ';
    // A very long line (a data row) is shown as a window around the caret.
    std::string shown = shown_line(source_line);
    constexpr std::size_t window = 60;
    if (shown.size() > 2 * window + 20) {
      std::size_t at = caret.size(), from = at > window ? at - window : 0;
      std::size_t to = std::min(shown.size(), at + window);
      shown = (from ? "..." : "") + shown.substr(from, to - from) + (to < shown.size() ? "..." : "");
      caret = std::string(at - from + (from ? 3 : 0), ' ');
    }
    out += " " + num + " | " + shown + "\n";
    out += " " + gutter + " | " + caret + "^\n";
  }
  if (!note.empty()) out += "note: " + note + "\n";
  return out;
}

diagnostic make_diagnostic(source_view src, std::size_t offset, std::string message) {
  diagnostic d;
  d.file = std::string(src.name);
  d.where = locate(src.text, offset);
  d.message = std::move(message);
  d.source_line = std::string(line_at(src.text, d.where.line));
  return d;
}

diagnostic make_diagnostic(source_view src, const line_index& lines, std::size_t offset, std::string message) {
  diagnostic d;
  d.file = std::string(src.name);
  d.where = lines.locate(offset);
  d.message = std::move(message);
  std::string_view text = src.text;
  const std::size_t start = std::min(lines.start_of(d.where.line), text.size());
  std::string_view line = text.substr(start, text.find('\n', start) - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  d.source_line = std::string(line);
  return d;
}

source_error::source_error(diagnostic d) : std::runtime_error(d.str()), diag_(std::move(d)) {}

void fail_at(source_view src, std::size_t offset, std::string message) {
  throw source_error(make_diagnostic(src, offset, std::move(message)));
}

}  // namespace ppl
