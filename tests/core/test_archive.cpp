// The saved state's archive: compact() gives every value back bit for bit in the narrowest
// width that holds them, and a truncated or damaged archive is refused, never read past.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/archive.hpp"

namespace test_archive {

using ppl::archive;

namespace {

// The bytes compact() writes for x, and x read back from them.
std::pair<std::size_t, std::vector<double>> round_trip(std::vector<double> x) {
  archive out;
  out.compact(x);
  CHECK(out.bytes().size() == archive::compact_size(x));
  archive in(out.bytes());
  std::vector<double> back{42.0};
  in.compact(back);
  CHECK(in.done());
  return {out.bytes().size(), back};
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

TEST_CASE("archive: compact stores integers in 1, 2 or 4 bytes and anything else as doubles") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct case_t {
    std::vector<double> x;
    std::size_t width;
  };
  const std::vector<case_t> cases{
      {{}, 1},
      {{1, 50, 3, 1}, 1},                  // LDA's topics
      {{-1, 1, 1, -1}, 1},                 // spins
      {{-128, 127}, 1},
      {{200, 1}, 1},                       // unsigned: LDA's topics at K = 200
      {{128, -1}, 2},
      {{-32768, 32767}, 2},
      {{40000, 1}, 2},
      {{70000, 1}, 4},
      {{40000, -1}, 4},
      {{-2147483648.0, 2147483647.0}, 4},
      {{2147483648.0}, 8},                 // beyond 32 bits
      {{1, 2.5}, 8},
      {{1, -0.0}, 8},                      // -0 is no integer: its sign would be lost
      {{1, nan}, 8},
      {{INFINITY, 1}, 8},
      {{1e300}, 8},
  };
  for (const auto& c : cases) {
    INFO(c.x.size(), " values, width ", c.width);
    const auto [bytes, back] = round_trip(c.x);
    CHECK(bytes == 9 + c.x.size() * c.width);
    CHECK(same_bits(back, c.x));
  }
  // Longer than the buffer integers are converted through.
  std::vector<double> topics(10000);
  for (std::size_t i = 0; i < topics.size(); ++i) topics[i] = static_cast<double>(i % 200 + 1);
  const auto [bytes, back] = round_trip(topics);
  CHECK(bytes == 9 + topics.size());
  CHECK(same_bits(back, topics));
}

TEST_CASE("archive: a compact vector cut short or with a bad width is refused") {
  std::vector<double> x(100, 7.0);
  archive out;
  out.compact(x);
  std::string bytes = out.bytes();
  std::vector<double> back;
  archive cut(bytes.substr(0, bytes.size() - 1));
  CHECK_THROWS_WITH(cut.compact(back), doctest::Contains("truncated or corrupt"));
  bytes[8] = 3;  // the width byte
  archive bad(bytes);
  CHECK_THROWS_WITH(bad.compact(back), doctest::Contains("truncated or corrupt"));
}

}  // namespace test_archive
