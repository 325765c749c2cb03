// The fast paths of the diagnostics (autocovariances summed lag by lag or by FFT, one
// radix sort per column, the folded draws' order merged from it, a table of normal
// scores) against the definitions of Vehtari et al. (2021) computed the obvious way:
// every autocovariance by its O(n^2) sum, ranks by std::sort, each score by Boost.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "draws/diagnostics.hpp"

namespace test_diagnostics_reference {

using chains_t = std::vector<std::vector<double>>;

namespace {

double mean(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size()); }
double variance(const std::vector<double>& x) {
  double m = mean(x), s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

// Section 3.2 as posterior 1.4.0's .ess writes it, step for step: every biased
// autocovariance by its O(n^2) sum; rho_t = 1 - (W - mean gamma_t) / var+ with only W scaled
// by n/(n-1); Geyer's positive sequence stored pair by pair up to the first even lag of at
// least n - 5; rho at the last even lag kept if positive; the monotone pass over the stored
// array; then tau with R's 1:0 (which reads rho_0 when the sequence stopped at once).
double reference_ess(const chains_t& chains) {
  const std::size_t m = chains.size(), n = chains[0].size();
  if (n < 3) return NAN;
  std::vector<double> acov(n, 0.0), means;
  for (const auto& c : chains) {
    const double mu = mean(c);
    means.push_back(mu);
    for (std::size_t t = 0; t < n; ++t) {
      double s = 0;
      for (std::size_t i = 0; i + t < n; ++i) s += (c[i] - mu) * (c[i + t] - mu);
      acov[t] += s / static_cast<double>(n) / static_cast<double>(m);
    }
  }
  const double mean_var = acov[0] * static_cast<double>(n) / static_cast<double>(n - 1);
  const double var_plus = mean_var * static_cast<double>(n - 1) / static_cast<double>(n) + (m > 1 ? variance(means) : 0.0);
  auto rho = [&](std::size_t t) { return 1 - (mean_var - acov[t]) / var_plus; };
  std::vector<double> r(n, 0.0);
  double even = r[0] = 1, odd = r[1] = rho(1);
  std::size_t t = 0;
  while (t + 5 < n && even + odd > 0) {
    t += 2;
    even = rho(t), odd = rho(t + 1);
    if (even + odd >= 0) r[t] = even, r[t + 1] = odd;
  }
  const std::size_t max_t = t;
  if (even > 0) r[max_t] = even;
  for (t = 0; t + 4 <= max_t;) {
    t += 2;
    if (r[t] + r[t + 1] > r[t - 2] + r[t - 1]) r[t] = r[t + 1] = (r[t - 2] + r[t - 1]) / 2;
  }
  double sum = max_t == 0 ? r[0] : 0;
  for (t = 0; t < max_t; ++t) sum += r[t];
  const double total = static_cast<double>(m * n);
  return total / std::max(-1 + 2 * sum + r[max_t], 1 / std::log10(total));
}

double reference_rhat(const chains_t& chains) {
  std::vector<double> means;
  double w = 0;
  for (const auto& c : chains) means.push_back(mean(c)), w += variance(c) / static_cast<double>(chains.size());
  const double n = static_cast<double>(chains[0].size());
  return std::sqrt(((n - 1) / n * w + variance(means)) / w);
}

chains_t reference_split(const chains_t& chains) {
  chains_t out;
  for (const auto& c : chains) {
    const auto half = static_cast<std::ptrdiff_t>(c.size() / 2);
    out.emplace_back(c.begin(), c.begin() + half);
    out.emplace_back(c.end() - half, c.end());
  }
  return out;
}

// Section 4.1: Phi^-1((r - 3/8) / (S + 1/4)) of each draw's rank, ties given their mean rank.
chains_t reference_scores(chains_t chains) {
  std::vector<double> all;
  for (const auto& c : chains) all.insert(all.end(), c.begin(), c.end());
  for (auto& c : chains)
    for (double& v : c) {
      const double below = static_cast<double>(std::count_if(all.begin(), all.end(), [&](double x) { return x < v; }));
      const double equal = static_cast<double>(std::count(all.begin(), all.end(), v));
      const double rank = below + (equal + 1) / 2;
      v = boost::math::quantile(boost::math::normal(), (rank - 0.375) / (static_cast<double>(all.size()) + 0.25));
    }
  return chains;
}

// AR(1) chains; `levels` > 0 rounds the draws to multiples of 1/levels, so that many tie.
chains_t ar1(std::size_t chains, std::size_t n, double phi, std::uint64_t seed, double levels = 0) {
  std::mt19937_64 rng(seed);
  boost::random::normal_distribution<double> normal;
  chains_t out(chains);
  for (auto& c : out) {
    double x = normal(rng);
    for (std::size_t i = 0; i < n; ++i) {
      x = phi * x + normal(rng);
      c.push_back(levels > 0 ? std::round(x * levels) / levels : x);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("diagnostics reference: ESS from lags summed directly or by FFT equals the O(n^2) definition") {
  // phi 0 and 0.6 stop within the first lags; 0.995 over 3000 draws stays positive for
  // hundreds of lags, past the point where the FFT takes over. Both differ from the
  // definition by rounding only.
  for (double phi : {0.0, 0.6, 0.995}) {
    CAPTURE(phi);
    const chains_t d = ar1(2, 3000, phi, 17);
    CHECK(ppl::draws::effective_sample_size(d) == doctest::Approx(reference_ess(d)).epsilon(1e-10));
    CHECK(ppl::draws::effective_sample_size({d[0]}) == doctest::Approx(reference_ess({d[0]})).epsilon(1e-10));
  }
}

TEST_CASE("diagnostics reference: summaries equal the definitions, with ties, odd lengths and both sorts") {
  // 3 x 2001 draws take the radix sort and drop each chain's middle draw; 3 x 51 the
  // comparison sort. Rounded draws have many ties, among them -0 and +0.
  for (std::size_t n : {51, 2001})
    for (double levels : {0.0, 4.0}) {
      CAPTURE(n);
      CAPTURE(levels);
      chains_t d = ar1(3, n, 0.7, n + 7, levels);
      if (levels > 0) d[1][5] = -0.0, d[2][7] = 0.0;
      ppl::draws::summariser summarise;
      const auto s = summarise(d);
      const chains_t halves = reference_split(d);
      const chains_t z = reference_scores(halves);
      std::vector<double> all;
      for (const auto& c : d) all.insert(all.end(), c.begin(), c.end());
      std::sort(all.begin(), all.end());
      const double median = all[all.size() / 2];  // an odd number of draws: no interpolation
      CHECK(s.q50 == median);
      chains_t folded = halves, below5 = halves, below95 = halves;
      for (std::size_t k = 0; k < halves.size(); ++k)
        for (std::size_t i = 0; i < halves[k].size(); ++i) {
          folded[k][i] = std::fabs(halves[k][i] - median);
          below5[k][i] = halves[k][i] <= s.q5;
          below95[k][i] = halves[k][i] <= s.q95;
        }
      CHECK(s.ess_bulk == doctest::Approx(reference_ess(z)).epsilon(1e-10));
      CHECK(s.ess_tail == doctest::Approx(std::min(reference_ess(below5), reference_ess(below95))).epsilon(1e-10));
      CHECK(s.mcse_mean == doctest::Approx(s.sd / std::sqrt(reference_ess(halves))).epsilon(1e-10));
      CHECK(s.rhat == doctest::Approx(std::max(reference_rhat(z), reference_rhat(reference_scores(folded)))).epsilon(1e-12));
      // The summariser keeps its buffers and table between columns: the same column again
      // gives the same answer, as does a fresh one.
      const auto again = summarise(d), fresh = ppl::draws::summarize(d);
      CHECK(again.ess_bulk == s.ess_bulk);
      CHECK(fresh.rhat == s.rhat);
      CHECK(fresh.ess_tail == s.ess_tail);
    }
}

}  // namespace test_diagnostics_reference
