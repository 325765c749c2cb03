// `ppl plot DRAWS.csv NAME... --output FILE.svg|FILE.png`: for each named quantity a row
// of panels — the trace of every chain over the iterations, the density (a histogram of
// all draws with each chain's histogram drawn over it), and rank plots, one panel per
// chain: when the chains mix, every chain's bars are level with the line of the expected
// count. A legend above the rows names the chains by colour. A NAME that is an array
// stands for its elements (the first --max-elements). `--elbo` draws instead the ELBO's
// trace that `ppl infer --method advi` writes in its header (`# elbo: ITERATION VALUE`).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/picture.hpp"
#include "cli/picture_axes.hpp"
#include "cli/plot_panels.hpp"
#include "cli/session.hpp"
#include "draws/draws.hpp"

namespace ppl::cli {

namespace {

struct plot_options {
  std::string draws_path, output;
  std::vector<std::string> names;  // scalars or arrays (an array stands for its elements)
  int max_elements = 10;           // of each array
  bool elbo = false;               // the ELBO's trace from the header, not quantities
};

const rgb grey{150, 150, 150}, pale{205, 215, 230};
constexpr int rank_bins = 20;

// The columns NAME (a scalar) or NAME[...] (an array's elements), in file order.
std::vector<std::size_t> columns_of(const draws::table& d, const std::string& name, int max_elements) {
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < d.columns.size(); ++c) {
    const std::string& col = d.columns[c];
    if (col == name || (col.size() > name.size() && col.compare(0, name.size(), name) == 0 && col[name.size()] == '['))
      out.push_back(c);
  }
  if (out.empty())
    throw std::invalid_argument("plot: the draws have no column `" + name + "`; monitor it with --monitor " + draws::column_variable(name));
  if (out.size() > static_cast<std::size_t>(max_elements)) out.resize(static_cast<std::size_t>(max_elements));
  return out;
}

// One row of the picture: a column's draws per chain and the range of its finite values.
struct quantity {
  std::string name;
  std::vector<std::vector<double>> draws;
  double lo = INFINITY, hi = -INFINITY;
  rank_counts ranks;
};

quantity read_quantity(const draws::table& d, std::size_t column) {
  quantity q;
  q.name = d.columns[column];
  q.draws = d.column(column);
  for (const auto& x : q.draws)
    for (double v : x)
      if (std::isfinite(v)) q.lo = std::min(q.lo, v), q.hi = std::max(q.hi, v);
  if (!(q.lo < q.hi)) q.lo -= 0.5, q.hi += 0.5;  // a constant (or no finite value): a unit band around it
  const double pad = 0.04 * (q.hi - q.lo);           // so that the extremes do not lie on the frame
  if (std::isfinite(pad)) q.lo -= pad, q.hi += pad;
  q.ranks = count_ranks(q.draws, rank_bins);
  return q;
}

// Where everything goes, the same in every row. Left of a panel with a value axis: its
// title (reading upwards), the tick labels, the tick marks.
struct layout {
  static constexpr double margin = 10, gap = 22, panel_h = 110, title_h = 15, rank_w = 130, rank_gap = 10;
  static constexpr double trace_w = 360, density_w = 220, legend_h = text_height + 12;
  static constexpr double axis_h = 3 + 2 + text_height + 2 + text_height;  // ticks, their labels, the axis title
  static constexpr double row_h = title_h + panel_h + axis_h + 16;
  double trace_x = 0, density_x = 0, ranks_x = 0, width = 0, height = 0;

  static double value_axis(double label_w) { return text_height + 6 + label_w + 5; }

