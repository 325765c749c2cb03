// Rank normalisation (Vehtari et al. 2021, Section 4.1) from one sort of a column's draws.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <iterator>
#include <utility>

#include "draws/diagnostics_internal.hpp"

namespace ppl::draws::detail {

namespace {

// Phi^-1((r - 3/8) / (S + 1/4)), Blom's offset; Boost's quantile, as before the table.
double blom_score(double rank, std::size_t total) {
  static const boost::math::normal standard;
  return boost::math::quantile(standard, (rank - 0.375) / (static_cast<double>(total) + 0.25));
}

// An unsigned integer in the order of the doubles: the sign bit flipped for positive
// numbers, every bit for negative ones (-0 comes just before +0, which compare equal and
// so still end up side by side).
std::uint64_t order_key(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
}

}  // namespace

void sort_by_value(std::vector<ranked_draw>& draws, std::vector<ranked_draw>& scratch) {
  const std::size_t n = draws.size();
  // A comparison sort wins before the passes' fixed cost is spread; the counts are 32 bits.
  if (n < 1024 || n > UINT32_MAX) {
    std::sort(draws.begin(), draws.end(), [](const ranked_draw& a, const ranked_draw& b) { return a.value < b.value; });
    return;
  }
  // Six passes of 11 bits; the counts of all six are taken in one pass first.
  constexpr int bits = 11, digits = 6;
  constexpr std::uint64_t mask = (1u << bits) - 1;
  std::vector<std::uint32_t> counts(digits << bits, 0);
  for (const auto& d : draws) {
    const std::uint64_t key = order_key(d.value);
    for (int b = 0; b < digits; ++b) ++counts[(b << bits) + ((key >> (bits * b)) & mask)];
  }
  scratch.resize(n);
  for (int b = 0; b < digits; ++b) {
    const auto count = counts.begin() + (b << bits);
    if (std::find(count, count + (1 << bits), n) != count + (1 << bits)) continue;  // every draw has the same digit
    std::uint32_t start = 0;
    for (auto c = count; c != count + (1 << bits); ++c) start += std::exchange(*c, start);
    for (const auto& d : draws) scratch[count[(order_key(d.value) >> (bits * b)) & mask]++] = d;
    draws.swap(scratch);
  }
}

void normal_scores::prepare(std::size_t total) {
  if (total == total_ && table_.size() == total) return;
  total_ = total;
  table_.resize(total);
  for (std::size_t r = 1; r <= total; ++r) table_[r - 1] = blom_score(static_cast<double>(r), total);
}

double normal_scores::at_rank(double rank) const {
  const double whole = std::floor(rank);
  if (whole == rank && rank >= 1 && rank <= static_cast<double>(total_)) return table_[static_cast<std::size_t>(whole) - 1];
  return blom_score(rank, total_);
}

// Tied draws share their average rank, so that a discrete quantity keeps its number of
// distinct values.
void assign_scores(const std::vector<ranked_draw>& sorted, const normal_scores& scores, double* out) {
  std::size_t ranked = 0;  // draws before this group that are not dropped
  for (std::size_t a = 0, b = 0; a < sorted.size(); a = b) {
    std::size_t kept = 0;
    for (b = a; b < sorted.size() && sorted[b].value == sorted[a].value; ++b) kept += sorted[b].at != dropped;
    if (kept == 0) continue;
    // The mean of ranks ranked+1 .. ranked+kept.
    const double score = kept == 1 ? scores.at_whole_rank(ranked + 1) : scores.at_rank(0.5 * static_cast<double>(ranked + 1 + ranked + kept));
    for (std::size_t k = a; k < b; ++k)
      if (sorted[k].at != dropped) out[sorted[k].at] = score;
    ranked += kept;
  }
}

// |x - m| falls as x rises to m and rises after it (rounding keeps both monotone), so the
// draws below m, read downwards, and those from m up, read upwards, are each in order of
// their distance, and one merge orders them all.
void fold_about(const std::vector<ranked_draw>& sorted, double median, std::vector<ranked_draw>& out) {
  out.clear();
  out.reserve(sorted.size());
  auto split = std::lower_bound(sorted.begin(), sorted.end(), median, [](const ranked_draw& d, double m) { return d.value < m; });
  auto below = std::make_reverse_iterator(split), below_end = sorted.rend();
  auto above = split, above_end = sorted.end();
  auto skip = [](auto& it, auto end) {
    while (it != end && it->at == dropped) ++it;
  };
  skip(below, below_end);
  skip(above, above_end);
  while (below != below_end || above != above_end) {
    const double low = below != below_end ? std::fabs(below->value - median) : 0, high = above != above_end ? std::fabs(above->value - median) : 0;
    if (above == above_end || (below != below_end && low < high)) {
      out.push_back({low, below->at});
      ++below;
      skip(below, below_end);
    } else {
      out.push_back({high, above->at});
      ++above;
      skip(above, above_end);
    }
  }
}

}  // namespace ppl::draws::detail
