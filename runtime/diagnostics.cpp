#include "runtime/diagnostics.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <complex>
#include <numeric>
#include <unsupported/Eigen/FFT>

namespace ppl::runtime {

namespace {

using chains_t = std::vector<std::vector<double>>;

double mean_of(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size()); }

double variance_of(const std::vector<double>& x) {
  double m = mean_of(x), s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

// Each chain cut in two halves (the middle draw dropped when the length is odd).
chains_t split(const chains_t& chains) {
  chains_t out;
  for (const auto& c : chains) {
    std::size_t half = c.size() / 2;
    out.emplace_back(c.begin(), c.begin() + static_cast<long>(half));
    out.emplace_back(c.end() - static_cast<long>(half), c.end());
  }
  return out;
}

// Normal scores of the pooled ranks (average ranks for ties): Phi^-1((r - 3/8) / (S + 1/4)).
chains_t rank_normalise(const chains_t& chains) {
  std::vector<std::pair<double, std::size_t>> pooled;
  for (std::size_t c = 0; c < chains.size(); ++c)
    for (std::size_t i = 0; i < chains[c].size(); ++i) pooled.push_back({chains[c][i], c * (1u << 30) + i});
  std::sort(pooled.begin(), pooled.end());
  chains_t out = chains;
  boost::math::normal standard;
  double s = static_cast<double>(pooled.size());
  for (std::size_t a = 0; a < pooled.size();) {
    std::size_t b = a + 1;
    while (b < pooled.size() && pooled[b].first == pooled[a].first) ++b;
    double rank = 0.5 * static_cast<double>(a + 1 + b);  // average of ranks a+1 .. b
    double z = boost::math::quantile(standard, (rank - 0.375) / (s + 0.25));
    for (std::size_t k = a; k < b; ++k) out[pooled[k].second >> 30][pooled[k].second & ((1u << 30) - 1)] = z;
    a = b;
  }
  return out;
}

// Autocovariances of one series at lags 0 .. n-1, by FFT of the zero-padded series.
std::vector<double> autocovariance(const std::vector<double>& x) {
  std::size_t n = x.size(), size = 1;
  while (size < 2 * n) size *= 2;
  double m = mean_of(x);
  std::vector<double> padded(size, 0.0);
  for (std::size_t i = 0; i < n; ++i) padded[i] = x[i] - m;
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> freq;
  fft.fwd(freq, padded);
  for (auto& f : freq) f = std::complex<double>(std::norm(f), 0.0);
  std::vector<double> back;
  fft.inv(back, freq);
  std::vector<double> out(n);
  for (std::size_t t = 0; t < n; ++t) out[t] = back[t] / static_cast<double>(n);
  return out;
}

double quantile(std::vector<double> x, double p) {  // type 7, as R's default
  std::sort(x.begin(), x.end());
  double h = (static_cast<double>(x.size()) - 1) * p;
  auto lo = static_cast<std::size_t>(std::floor(h));
  std::size_t hi = std::min(lo + 1, x.size() - 1);
  return x[lo] + (h - static_cast<double>(lo)) * (x[hi] - x[lo]);
}

std::vector<double> pooled(const chains_t& chains) {
  std::vector<double> all;
  for (const auto& c : chains) all.insert(all.end(), c.begin(), c.end());
  return all;
}

chains_t indicator(const chains_t& chains, double threshold) {
  chains_t out = chains;
  for (auto& c : out)
    for (double& v : c) v = v <= threshold ? 1 : 0;
  return out;
}

}  // namespace

double split_rhat(const chains_t& chains) {
  double n = static_cast<double>(chains[0].size());
  std::vector<double> means;
  double within = 0;
  for (const auto& c : chains) {
    means.push_back(mean_of(c));
    within += variance_of(c);
  }
  within /= static_cast<double>(chains.size());
  double between = n * variance_of(means);
  double var_plus = (n - 1) / n * within + between / n;
  return std::sqrt(var_plus / within);
}

// Vehtari et al. (2021), eq. 10-11: combined autocorrelation, Geyer's initial positive
// and monotone sequences, ESS = S / tau capped at S log10(S).
double effective_sample_size(const chains_t& chains) {
  std::size_t m = chains.size(), n = chains[0].size();
  std::vector<std::vector<double>> acov;
  std::vector<double> means;
  double within = 0;
  for (const auto& c : chains) {
    acov.push_back(autocovariance(c));
    means.push_back(mean_of(c));
    within += acov.back()[0] * static_cast<double>(n) / static_cast<double>(n - 1);
  }
  within /= static_cast<double>(m);
  double var_plus = within * static_cast<double>(n - 1) / static_cast<double>(n) + (m > 1 ? variance_of(means) : 0);
  if (!(var_plus > 0)) return NAN;
  auto rho = [&](std::size_t t) {
    double mean_acov = 0;
    for (const auto& a : acov) mean_acov += a[t];
    return 1 - (within - mean_acov / static_cast<double>(m)) / var_plus;
  };
  std::vector<double> pairs;  // Gamma_k = rho_2k + rho_2k+1
  for (std::size_t t = 0; t + 1 < n; t += 2) {
    double g = rho(t) + rho(t + 1);
    if (g < 0) break;
    if (!pairs.empty()) g = std::min(g, pairs.back());
    pairs.push_back(g);
  }
  double tau = -1;
  for (double g : pairs) tau += 2 * g;
  double total = static_cast<double>(m * n);
  tau = std::max(tau, 1 / std::log10(total));
  return total / tau;
}

double autocorrelation_time(const std::vector<double>& series) {
  return static_cast<double>(series.size()) / effective_sample_size({series});
}

scalar_summary summarize(const chains_t& draws) {
  scalar_summary s{};
  std::vector<double> all = pooled(draws);
  s.mean = mean_of(all);
  s.sd = std::sqrt(variance_of(all));
  s.q5 = quantile(all, 0.05);
  s.q50 = quantile(all, 0.5);
  s.q95 = quantile(all, 0.95);
  chains_t halves = split(draws);
  bool finite = std::all_of(all.begin(), all.end(), [](double x) { return std::isfinite(x); });
  if (!finite || s.sd == 0 || halves[0].size() < 2) {
    // Nothing to estimate (constant draws), or draws that are not numbers (an infinite
    // log density): report NaN rather than pretend.
    if (!finite) s.mean = s.sd = s.q5 = s.q50 = s.q95 = NAN;
    s.mcse_mean = 0;
    s.ess_bulk = s.ess_tail = s.rhat = NAN;
    return s;
  }
  s.mcse_mean = s.sd / std::sqrt(effective_sample_size(halves));
  chains_t z = rank_normalise(halves);
  s.ess_bulk = effective_sample_size(z);
  chains_t folded = halves;
  for (auto& c : folded)
    for (double& v : c) v = std::fabs(v - s.q50);
  s.rhat = std::max(split_rhat(z), split_rhat(rank_normalise(folded)));
  s.ess_tail = std::min(effective_sample_size(indicator(halves, s.q5)), effective_sample_size(indicator(halves, s.q95)));
  return s;
}

}  // namespace ppl::runtime
