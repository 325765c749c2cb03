// `ppl plot DRAWS.csv NAME... --output FILE.svg|FILE.png`: for each named quantity a row
// of panels — the trace of every chain, the density (a histogram of all draws with each
// chain's histogram drawn over it), and rank plots, one panel per chain (Vehtari, Gelman,
// Simpson, Carpenter & Bürkner 2021, "Rank-normalization, folding, and localization",
// §4.1): the draws of all chains are ranked together and each chain's ranks binned; when
// the chains mix, every chain's bars are level with the line of the expected count.
// A NAME that is an array stands for its elements (the first --max-elements).
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/picture.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "runtime/draws.hpp"

namespace ppl::cli {

namespace {

const rgb ink{40, 40, 40}, grey{150, 150, 150}, pale{205, 215, 230};
const rgb chain_colours[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
                             {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127}};
rgb chain_colour(std::size_t c) { return chain_colours[c % std::size(chain_colours)]; }

// The columns NAME (a scalar) or NAME[...] (an array's elements), in file order.
std::vector<std::size_t> columns_of(const runtime::draws& d, const std::string& name, int max_elements) {
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < d.columns.size(); ++c) {
    const std::string& col = d.columns[c];
    if (col == name || (col.size() > name.size() && col.compare(0, name.size(), name) == 0 && col[name.size()] == '['))
      out.push_back(c);
  }
  if (out.empty())
    throw std::invalid_argument("plot: the draws have no column `" + name + "`; monitor it with --monitor " + runtime::column_variable(name));
  if (out.size() > static_cast<std::size_t>(max_elements)) out.resize(static_cast<std::size_t>(max_elements));
  return out;
}

std::string label(double v) { return fmt::format("{:.4g}", v); }

struct panel {
  double x, y, w, h;
  double px(double t) const { return x + t * w; }   // t in [0, 1] from the left
  double py(double t) const { return y + h - t * h; }  // t in [0, 1] from the bottom
};

// Traces: every chain over the draw index, thinned to at most two points per pixel column
// (each column's lowest and highest value, so that the envelope is kept).
void draw_trace(canvas& c, const panel& p, const std::vector<std::vector<double>>& chains, double lo, double hi) {
  std::size_t longest = 0;
  for (const auto& x : chains) longest = std::max(longest, x.size());
  const auto columns = static_cast<std::size_t>(p.w);
  for (std::size_t k = 0; k < chains.size(); ++k) {
    const auto& x = chains[k];
    std::vector<std::pair<double, double>> points;
    auto at = [&](std::size_t i) { return std::pair{p.px(longest > 1 ? static_cast<double>(i) / static_cast<double>(longest - 1) : 0.5),
                                                     p.py((x[i] - lo) / (hi - lo))}; };
    if (x.size() <= 2 * columns) {
      for (std::size_t i = 0; i < x.size(); ++i) points.push_back(at(i));
    } else {
      for (std::size_t col = 0; col < columns; ++col) {
        const std::size_t a = col * x.size() / columns, b = std::max(a + 1, (col + 1) * x.size() / columns);
        const auto [mn, mx] = std::minmax_element(x.begin() + static_cast<long>(a), x.begin() + static_cast<long>(b));
        const auto first = static_cast<std::size_t>(mn - x.begin()), second = static_cast<std::size_t>(mx - x.begin());
        points.push_back(at(std::min(first, second)));
        points.push_back(at(std::max(first, second)));
      }
    }
    c.polyline(points, chain_colour(k));
  }
}

std::vector<double> histogram(const std::vector<double>& x, double lo, double hi, int bins) {
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (double v : x) {
    if (!std::isfinite(v)) continue;  // NaN has no bin, and converting it to int is undefined
    counts[histogram_bin(v, lo, hi, bins)] += 1;
  }
  return counts;
}

// The pooled histogram as bars, each chain's as a step line, all as densities.
void draw_density(canvas& c, const panel& p, const std::vector<std::vector<double>>& chains, double lo, double hi) {
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
  const double bw = p.w / bins;
  for (int b = 0; b < bins; ++b) {
    const double hgt = pooled[static_cast<std::size_t>(b)] / static_cast<double>(all.size()) / top * p.h;
    c.rect(p.x + b * bw, p.y + p.h - hgt, bw, hgt, pale);
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

void draw_ranks(canvas& c, const panel& p, const std::vector<double>& ranks, std::size_t total, std::size_t chain) {
  constexpr int bins = 20;
  const auto counts = histogram(ranks, 0, static_cast<double>(total), bins);
  const double expected = static_cast<double>(ranks.size()) / bins;
  const double top = std::max(2 * expected, *std::max_element(counts.begin(), counts.end()));
  const double bw = p.w / bins;
  for (int b = 0; b < bins; ++b) {
    const double hgt = counts[static_cast<std::size_t>(b)] / top * p.h;
    c.rect(p.x + b * bw + 0.5, p.y + p.h - hgt, bw - 1, hgt, chain_colour(chain));
  }
  c.polyline({{p.x, p.py(expected / top)}, {p.x + p.w, p.py(expected / top)}}, ink);
}

}  // namespace

int run_plot(const plot_options& o) {
  return guarded([&] {
    std::vector<std::string> meta;
    const runtime::draws d = runtime::read_draws(o.draws_path, meta);
    std::vector<std::size_t> columns;
    for (const auto& name : o.names) {
      auto c = columns_of(d, name, o.max_elements);
      columns.insert(columns.end(), c.begin(), c.end());
    }
    const std::size_t chains = d.chains.size();
    if (chains == 0) throw std::invalid_argument("plot: the draws file has no draws");
    for (std::size_t k = 0; k < chains; ++k)
      if (d.rows(k) < 2)
        throw std::invalid_argument(fmt::format("plot: chain {} has {} draw{}; a plot needs at least 2 per chain", k + 1, d.rows(k),
                                                d.rows(k) == 1 ? "" : "s"));
    // Layout: a row per quantity; trace 360 px, density 220 px, ranks 130 px per chain.
    const double margin = 12, title = 16, axis = 84, row_h = 110, gap = 26;
    const double trace_w = 360, density_w = 220, rank_w = 130;
    const double width = axis + trace_w + gap + density_w + gap + static_cast<double>(chains) * (rank_w + 10) + margin;
    const double height = margin + static_cast<double>(columns.size()) * (title + row_h + gap) + 14;
    auto c = make_canvas(o.output, static_cast<int>(width), static_cast<int>(height), "plot");
    c->rect(0, 0, width, height, rgb{255, 255, 255});
    double y = margin;
    for (std::size_t col : columns) {
      const auto draws = d.column(col);
      double lo = INFINITY, hi = -INFINITY;
      for (const auto& x : draws)
        for (double v : x)
          if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
      if (!(lo < hi)) lo -= 0.5, hi += 0.5;  // a constant (or no finite value): a unit band around it
      const std::string& name = d.columns[col];
      panel trace{axis, y + title, trace_w, row_h}, density{axis + trace_w + gap, y + title, density_w, row_h};
      c->text(trace.x, y, name + ": trace", ink);
      c->text(density.x, y, "density", ink);
      c->frame(trace.x, trace.y, trace.w, trace.h, grey);
      c->frame(density.x, density.y, density.w, density.h, grey);
      c->text(4, trace.y, label(hi), ink);
      c->text(4, trace.y + trace.h - 10, label(lo), ink);
      c->text(density.x, density.y + density.h + 2, label(lo), ink);
      c->text(density.x + density.w - text_width(label(hi)), density.y + density.h + 2, label(hi), ink);
      draw_trace(*c, trace, draws, lo, hi);
      draw_density(*c, density, draws, lo, hi);
      const auto ranks = pooled_ranks(draws);
      std::size_t total = 0;
      for (const auto& x : draws) total += x.size();
      for (std::size_t k = 0; k < chains; ++k) {
        panel r{density.x + density.w + gap + static_cast<double>(k) * (rank_w + 10), y + title, rank_w, row_h};
        c->text(r.x, y, fmt::format("ranks, chain {}", k + 1), ink);
        c->frame(r.x, r.y, r.w, r.h, grey);
        draw_ranks(*c, r, ranks[k], total, k);
      }
      y += title + row_h + gap;
    }
    c->save(o.output);
    fmt::print("{}: {} quantit{}, {} chain{}: trace, density, rank plots\n", o.output, columns.size(),
               columns.size() == 1 ? "y" : "ies", chains, chains == 1 ? "" : "s");
    return 0;
  });
}

}  // namespace ppl::cli
