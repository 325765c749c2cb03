#pragma once
// The posterior summary table printed by `ppl infer` and `ppl summary`.
#include <string>
#include <vector>

#include "runtime/draws.hpp"

namespace ppl::cli {

struct table_options {
  std::size_t max_rows_per_variable = 20;  // larger arrays are summarised compactly
  std::vector<std::string> show;           // print every element of these variables
  bool histograms = false;                 // a text histogram of each scalar's draws
};

// The bin of a finite value v among `bins` equal bins over [lo, hi]; values outside go to
// the end bins, and a range of no width to the middle one.
std::size_t histogram_bin(double v, double lo, double hi, int bins);

// Whether the summary gets histograms: when asked for (--histograms), or by default when
// standard output is a terminal.
bool want_histograms(bool asked);

// Ten bars of block characters (U+2581..U+2588) for the draws between their 1% and 99%
// quantiles, each bar's height in eighths of the tallest: "▁▃▆█▇▄▂▁  ".
std::string text_histogram(std::vector<double> draws);

// Prints one row per scalar column (name, mean, sd, 5%, 50%, 95%, mcse, ess_bulk,
// ess_tail, iat, rhat, and with histograms a text histogram) and warnings for R-hat > 1.01 or ESS < 400. Returns the warnings.
std::vector<std::string> print_summary(const runtime::draws& d, const table_options& o);

}  // namespace ppl::cli
