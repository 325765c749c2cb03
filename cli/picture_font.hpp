#pragma once
// The pixel font PNG labels are drawn in: printable ASCII in a 5 x 9 cell (capitals and
// digits 7 pixels tall, lowercase 5 with ascenders and descenders), advancing 6 pixels a
// character. SVG labels use a monospace font of the same size instead.
#include <array>
#include <cstdint>

namespace ppl::cli {

inline constexpr int glyph_width = 5, glyph_rows = 9, glyph_advance = 6;

// The rows of a character's glyph, top first, each 5 bits with the leftmost pixel in
// bit 4. A character outside printable ASCII gets the glyph of '?'.
const std::array<std::uint8_t, glyph_rows>& glyph(char c);

}  // namespace ppl::cli
