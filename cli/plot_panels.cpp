#include "cli/plot_panels.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "cli/summary_table.hpp"

namespace ppl::cli {

namespace {

const rgb chain_colours[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
                             {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};

std::vector<double> histogram(const std::vector<double>& x, double lo, double hi, int bins) {
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (double v : x) {
    if (!std::isfinite(v)) continue;  // NaN has no bin, and converting it to int is undefined
    counts[histogram_bin(v, lo, hi, bins)] += 1;
  }
  return counts;
}

// A chain's points, thinned to at most two per pixel column (each column's lowest and
// highest value, so that the envelope is kept).
std::vector<std::pair<double, double>> trace_points(const panel& p, const std::vector<double>& x, std::size_t longest, double lo, double hi) {
  std::vector<std::pair<double, double>> points;
  // A value off the scale (infinite, or beyond the doubles' range of widths) is drawn at
  // the panel's edge and NaN not at all, so that no line leaves the panel.
  auto add = [&](std::size_t i) {
    const double t = (x[i] - lo) / (hi - lo);
    if (!std::isnan(t))
      points.push_back({p.px(longest > 1 ? static_cast<double>(i) / static_cast<double>(longest - 1) : 0.5), p.py(std::clamp(t, 0.0, 1.0))});
  };
  const auto columns = static_cast<std::size_t>(p.w);
  if (x.size() <= 2 * columns) {
    for (std::size_t i = 0; i < x.size(); ++i) add(i);
    return points;
  }
  for (std::size_t col = 0; col < columns; ++col) {
    const std::size_t a = col * x.size() / columns, b = std::max(a + 1, (col + 1) * x.size() / columns);
    const auto [mn, mx] = std::minmax_element(x.begin() + static_cast<long>(a), x.begin() + static_cast<long>(b));
    const auto first = static_cast<std::size_t>(mn - x.begin()), second = static_cast<std::size_t>(mx - x.begin());
    add(std::min(first, second));
    add(std::max(first, second));
  }
  return points;
}

// Ranks of all draws pooled (ties get their average rank), split back by chain.
std::vector<std::vector<double>> pooled_ranks(const std::vector<std::vector<double>>& chains) {
  std::vector<std::pair<double, std::size_t>> all;  // value, position in the concatenation
  for (const auto& x : chains)
    for (double v : x) all.push_back({v, all.size()});
  // NaN last: with < alone it compares equal to everything, which is no ordering, and
  // std::sort may then run past the ends of the array.
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    const bool na = std::isnan(a.first), nb = std::isnan(b.first);
    return na != nb ? nb : na ? a.second < b.second : a < b;
  });
  std::vector<double> rank(all.size());
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i + 1;  // from i itself, a NaN (equal to nothing) never moved on
    while (j < all.size() && all[j].first == all[i].first) ++j;
    for (std::size_t k = i; k < j; ++k) rank[all[k].second] = 0.5 * static_cast<double>(i + j - 1);
    i = j;
  }
  std::vector<std::vector<double>> out;
  std::size_t at = 0;
  for (const auto& x : chains) {
    out.emplace_back(rank.begin() + static_cast<long>(at), rank.begin() + static_cast<long>(at + x.size()));
    at += x.size();
  }
  return out;
}

}  // namespace

rgb chain_colour(std::size_t c) { return chain_colours[c % std::size(chain_colours)]; }

void draw_trace(canvas& c, const panel& p, const std::vector<std::vector<double>>& chains, double lo, double hi) {
  std::size_t longest = 0;
  for (const auto& x : chains) longest = std::max(longest, x.size());
  for (std::size_t k = 0; k < chains.size(); ++k) c.polyline(trace_points(p, chains[k], longest, lo, hi), chain_colour(k));
}

void draw_density(canvas& c, const panel& p, const std::vector<std::vector<double>>& chains, double lo, double hi, rgb pooled_colour) {
  constexpr int bins = 30;
  std::vector<double> all;
  for (const auto& x : chains) all.insert(all.end(), x.begin(), x.end());
  const auto pooled = histogram(all, lo, hi, bins);
  std::vector<std::vector<double>> each;
  double top = *std::max_element(pooled.begin(), pooled.end()) / static_cast<double>(all.size());
  for (const auto& x : chains) {
    each.push_back(histogram(x, lo, hi, bins));
    for (double& v : each.back()) v /= static_cast<double>(std::max<std::size_t>(1, x.size()));
    top = std::max(top, *std::max_element(each.back().begin(), each.back().end()));
  }
  if (!(top > 0)) return;  // no finite draw
  const double bw = p.w / bins;
  for (int b = 0; b < bins; ++b) {
    const double hgt = pooled[static_cast<std::size_t>(b)] / static_cast<double>(all.size()) / top * p.h;
    c.rect(p.x + b * bw, p.y + p.h - hgt, bw, hgt, pooled_colour);
  }
  if (chains.size() < 2) return;
  for (std::size_t k = 0; k < each.size(); ++k) {
    std::vector<std::pair<double, double>> steps;
    for (int b = 0; b < bins; ++b) {
      const double y = p.py(each[k][static_cast<std::size_t>(b)] / top);
      steps.push_back({p.x + b * bw, y});
      steps.push_back({p.x + (b + 1) * bw, y});
    }
    c.polyline(steps, chain_colour(k));
  }
}

rank_counts count_ranks(const std::vector<std::vector<double>>& chains, int bins) {
  const auto ranks = pooled_ranks(chains);
  std::size_t total = 0;
  for (const auto& x : chains) total += x.size();
  rank_counts r;
  for (const auto& x : ranks) {
    r.counts.push_back(histogram(x, 0, static_cast<double>(total), bins));
    r.expected.push_back(static_cast<double>(x.size()) / bins);
    r.top = std::max({r.top, 2 * r.expected.back(), *std::max_element(r.counts.back().begin(), r.counts.back().end())});
  }
  return r;
}

void draw_ranks(canvas& c, const panel& p, const rank_counts& r, std::size_t k, rgb ink) {
  const auto& counts = r.counts[k];
  const double bw = p.w / static_cast<double>(counts.size());
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double hgt = counts[b] / r.top * p.h;
    c.rect(p.x + static_cast<double>(b) * bw + 0.5, p.y + p.h - hgt, bw - 1, hgt, chain_colour(k));
  }
  c.polyline({{p.x, p.py(r.expected[k] / r.top)}, {p.x + p.w, p.py(r.expected[k] / r.top)}}, ink);
}

}  // namespace ppl::cli
