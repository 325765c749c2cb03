#include "draws/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "draws/diagnostics_internal.hpp"

namespace ppl::draws {

namespace {

using detail::ranked_draw;
using detail::series_set;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The first n draws of every chain are finite.
bool all_finite(const chains_t& chains, std::size_t n) {
  return std::all_of(chains.begin(), chains.end(),
                     [n](const std::vector<double>& c) { return std::all_of(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n), [](double x) { return std::isfinite(x); }); });
}

// The contract of the exposed estimators; a message names the function, as Stan Math's do.
void check_chains(const chains_t& chains, std::size_t min_chains, const char* function) {
  std::string f = function;
  if (chains.size() < min_chains)
    throw std::invalid_argument(f + ": needs at least " + std::to_string(min_chains) + " chain(s), got " +
                                std::to_string(chains.size()));
  for (const auto& c : chains)
    if (c.size() != chains[0].size())
      throw std::invalid_argument(f + ": chains have different lengths (" + std::to_string(chains[0].size()) +
                                  " and " + std::to_string(c.size()) + ")");
  if (chains[0].size() < 2)
    throw std::invalid_argument(f + ": chains need at least 2 draws, got " + std::to_string(chains[0].size()));
}

series_set whole(const chains_t& chains) {
  series_set s{{}, chains[0].size()};
  for (const auto& c : chains) s.first.push_back(c.data());
  return s;
}

// Section 3.1: the first n draws of each chain cut in two halves, the middle draw dropped
// when n is odd, so that a trend within a chain shows up as a difference between chains.
series_set split(const chains_t& chains, std::size_t n) {
  series_set s{{}, n / 2};
  for (const auto& c : chains) {
    s.first.push_back(c.data());
    s.first.push_back(c.data() + (n - n / 2));
  }
  return s;
}

// Series k of a buffer laid out as split chains: at k * length.
series_set laid_out(const std::vector<double>& buffer, std::size_t series, std::size_t length) {
  series_set s{{}, length};
  for (std::size_t k = 0; k < series; ++k) s.first.push_back(buffer.data() + k * length);
  return s;
}

// Every draw with its place among the split chains (series 2c and 2c+1 of chain c), not yet sorted.
void sort_draws(const chains_t& chains, std::size_t n, std::vector<ranked_draw>& sorted) {
  const std::size_t half = n / 2;
  sorted.clear();
  sorted.reserve(chains.size() * n);  // grown once: fresh pages cost a fault each
  for (std::size_t c = 0; c < chains.size(); ++c)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = i < half ? 2 * c * half + i : i >= n - half ? (2 * c + 1) * half + i - (n - half) : detail::dropped;
      sorted.push_back({chains[c][i], at});
    }
}

// Type 7 (R's default): linear interpolation between order statistics at h = (S - 1) p,
// the i-th smallest value value(i).
template <class Value>
double type7(std::size_t size, const Value& value, double p) {
  double h = static_cast<double>(size - 1) * p;
  auto lo = static_cast<std::size_t>(std::floor(h));
  std::size_t hi = std::min(lo + 1, size - 1);
  return value(lo) + (h - static_cast<double>(lo)) * (value(hi) - value(lo));
}

double quantile_sorted(const std::vector<ranked_draw>& sorted, double p) {
  return type7(sorted.size(), [&](std::size_t i) { return sorted[i].value; }, p);
}

// Mean, sd and quantiles of the first n draws of each chain, pooled in chain order.
void describe_draws(const chains_t& chains, std::size_t n, const std::vector<ranked_draw>& sorted, scalar_summary& s) {
  const bool constant = sorted.front().value == sorted.back().value;
  double sum = 0;
  for (const auto& c : chains)
    for (std::size_t i = 0; i < n; ++i) sum += c[i];
  const double mean = sum / static_cast<double>(sorted.size());
  double squares = 0;
  for (const auto& c : chains)
    for (std::size_t i = 0; i < n; ++i) squares += (c[i] - mean) * (c[i] - mean);
  // For constant draws, the exact value rather than a sum's rounding of it.
  s.mean = constant ? sorted.front().value : mean;
  s.sd = constant ? 0 : std::sqrt(squares / static_cast<double>(sorted.size() - 1));
  s.q5 = quantile_sorted(sorted, 0.05);
  s.q50 = quantile_sorted(sorted, 0.5);
  s.q95 = quantile_sorted(sorted, 0.95);
  s.mcse_mean = constant ? 0 : nan;
}