  layout(const std::vector<quantity>& rows, std::size_t chains) {
    double label_w = 0, rank_label_w = 0;
    for (const auto& q : rows) {
      label_w = std::max(label_w, tick_labels_width({q.lo, q.hi}, panel_h));
      rank_label_w = std::max(rank_label_w, tick_labels_width({0, q.ranks.top, true}, panel_h));
    }
    trace_x = margin + value_axis(label_w);
    density_x = trace_x + trace_w + gap + text_height + 6;
    ranks_x = density_x + density_w + gap + value_axis(rank_label_w);
    width = ranks_x + static_cast<double>(chains) * (rank_w + rank_gap) - rank_gap + margin;
    height = margin + legend_h + static_cast<double>(rows.size()) * row_h + margin;
  }
};

// The legend: a swatch per chain, the pooled density's colour, the expected rank count.
void draw_legend(canvas& c, const layout& l, std::size_t chains) {
  double x = l.trace_x;
  const double y = layout::margin;
  auto item = [&](const std::string& label, auto&& mark) {
    mark(x, y);
    c.text(x + 14, y, label, ink);
    x += 14 + text_width(label) + 16;
  };
  for (std::size_t k = 0; k < chains; ++k)
    item(fmt::format("chain {}", k + 1), [&](double x0, double y0) { c.rect(x0, y0 + 1, 10, 9, chain_colour(k)); });
  item("all chains (density)", [&](double x0, double y0) { c.rect(x0, y0 + 1, 10, 9, pale); });
  item("expected count (ranks)", [&](double x0, double y0) { c.polyline({{x0, y0 + 5}, {x0 + 10, y0 + 5}}, ink); });
}

void draw_row(canvas& c, const layout& l, const quantity& q, double y) {
  const double top = y + layout::title_h;
  const panel trace{l.trace_x, top, layout::trace_w, layout::panel_h}, density{l.density_x, top, layout::density_w, layout::panel_h};
  std::size_t longest = 0;
  for (const auto& x : q.draws) longest = std::max(longest, x.size());
  c.text(trace.x, y, fit_text(q.name + ": trace", trace.w), ink);
  c.frame(trace.x, trace.y, trace.w, trace.h, grey);
  left_axis(c, trace, {q.lo, q.hi}, "value", layout::margin, ink);
  bottom_axis(c, trace, {1, static_cast<double>(longest), true}, "iteration", ink);
  draw_trace(c, trace, q.draws, q.lo, q.hi);

  c.text(density.x, y, fit_text(q.name + ": density", density.w), ink);
  c.frame(density.x, density.y, density.w, density.h, grey);
  c.text_up(density.x - 6 - text_height, density.y + density.h / 2, "density", ink);
  bottom_axis(c, density, {q.lo, q.hi}, "value", ink);
  draw_density(c, density, q.draws, q.lo, q.hi, pale);

  for (std::size_t k = 0; k < q.draws.size(); ++k) {
    const panel r{l.ranks_x + static_cast<double>(k) * (layout::rank_w + layout::rank_gap), top, layout::rank_w, layout::panel_h};
    c.text(r.x, y, fit_text(fmt::format("ranks, chain {}", k + 1), r.w), ink);
    c.frame(r.x, r.y, r.w, r.h, grey);
    if (k == 0) {  // the chains' rank panels share their scale, so only the first is labelled
      const scale counts{0, q.ranks.top, true};
      left_axis(c, r, counts, "count", r.x - layout::value_axis(tick_labels_width(counts, r.h)), ink);
    }
    bottom_axis(c, r, {0.5, rank_bins + 0.5, true}, "rank bin", ink);  // bin b's middle is at b
    draw_ranks(c, r, q.ranks, k, ink);
  }
}

void check_draws(const draws::table& d) {
  if (d.chains.empty()) throw std::invalid_argument("plot: the draws file has no draws");
  for (std::size_t k = 0; k < d.chains.size(); ++k)
    if (d.rows(k) < 2)
      throw std::invalid_argument(fmt::format("plot: chain {} has {} draw{}; a plot needs at least 2 per chain", k + 1, d.rows(k),
                                              d.rows(k) == 1 ? "" : "s"));
}

// The header's `elbo: ITERATION VALUE` lines (their `# ` gone, or not).
std::vector<std::pair<double, double>> elbo_trace(const std::vector<std::string>& meta) {
  std::vector<std::pair<double, double>> out;
  for (std::string line : meta) {
    if (line.starts_with("# ")) line = line.substr(2);
    if (!line.starts_with("elbo: ")) continue;
    double k = 0, v = 0;
    if (std::sscanf(line.c_str() + 6, "%lf %lf", &k, &v) == 2 && std::isfinite(v)) out.emplace_back(k, v);
  }
  return out;
}

// One panel: the ELBO against the iteration, a line through its estimates.
int plot_elbo(const plot_options& o, const std::vector<std::string>& meta) {
  const auto trace = elbo_trace(meta);
  if (trace.size() < 2)
    throw std::invalid_argument("plot --elbo: " + o.draws_path + " has " + std::to_string(trace.size()) + " finite ELBO estimate" +
                                (trace.size() == 1 ? "" : "s") + " (`# elbo:` lines) in its header; the trace comes from ppl infer "
                                "--method advi and needs at least 2");
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& [k, v] : trace) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(lo < hi)) lo -= 0.5, hi += 0.5;
  const double pad = 0.04 * (hi - lo);
  lo -= pad, hi += pad;
  const double label_w = tick_labels_width({lo, hi}, layout::panel_h);
  const panel p{layout::margin + layout::value_axis(label_w), layout::margin + layout::title_h, layout::trace_w, layout::panel_h};
  const double width = p.x + p.w + layout::margin, height = p.y + p.h + layout::axis_h + layout::margin;
  auto c = make_canvas(o.output, static_cast<int>(std::ceil(width)), static_cast<int>(std::ceil(height)), "plot");
  c->rect(0, 0, width, height, rgb{255, 255, 255});
  c->text(p.x, layout::margin, fit_text("ELBO (" + std::to_string(trace.size()) + " estimates)", p.w), ink);
  c->frame(p.x, p.y, p.w, p.h, grey);
  const double first = trace.front().first, last = trace.back().first;
  left_axis(*c, p, {lo, hi}, "ELBO", layout::margin, ink);
  bottom_axis(*c, p, {first, last, true}, "iteration", ink);
  std::vector<std::pair<double, double>> points;
  for (const auto& [k, v] : trace) points.emplace_back(p.px((k - first) / (last - first)), p.py((v - lo) / (hi - lo)));
  c->polyline(points, chain_colour(0));
  c->save(o.output);
  fmt::print("{}: {} estimates of the ELBO, iterations {:g} to {:g}\n", o.output, trace.size(), first, last);
  return 0;
}

