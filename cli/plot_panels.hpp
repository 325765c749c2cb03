#pragma once
// The panels of `ppl plot` for one quantity, each drawn into its rectangle: traces of the
// chains, the density, and a chain's rank histogram.
#include <cstddef>
#include <vector>

#include "cli/picture.hpp"
#include "cli/picture_axes.hpp"

namespace ppl::cli {

// The colour of chain c (0-based), the same in every panel and in the legend.
rgb chain_colour(std::size_t c);

// Every chain over the draw index (the first draw at the left edge, the longest chain's
// last at the right), values lo..hi from the bottom to the top.
void draw_trace(canvas& c, const panel& p, const std::vector<std::vector<double>>& chains, double lo, double hi);

// The histogram of all draws pooled as bars of colour `pooled`, and with several chains
// each chain's histogram as a line of its colour; all as densities, scaled to the tallest.
void draw_density(canvas& c, const panel& p, const std::vector<std::vector<double>>& chains, double lo, double hi, rgb pooled);

// Rank plots (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, "Rank-normalization,
// folding, and localization", §4.1): the draws of all chains ranked together (ties get
// their average rank), each chain's ranks counted in `bins` equal bins.
struct rank_counts {
  std::vector<std::vector<double>> counts;  // per chain, per bin
  std::vector<double> expected;             // per chain: its draws / bins, the count if the chains mix
  double top = 0;                           // the panels' common scale: the largest count, at least twice the expected
};
rank_counts count_ranks(const std::vector<std::vector<double>>& chains, int bins);

// Chain k's rank counts as bars of its colour, on the scale 0..top, and the line of the
// expected count in `ink`.
void draw_ranks(canvas& c, const panel& p, const rank_counts& r, std::size_t k, rgb ink);

}  // namespace ppl::cli