// The larger (smaller) of two diagnostics, ignoring one that is undefined because its
// transform of the draws is constant; NaN only when both are.
double defined_max(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }
double defined_min(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); }

}  // namespace

struct summariser::workspace {
  std::vector<ranked_draw> sorted, scratch, folded;
  std::vector<double> scores, folded_scores, indicator;
  detail::normal_scores normal;
  detail::autocorrelation_buffers acf;

  // Section 4.3: the ESS of a quantile is that of the indicator of lying below it.
  double indicator_ess(const series_set& halves, double q) {
    indicator.resize(halves.first.size() * halves.length);
    for (std::size_t k = 0; k < halves.first.size(); ++k)
      for (std::size_t i = 0; i < halves.length; ++i) indicator[k * halves.length + i] = halves.first[k][i] <= q ? 1.0 : 0.0;
    return detail::ess(laid_out(indicator, halves.first.size(), halves.length), acf);
  }
};

summariser::summariser() : w_(std::make_unique<workspace>()) {}
summariser::~summariser() = default;

scalar_summary summariser::operator()(const chains_t& draws) {
  scalar_summary s{nan, nan, nan, nan, nan, nan, nan, nan, nan};
  // Chains cut to the shortest one's length (an interrupted run leaves them uneven).
  std::size_t n = draws.empty() ? 0 : draws[0].size();
  for (const auto& c : draws) n = std::min(n, c.size());
  if (n == 0 || !all_finite(draws, n)) return s;
  workspace& w = *w_;
  sort_draws(draws, n, w.sorted);
  detail::sort_by_value(w.sorted, w.scratch);
  describe_draws(draws, n, w.sorted, s);
  if (s.sd == 0 || n < 4) return s;
  const series_set halves = split(draws, n);
  const std::size_t series = halves.first.size(), kept = series * halves.length;
  s.mcse_mean = s.sd / std::sqrt(detail::ess(halves, w.acf));
  // Section 4.1: the normal scores of the ranks, the bulk-ESS and R-hat computed from them.
  w.normal.prepare(kept);
  w.scores.resize(kept);
  detail::assign_scores(w.sorted, w.normal, w.scores.data());
  const series_set z = laid_out(w.scores, series, halves.length);
  s.ess_bulk = detail::ess(z, w.acf);
  s.ess_tail = defined_min(w.indicator_ess(halves, s.q5), w.indicator_ess(halves, s.q95));
  // Section 4.2: folding about the median exposes chains that differ in scale, not location.
  detail::fold_about(w.sorted, s.q50, w.folded);
  w.folded_scores.resize(kept);
  detail::assign_scores(w.folded, w.normal, w.folded_scores.data());
  s.rhat = defined_max(detail::rhat(z), detail::rhat(laid_out(w.folded_scores, series, halves.length)));
  return s;
}

scalar_summary summarize(const chains_t& draws) { return summariser()(draws); }

double quantile_type7(const std::vector<double>& sorted, double p) {
  return sorted.empty() ? NAN : type7(sorted.size(), [&](std::size_t i) { return sorted[i]; }, p);
}

double split_rhat(const chains_t& chains) {
  check_chains(chains, 2, "split_rhat");
  if (!all_finite(chains, chains[0].size())) return nan;
  return detail::rhat(whole(chains));
}

double effective_sample_size(const chains_t& chains) {
  check_chains(chains, 1, "effective_sample_size");
  if (!all_finite(chains, chains[0].size())) return nan;
  detail::autocorrelation_buffers buffers;
  return detail::ess(whole(chains), buffers);
}

double energy_bfmi(const std::vector<double>& energy) {
  std::vector<double> e;
  for (double x : energy)
    if (std::isfinite(x)) e.push_back(x);
  if (e.size() < 3) return nan;
  const double m = detail::mean_of(e.data(), e.size());
  double steps = 0, spread = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (i > 0) steps += (e[i] - e[i - 1]) * (e[i] - e[i - 1]);
    spread += (e[i] - m) * (e[i] - m);
  }
  return spread > 0 ? steps / spread : nan;
}

double autocorrelation_time(const std::vector<double>& series) {
  return static_cast<double>(series.size()) / effective_sample_size({series});
}

}  // namespace ppl::draws