int run_plot(const plot_options& o) {
  return guarded([&] {
    std::vector<std::string> meta;
    const draws::table d = draws::read_draws(o.draws_path, meta);
    if (o.elbo) {
      if (!o.names.empty()) throw std::invalid_argument("plot --elbo draws the ELBO's trace alone; it takes no NAME");
      return plot_elbo(o, meta);
    }
    if (o.names.empty()) throw std::invalid_argument("plot: name the quantities to plot (or give --elbo for ADVI's ELBO)");
    std::vector<std::size_t> columns;
    for (const auto& name : o.names) {
      auto c = columns_of(d, name, o.max_elements);
      columns.insert(columns.end(), c.begin(), c.end());
    }
    check_draws(d);
    std::vector<quantity> rows;
    for (std::size_t col : columns) rows.push_back(read_quantity(d, col));
    const std::size_t chains = d.chains.size();
    const layout l(rows, chains);
    auto c = make_canvas(o.output, static_cast<int>(std::ceil(l.width)), static_cast<int>(std::ceil(l.height)), "plot");
    c->rect(0, 0, l.width, l.height, rgb{255, 255, 255});
    draw_legend(*c, l, chains);
    for (std::size_t i = 0; i < rows.size(); ++i) draw_row(*c, l, rows[i], layout::margin + layout::legend_h + static_cast<double>(i) * layout::row_h);
    c->save(o.output);
    fmt::print("{}: {} quantit{}, {} chain{}: trace, density, rank plots\n", o.output, columns.size(),
               columns.size() == 1 ? "y" : "ies", chains, chains == 1 ? "" : "s");
    return 0;
  });
}

}  // namespace

command add_plot_command(CLI::App& app) {
  auto o = std::make_shared<plot_options>();
  auto* cmd = app.add_subcommand("plot", "trace, density and rank plots (one panel per chain) of quantities in a draws file, as SVG or PNG");
  cmd->add_option("DRAWS", o->draws_path, "a draws file: from ppl infer (any format), ppl simulate, CmdStan or JAGS (CODA: STEMindex.txt)")->required();
  cmd->add_option("NAME", o->names, "quantities: scalars such as mu or theta[2], or arrays (their first elements)");
  cmd->add_option("--output,-o", o->output, "the picture: FILE.svg or FILE.png")->type_name("FILE")->required();
  cmd->add_option("--max-elements", o->max_elements, "elements of each array plotted")->capture_default_str()
      ->check(whole(1, 1000));
  cmd->add_flag("--elbo", o->elbo, "the ELBO against the iteration, from the header of a ppl infer --method advi run, in place of NAMEs (default: the NAMEs' panels)");
  return {cmd, [o] { return run_plot(*o); }};
}

}  // namespace ppl::cli
