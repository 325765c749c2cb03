#include "runtime/diagnostics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unsupported/Eigen/FFT>

namespace ppl::runtime {

namespace {

using chains_t = std::vector<std::vector<double>>;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double mean_of(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

double variance_of(const std::vector<double>& x) {  // divisor n - 1
  double m = mean_of(x), s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

std::vector<double> pooled(const chains_t& chains) {
  std::vector<double> all;
  for (const auto& c : chains) all.insert(all.end(), c.begin(), c.end());
  return all;
}

bool all_finite(const chains_t& chains) {
  return std::all_of(chains.begin(), chains.end(), [](const std::vector<double>& c) {
    return std::all_of(c.begin(), c.end(), [](double x) { return std::isfinite(x); });
  });
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

// Section 3.1: each chain cut in two halves, the middle draw dropped when the length is odd,
// so that a trend within a chain shows up as a difference between chains.
chains_t split(const chains_t& chains) {
  chains_t out;
  for (const auto& c : chains) {
    auto half = static_cast<std::ptrdiff_t>(c.size() / 2);
    out.emplace_back(c.begin(), c.begin() + half);
    out.emplace_back(c.end() - half, c.end());
  }
  return out;
}

// Section 4.1: normal scores of the ranks in the pooled draws, z = Phi^-1((r - 3/8) / (S + 1/4))
// (Blom's offset), with tied draws sharing their average rank so that discrete quantities
// keep their number of distinct values.
chains_t rank_normalise(const chains_t& chains) {
  std::vector<double> flat = pooled(chains);
  std::vector<std::size_t> order(flat.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return flat[a] < flat[b]; });
  const double total = static_cast<double>(flat.size());
  const boost::math::normal standard;
  std::vector<double> z(flat.size());
  for (std::size_t a = 0, b = 0; a < order.size(); a = b) {
    for (b = a + 1; b < order.size() && flat[order[b]] == flat[order[a]]; ++b) {}
    double rank = 0.5 * static_cast<double>(a + 1 + b);  // the mean of ranks a+1 .. b
    double score = boost::math::quantile(standard, (rank - 0.375) / (total + 0.25));
    for (std::size_t k = a; k < b; ++k) z[order[k]] = score;
  }
  chains_t out;
  const auto n = static_cast<std::ptrdiff_t>(chains[0].size());
  for (std::size_t c = 0; c < chains.size(); ++c) {
    auto first = z.begin() + static_cast<std::ptrdiff_t>(c) * n;
    out.emplace_back(first, first + n);
  }
  return out;
}

// Biased (divisor n) autocovariances at lags 0 .. n-1, which Section 3.2 prefers after Geyer
// (1992) for the smaller variance of the ESS. By FFT of the centred series padded with
// zeros to at least 2n, so that the circular correlation does not wrap around.
std::vector<double> autocovariance(const std::vector<double>& x, Eigen::FFT<double>& fft) {
  std::size_t n = x.size(), size = 1;
  while (size < 2 * n) size *= 2;
  double m = mean_of(x);
  std::vector<double> padded(size, 0.0);
  for (std::size_t i = 0; i < n; ++i) padded[i] = x[i] - m;
  std::vector<std::complex<double>> spectrum;
  fft.fwd(spectrum, padded);
  for (auto& f : spectrum) f = std::norm(f);
  std::vector<double> back;
  fft.inv(back, spectrum);  // Eigen scales the inverse by 1 / size
  std::vector<double> out(n);
  for (std::size_t t = 0; t < n; ++t) out[t] = back[t] / static_cast<double>(n);
  return out;
}

// Section 3.2: rho_t = 1 - (W - mean_m s_m^2 rho_{t,m}) / var+, with var+ = W (N-1)/N + B/N.
// s_m^2 rho_{t,m} is the biased autocovariance times N/(N-1), so rho_0 = 1 exactly. With one
// chain there is no B, and rho_t is the chain's own autocorrelation. Empty when var+ = 0.
std::vector<double> combined_autocorrelation(const chains_t& chains) {
  const std::size_t m = chains.size(), n = chains[0].size();
  const double scale = static_cast<double>(n) / static_cast<double>(n - 1);
  std::vector<double> mean_acov(n, 0.0), means;
  Eigen::FFT<double> fft;
  for (const auto& c : chains) {
    std::vector<double> a = autocovariance(c, fft);
    for (std::size_t t = 0; t < n; ++t) mean_acov[t] += a[t] * scale / static_cast<double>(m);
    means.push_back(mean_of(c));
  }
  const double within = mean_acov[0];
  const double var_plus = m > 1 ? within / scale + variance_of(means) : within;
  if (!(var_plus > 0)) return {};
  std::vector<double> rho(n);
  for (std::size_t t = 0; t < n; ++t) rho[t] = 1 - (within - mean_acov[t]) / var_plus;
  return rho;
}

// Section 3.2: tau = -1 + 2 sum_{t'=0..k} P_t', P_t' = rho_2t' + rho_2t'+1, k the largest with
// every P_1 .. P_k positive (Geyer's initial positive sequence), each P_t' lowered to the
// minimum of those before it (initial monotone sequence). For antithetic chains the paper
// averages this sum, which ends at odd lag 2k+1, with the one ending at lag 2k+2: that adds
// rho_2k+2 once.
double geyer_tau(const std::vector<double>& rho) {
  double sum = 0, smallest = std::numeric_limits<double>::infinity();
  std::size_t t = 0;
  for (; t + 1 < rho.size(); t += 2) {
    double pair = rho[t] + rho[t + 1];
    if (t > 0 && !(pair > 0)) break;
    smallest = std::min(smallest, pair);
    sum += smallest;
  }
  double tau = -1 + 2 * sum;
  if (t < rho.size()) tau += rho[t];
  return tau;
}

// Type 7 (R's default): linear interpolation between order statistics at h = (S - 1) p.
double quantile_sorted(const std::vector<double>& sorted, double p) {
  double h = static_cast<double>(sorted.size() - 1) * p;
  auto lo = static_cast<std::size_t>(std::floor(h));
  std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

chains_t transformed(chains_t chains, const auto& f) {
  for (auto& c : chains)
    for (double& v : c) v = f(v);
  return chains;
}

// Chains cut to the shortest one's length (an interrupted run leaves them uneven).
chains_t equal_length(const chains_t& draws) {
  std::size_t n = draws.empty() ? 0 : draws[0].size();
  for (const auto& c : draws) n = std::min(n, c.size());
  chains_t out;
  for (const auto& c : draws) out.emplace_back(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n));
  return out;
}

// The larger (smaller) of two diagnostics, ignoring one that is undefined because its
// transform of the draws is constant; NaN only when both are.
double defined_max(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }
double defined_min(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); }

void describe_draws(const std::vector<double>& all, scalar_summary& s) {
  std::vector<double> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  bool constant = sorted.front() == sorted.back();
  // For constant draws, the exact value rather than a sum's rounding of it.
  s.mean = constant ? sorted.front() : mean_of(all);
  s.sd = constant ? 0 : std::sqrt(variance_of(all));
  s.q5 = quantile_sorted(sorted, 0.05);
  s.q50 = quantile_sorted(sorted, 0.5);
  s.q95 = quantile_sorted(sorted, 0.95);
  s.mcse_mean = constant ? 0 : nan;
}

}  // namespace

double split_rhat(const chains_t& chains) {
  check_chains(chains, 2, "split_rhat");
  if (!all_finite(chains)) return nan;
  const double n = static_cast<double>(chains[0].size());
  std::vector<double> means;
  double within = 0;
  for (const auto& c : chains) {
    means.push_back(mean_of(c));
    within += variance_of(c) / static_cast<double>(chains.size());
  }
  const double var_plus = (n - 1) / n * within + variance_of(means);  // B / N = variance of the means
  return std::sqrt(var_plus / within);
}

double effective_sample_size(const chains_t& chains) {
  check_chains(chains, 1, "effective_sample_size");
  if (!all_finite(chains)) return nan;
  std::vector<double> rho = combined_autocorrelation(chains);
  if (rho.empty()) return nan;
  const double total = static_cast<double>(chains.size() * chains[0].size());
  // The paper caps ESS at S log10 S: very short antithetic chains can give absurd estimates.
  const double tau = std::max(geyer_tau(rho), 1 / std::log10(total));
  return total / tau;
}

double energy_bfmi(const std::vector<double>& energy) {
  std::vector<double> e;
  for (double x : energy)
    if (std::isfinite(x)) e.push_back(x);
  if (e.size() < 3) return nan;
  const double m = mean_of(e);
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

scalar_summary summarize(const chains_t& draws) {
  scalar_summary s{nan, nan, nan, nan, nan, nan, nan, nan, nan};
  chains_t chains = equal_length(draws);
  std::vector<double> all = pooled(chains);
  if (all.empty() || !all_finite(chains)) return s;
  describe_draws(all, s);
  if (s.sd == 0 || chains[0].size() < 4) return s;
  chains_t halves = split(chains);
  s.mcse_mean = s.sd / std::sqrt(effective_sample_size(halves));
  chains_t z = rank_normalise(halves);
  s.ess_bulk = effective_sample_size(z);
  // Section 4.3: the ESS of a quantile is that of the indicator of lying below it.
  const double q5 = s.q5, q95 = s.q95, median = s.q50;
  s.ess_tail = defined_min(effective_sample_size(transformed(halves, [=](double x) { return x <= q5 ? 1.0 : 0.0; })),
                           effective_sample_size(transformed(halves, [=](double x) { return x <= q95 ? 1.0 : 0.0; })));
  // Section 4.2: folding about the median exposes chains that differ in scale, not location.
  chains_t folded = rank_normalise(transformed(halves, [=](double x) { return std::fabs(x - median); }));
  s.rhat = defined_max(split_rhat(z), split_rhat(folded));
  return s;
}

}  // namespace ppl::runtime
