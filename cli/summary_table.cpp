#include "cli/summary_table.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "runtime/diagnostics.hpp"

namespace ppl::cli {

std::size_t histogram_bin(double v, double lo, double hi, int bins) {
  // Halves keep hi - lo finite for any finite bounds (-1e308..1e308), so that the cast
  // never sees NaN or infinity, which it could not convert.
  const double t = hi > lo ? (v / 2 - lo / 2) / (hi / 2 - lo / 2) * bins : bins / 2;
  return static_cast<std::size_t>(std::clamp(t, 0.0, bins - 1.0));
}

bool want_histograms(bool asked) { return asked || isatty(STDOUT_FILENO) != 0; }

std::string text_histogram(std::vector<double> draws) {
  static const char* const blocks[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
  constexpr int bins = 10;
  draws.erase(std::remove_if(draws.begin(), draws.end(), [](double v) { return !std::isfinite(v); }), draws.end());
  if (draws.empty()) return std::string(bins, ' ');
  std::sort(draws.begin(), draws.end());
  const double lo = draws[draws.size() / 100], hi = draws[draws.size() - 1 - draws.size() / 100];
  std::vector<double> counts(bins, 0.0);
  for (double v : draws) {
    if (v < lo || v > hi) continue;
    counts[histogram_bin(v, lo, hi, bins)] += 1;
  }
  const double top = *std::max_element(counts.begin(), counts.end());
  std::string out;
  for (double c : counts) out += blocks[c > 0 ? std::max(1L, std::lround(8 * c / top)) : 0];
  return out;
}

std::vector<std::string> print_summary(const runtime::draws& d, const table_options& o) {
  std::map<std::string, std::size_t> count, shown;
  for (const auto& c : d.columns) ++count[runtime::column_variable(c)];
  fmt::print("{:<18} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>8} {:>8} {:>7} {:>6}{}\n", "name", "mean", "sd", "5%", "50%", "95%",
             "mcse", "ess_bulk", "ess_tail", "iat", "rhat", o.histograms ? "  distribution" : "");
  std::vector<std::string> warnings;
  std::size_t rows = 0;
  for (std::size_t c = 0; c < d.chains.size(); ++c) rows += d.rows(c);
  if (rows == 0) warnings.push_back("there are no draws to summarise");
  std::size_t bad_rhat = 0, low_ess = 0;
  std::string worst;
  for (std::size_t c = 0; c < d.columns.size(); ++c) {
    const std::string& name = d.columns[c];
    std::string base = runtime::column_variable(name);
    bool listed = count[base] <= o.max_rows_per_variable ||
                  std::find(o.show.begin(), o.show.end(), base) != o.show.end();
    auto chains = d.column(c);
    runtime::scalar_summary s = runtime::summarize(chains);
    if (s.rhat > 1.01) ++bad_rhat, worst = name;
    if (s.ess_bulk < 400 || s.ess_tail < 400) ++low_ess;
    // Large arrays: the first three elements, then a note on how to see the rest.
    if (!listed && shown[base]++ >= 3) {
      if (shown[base] == 4)
        fmt::print("{:<18} ... {} more elements of {} (list them with --show {}, or read the draws file)\n", "",
                   count[base] - 3, base, base);
      continue;
    }
    // The integrated autocorrelation time, in draws: how many draws one effective draw costs.
    std::size_t draws = 0;
    for (const auto& chain : chains) draws += chain.size();
    const double iat = static_cast<double>(draws) / s.ess_bulk;
    std::string histogram;
    if (o.histograms) {
      std::vector<double> pooled;
      for (const auto& chain : chains) pooled.insert(pooled.end(), chain.begin(), chain.end());
      histogram = "  " + text_histogram(std::move(pooled));
    }
    // R-hat with three decimals near 1, where they matter; a chain stuck at one value gives
    // an enormous one, shown in exponent form rather than as a row of digits.
    const std::string rhat = s.rhat < 1000 ? fmt::format("{:.3f}", s.rhat) : fmt::format("{:.2g}", s.rhat);
    fmt::print("{:<18} {:>10.4g} {:>10.4g} {:>10.4g} {:>10.4g} {:>10.4g} {:>9.2g} {:>8.0f} {:>8.0f} {:>7.3g} {:>6}{}\n", name, s.mean,
               s.sd, s.q5, s.q50, s.q95, s.mcse_mean, s.ess_bulk, s.ess_tail, iat, rhat, histogram);
  }
  if (bad_rhat)
    warnings.push_back(fmt::format("{} {} R-hat above 1.01 (e.g. {}): the chains have not mixed; run longer", bad_rhat,
                                   bad_rhat == 1 ? "quantity has" : "quantities have", worst));
  if (low_ess)
    warnings.push_back(fmt::format("{} {} a bulk or tail ESS below 400: estimates are imprecise", low_ess,
                                   low_ess == 1 ? "quantity has" : "quantities have"));
  return warnings;
}

}  // namespace ppl::cli
