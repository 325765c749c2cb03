#pragma once
// The posterior summary table printed by `ppl infer`, `ppl summary` and the REPL, read
// from a draws file (or draws in memory) in bounded memory: columns are summarised batch
// by batch, and a column with more draws than table_options::column_cap is summarised
// from every k-th draw, which a note says.
#include <string>
#include <vector>

#include "draws/reader.hpp"
#include "inference/dic.hpp"

namespace ppl::cli {

struct table_options {
  std::size_t max_rows_per_variable = 20;  // larger arrays are summarised compactly
  std::vector<std::string> show;           // print every element of these variables
  bool histograms = false;                 // a text histogram of each scalar's draws
  // CSV for programs (`ppl summary --format csv`): a header row, then every column of every
  // array (no compaction), numbers to full precision, NA for a statistic that is n/a.
  bool csv = false;
  // A column is summarised from at most column_cap draws (beyond, every k-th), and at
  // most `budget` values are read at once.
  std::size_t column_cap = std::size_t{1} << 20;
  std::size_t budget = draws::draws_budget;
  std::vector<std::string> variables;      // only these variables (empty: all)
  // The quantiles listed, as probabilities (empty: 0.05, 0.5, 0.95): rstan's probs,
  // CmdStan's --percentiles.
  std::vector<double> quantiles;
  // The draws are independent (rejection's, an approximation's): split R-hat then measures
  // chance alone, above 1.01 for some of many quantities, and is not warned about.
  bool independent = false;
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

struct summary_messages {
  std::vector<std::string> warnings;  // printed as `warning: ...` on standard error
  std::vector<std::string> notes;     // printed as `note: ...` after the table
};

// Prints (as a table, or as CSV with o.csv) one row per scalar column (name, mean, sd, 5%, 50%, 95%, mcse, ess_bulk,
// ess_tail, iat, rhat, and with histograms a text histogram; lp__ included, the other
// sampler columns not) and returns: warnings for R-hat > 1.01 or ESS < 400, and from the
// Hamiltonian columns for divergent transitions, transitions at the maximum tree depth and
// an E-BFMI below 0.3; notes explaining every statistic printed as n/a. Throws
// std::invalid_argument when `show` names a variable the draws do not have.
summary_messages print_summary(const draws::draws_source& d, const table_options& o);

// When the draws have a `deviance` column (ppl infer --dic): its mean and DIC with each
// penalty, DIC = mean deviance + penalty; JAGS's pD and Spiegelhalter et al.'s from
// `penalties` (n/a without them: they need the model), pV = var(deviance) / 2 from the
// column. A penalty that cannot be computed says why.
void print_dic(const draws::draws_source& draws, const inference::dic_penalties* penalties);

}  // namespace ppl::cli
