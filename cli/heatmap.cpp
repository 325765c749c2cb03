// `ppl heatmap`: a 2-D monitored array drawn as a picture — its posterior mean, or one draw
// (an Ising spin field) — as SVG or PNG, under a title naming the variable and the draw,
// with row numbers (the first index) at the left and column numbers above.
// Colours run from blue (the smallest value) through white to red (the largest), or over
// a range given with --range; a colour bar beside the grid gives the scale's values.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/picture.hpp"
#include "cli/picture_axes.hpp"
#include "cli/session.hpp"
#include "draws/draws.hpp"

namespace ppl::cli {

namespace {

struct heatmap_options {
  std::string draws_path, variable, output;
  long draw = 0;              // 0: the posterior mean; -1: the last draw; n: draw n
  int chain = 0;              // 0: every chain for the mean, chain 1 for a draw
  std::vector<double> range;  // LOW HIGH, or empty for the values' own range
  int cell = 0;               // pixels per element; 0: about 512 pixels across
};

struct grid {
  std::size_t rows = 0, cols = 0;
  std::vector<double> values;  // row-major
  std::size_t draws = 0;       // in the chains read
  std::size_t chains = 1;      // how many were read (the mean of all: every chain)
};

// The columns NAME[i,j] of the draws, as a grid of posterior means or of draw `draw`.
grid read_grid(const draws::table& d, const std::string& name, const heatmap_options& o) {
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> cells;  // (i, j) -> column
  grid g;
  for (std::size_t c = 0; c < d.columns.size(); ++c) {
    const std::string& col = d.columns[c];
    if (col.size() <= name.size() + 1 || col.compare(0, name.size(), name) != 0 || col[name.size()] != '[') continue;
    std::size_t i = 0, j = 0;
    if (std::sscanf(col.c_str() + name.size(), "[%zu,%zu]", &i, &j) != 2 || i == 0 || j == 0) continue;
    cells[{i, j}] = c;
    g.rows = std::max(g.rows, i);
    g.cols = std::max(g.cols, j);
  }
  if (cells.empty())
    throw std::invalid_argument("heatmap: the draws have no matrix `" + name + "` (columns " + name + "[i,j]); monitor it with --monitor " + name);
  if (cells.size() != g.rows * g.cols)
    throw std::invalid_argument(fmt::format("heatmap: the draws have only {} of the {} x {} elements of `{}` (columns {}[i,j])", cells.size(),
                                            g.rows, g.cols, name, name));
  if (d.chains.empty()) throw std::invalid_argument("heatmap: the draws file has no draws");
  if (o.chain < 0 || static_cast<std::size_t>(o.chain) > d.chains.size())
    throw std::invalid_argument(fmt::format("heatmap: --chain {} but the draws have {} chain{}", o.chain, d.chains.size(),
                                            d.chains.size() == 1 ? "" : "s"));
  // The mean pools every chain unless --chain names one; a draw is of one chain (the first by default).
  const bool pooled = o.chain == 0 && o.draw == 0;
  const std::size_t first = o.chain > 0 ? static_cast<std::size_t>(o.chain - 1) : 0;
  const std::size_t last = pooled ? d.chains.size() : first + 1;
  for (std::size_t c = first; c < last; ++c) {
    if (d.rows(c) == 0) throw std::invalid_argument(fmt::format("heatmap: chain {} has no draws", c + 1));
    g.draws += d.rows(c);
  }
  g.chains = last - first;
  const std::size_t rows = d.rows(first);
  if (o.draw > static_cast<long>(rows))
    throw std::invalid_argument(fmt::format("heatmap: --draw {} but chain {} has {} draws", o.draw, first + 1, rows));
  g.values.assign(g.rows * g.cols, 0.0);
  const std::size_t width = d.columns.size();
  for (const auto& [ij, c] : cells) {
    double& v = g.values[(ij.first - 1) * g.cols + ij.second - 1];
    if (o.draw > 0) {
      v = d.chains[first][static_cast<std::size_t>(o.draw - 1) * width + c];
    } else if (o.draw < 0) {  // the last draw
      v = d.chains[first][(rows - 1) * width + c];
    } else {
      for (std::size_t k = first; k < last; ++k)
        for (std::size_t r = 0; r < static_cast<std::size_t>(d.rows(k)); ++r) v += d.chains[k][r * width + c];
      v /= static_cast<double>(g.draws);
    }
  }
  if (o.draw != 0) g.draws = rows;
  return g;
}

// Blue (0) - white (0.5) - red (1).
rgb colour(double t) {
  t = std::clamp(std::isfinite(t) ? t : 0.5, 0.0, 1.0);
  auto mix = [](double a, double b, double s) { return static_cast<unsigned char>(std::lround(a + (b - a) * s)); };
  if (t < 0.5) return {mix(33, 255, 2 * t), mix(102, 255, 2 * t), mix(172, 255, 2 * t)};
  return {mix(255, 178, 2 * t - 1), mix(255, 24, 2 * t - 1), mix(255, 43, 2 * t - 1)};
}

constexpr double margin = 10, title_h = 18, bar_w = 14, bar_gap = 14, bar_min_h = 120;

// "s: posterior mean of chain 1 (500 draws)", "s: draw 7 of chain 2", "s: draw 500 of chain 1 (the last)".
std::string title(const heatmap_options& o, const grid& g) {
  const int chain = std::max(o.chain, 1);
  if (o.draw == 0 && g.chains > 1) return fmt::format("{}: posterior mean of {} chains ({} draws)", o.variable, g.chains, g.draws);
  if (o.draw == 0) return fmt::format("{}: posterior mean of chain {} ({} draw{})", o.variable, chain, g.draws, g.draws == 1 ? "" : "s");
  if (o.draw < 0) return fmt::format("{}: draw {} of chain {} (the last)", o.variable, g.draws, chain);
  return fmt::format("{}: draw {} of chain {}", o.variable, o.draw, chain);
}

// The indices (from 1) an axis of n cells, `cell` pixels each, labels: 1, the multiples
// of a step of 1, 2 or 5 times a power of ten, and n, each at least `room` pixels after the
// one before.
std::vector<std::size_t> axis_labels(std::size_t n, double cell, double room) {
  std::size_t step = 1;
  for (std::size_t power = 1; static_cast<double>(step) * cell < room; power *= 10)
    for (std::size_t factor : {1, 2, 5}) {
      step = factor * power;
      if (static_cast<double>(step) * cell >= room) break;
    }
  std::vector<std::size_t> out{1};
  auto add = [&](std::size_t k) {
    if (k <= n && static_cast<double>(k - out.back()) * cell >= room) out.push_back(k);
  };
  for (std::size_t k = step; k <= n; k += step) add(k);
  add(n);
  return out;
}

// The scale from lo (bottom) to hi (top) in strips of its colours, with its values; for
// values all alike, one white strip labelled with the value.
void colour_bar(canvas& c, const panel& p, double lo, double hi) {
  const int strips = lo < hi ? 64 : 1;
  for (int k = 0; k < strips; ++k)
    c.rect(p.x, p.py(static_cast<double>(k + 1) / strips), p.w, p.h / strips, colour(strips == 1 ? 0.5 : (k + 0.5) / strips));
  c.frame(p.x, p.y, p.w, p.h, ink);
  if (lo < hi) right_axis(c, p, {lo, hi}, ink);
  else c.text(p.x + p.w + 5, p.y + p.h / 2 - text_height / 2, fmt::format("{:g}", lo), ink);
}

int run_heatmap(const heatmap_options& o) {
  return guarded([&] {
    std::vector<std::string> meta;
    const draws::table d = draws::read_draws(o.draws_path, meta);
    const grid g = read_grid(d, o.variable, o);
    double lo = o.range.size() == 2 ? o.range[0] : *std::min_element(g.values.begin(), g.values.end());
    double hi = o.range.size() == 2 ? o.range[1] : *std::max_element(g.values.begin(), g.values.end());
    if (o.range.size() == 2 && !(lo < hi)) throw std::invalid_argument(fmt::format("heatmap: --range needs LOW < HIGH, got {} and {}", lo, hi));
    std::vector<rgb> cells;
    for (double v : g.values) cells.push_back(colour(hi > lo ? (v - lo) / (hi - lo) : 0.5));
    const int cell = o.cell > 0 ? o.cell : static_cast<int>(std::max<std::size_t>(1, 512 / std::max(g.rows, g.cols)));
    const double grid_w = static_cast<double>(g.cols * static_cast<std::size_t>(cell)), grid_h = static_cast<double>(g.rows * static_cast<std::size_t>(cell));
    // Row numbers to the left of the grid, column numbers above it.
    const double row_w = text_width(std::to_string(g.rows)) + 4, col_h = text_height + 3;
    const double grid_x = margin + row_w, grid_y = margin + title_h + col_h;
    const panel bar{grid_x + grid_w + bar_gap, grid_y, bar_w, std::max(grid_h, bar_min_h)};
    const std::string heading = title(o, g);
    const double labels_w = lo < hi ? tick_labels_width({lo, hi}, bar.h) : text_width(fmt::format("{:g}", lo));
    const double width = std::max(bar.x + bar.w + 5 + labels_w, margin + text_width(heading)) + margin;
    const double height = bar.y + std::max(grid_h, bar.h) + margin;
    auto picture = make_canvas(o.output, static_cast<int>(std::ceil(width)), static_cast<int>(std::ceil(height)), "heatmap");
    picture->rect(0, 0, width, height, rgb{255, 255, 255});
    picture->text(margin, margin, heading, ink);
    for (std::size_t i = 0; i < g.rows; ++i)
      for (std::size_t j = 0; j < g.cols; ++j)
        picture->rect(grid_x + static_cast<double>(j) * cell, grid_y + static_cast<double>(i) * cell, cell, cell, cells[i * g.cols + j]);
    const double c = cell;
    for (std::size_t i : axis_labels(g.rows, c, text_height + 2))
      picture->text(grid_x - 4, grid_y + (static_cast<double>(i) - 0.5) * c - text_height / 2, std::to_string(i), ink, anchor::end);
    for (std::size_t j : axis_labels(g.cols, c, text_width(std::to_string(g.cols)) + 6))
      picture->text(grid_x + (static_cast<double>(j) - 0.5) * c, grid_y - col_h, std::to_string(j), ink, anchor::middle);
    colour_bar(*picture, bar, lo, hi);
    picture->save(o.output);
    fmt::print("{}: {} x {} {}, {:.4g} .. {:.4g} (blue to red)\n", o.output, g.rows, g.cols,
               o.draw == 0 ? "posterior means" : (o.draw < 0 ? "values of the last draw" : fmt::format("values of draw {}", o.draw)), lo, hi);
    return 0;
  });
}

struct heatmap_arguments {
  heatmap_options o;
  std::string draw = "mean";  // --draw as given: mean, last or a draw number
};

// --draw read into the options (a usage error, exit status 2, when it is none of its
// forms), then the run.
int run_heatmap_command(heatmap_arguments& a) {
  if (a.draw == "last") a.o.draw = -1;
  else if (a.draw != "mean") {
    try {
      std::size_t used = 0;
      a.o.draw = std::stol(a.draw, &used);
      if (used != a.draw.size() || a.o.draw < 1) throw std::invalid_argument(a.draw);
    } catch (const std::exception&) {
      std::cerr << "error: --draw: expected mean, last or a draw number from 1, got " << a.draw
                << "\nRun with --help for more information.\n";
      return 2;
    }
  }
  return run_heatmap(a.o);
}

}  // namespace

command add_heatmap_command(CLI::App& app) {
  auto a = std::make_shared<heatmap_arguments>();
  auto* cmd = app.add_subcommand("heatmap", "draw a monitored matrix (a spin field, a mean field) as an SVG or PNG heat map");
  cmd->add_option("DRAWS", a->o.draws_path, "a draws file: from ppl infer (any format), ppl simulate, CmdStan or JAGS (CODA: STEMindex.txt)")->required();
  cmd->add_option("NAME", a->o.variable, "the matrix, e.g. s")->required();
  cmd->add_option("--output,-o", a->o.output, "the picture: FILE.svg or FILE.png")->type_name("FILE")->required();
  cmd->add_option("--draw", a->draw, "mean (posterior mean), last (the last draw) or a draw number")->capture_default_str();
  cmd->add_option("--chain", a->o.chain,
                  "the chain the draws come from (default: every chain for the posterior mean, the first for a draw)")
      ->check(whole(1, 256));
  cmd->add_option("--range", a->o.range, "LOW HIGH: the values mapped to blue and red (default: the values' own range)")
      ->expected(2)
      ->check(real(-INFINITY, INFINITY));
  cmd->add_option("--cell", a->o.cell, "pixels per element (default: about 512 pixels across)")->check(whole(1, 100));
  return {cmd, [a] { return run_heatmap_command(*a); }};
}

}  // namespace ppl::cli
