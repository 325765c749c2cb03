// Convergence diagnostics of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021) against
// hand-computed values and against series whose answers are known from theory.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "draws/diagnostics.hpp"

namespace test_diagnostics {

using chains_t = std::vector<std::vector<double>>;
using ppl::draws::autocorrelation_time;
using ppl::draws::effective_sample_size;
using ppl::draws::split_rhat;
using ppl::draws::summarize;

namespace {

// Stationary Gaussian AR(1) chains x_t = phi x_{t-1} + e_t; chain `odd` is then scaled and
// shifted (x -> shift + scale x) to play a chain that has not mixed.
chains_t ar1(std::size_t chains, std::size_t n, double phi, std::uint64_t seed, std::size_t odd = 0, double shift = 0,
             double scale = 1) {
  std::mt19937_64 rng(seed);
  boost::random::normal_distribution<double> normal;
  chains_t out(chains);
  for (std::size_t c = 0; c < chains; ++c) {
    double x = normal(rng) / std::sqrt(1 - phi * phi);
    for (std::size_t i = 0; i < n; ++i) {
      x = phi * x + normal(rng);
      out[c].push_back(c == odd ? shift + scale * x : x);
    }
  }
  return out;
}

chains_t halves(const chains_t& chains) {
  chains_t out;
  for (const auto& c : chains) {
    auto h = static_cast<std::ptrdiff_t>(c.size() / 2);
    out.emplace_back(c.begin(), c.begin() + h);
    out.emplace_back(c.end() - h, c.end());
  }
  return out;
}

}  // namespace

TEST_CASE("diagnostics: iid normal draws") {
  const double chains = 4, n = 1000, total = chains * n, m = 2 * chains, half = n / 2;
  auto s = summarize(ar1(4, 1000, 0.0, 20210101));
  // Split R-hat^2 = (N-1)/N + (B/W)/N with N = 500 draws in each of M = 8 split chains. For
  // iid draws (and their normal scores, folded or not) B/W ~ F(M-1, M(N-1)), so R-hat - 1
  // is O(1/N): never below sqrt((N-1)/N), and above the bound below with probability
  // 1e-6 for each of the two R-hats whose max is reported.
  boost::math::fisher_f f(m - 1, m * (half - 1));
  double upper = std::sqrt((half - 1) / half + boost::math::quantile(boost::math::complement(f, 1e-6)) / half);
  CHECK(upper < 1.006);
  CHECK(s.rhat >= std::sqrt((half - 1) / half) - 1e-12);
  CHECK(s.rhat < upper);
  // ESS of white noise: tau = -1 + 2 (P_0 + P_1 + ...) + max(rho_2k, 0), where the sampling
  // sd of each autocorrelation is about 1/sqrt(S) = 0.016 and the included pairs are
  // positive, monotone, and typically one or two. ESS above 1.3 S needs 2 rho_1 + rho_2 < -0.23
  // (6 sd); below 0.6 S needs the pairs to add up to 0.6 (over 8 sd). Over 2000 seeds the
  // bulk-ESS was 0.995 S with sd 0.045 S, tail-ESS 0.97 S with sd 0.043 S.
  CHECK(s.ess_bulk > 0.6 * total);
  CHECK(s.ess_bulk < 1.3 * total);
  CHECK(s.ess_tail > 0.6 * total);
  CHECK(s.ess_tail < 1.3 * total);
  CHECK(s.mcse_mean == doctest::Approx(s.sd / std::sqrt(total)).epsilon(0.3));
  // sd of the mean 1/sqrt(4000) = 0.016, of the median 0.020: bounds at 6 sd.
  CHECK(std::fabs(s.mean) < 0.1);
  CHECK(std::fabs(s.q50) < 0.12);
  CHECK(s.sd == doctest::Approx(1).epsilon(0.05));  // sd of the sd 1/sqrt(2 S) = 0.011
}

TEST_CASE("diagnostics: autocorrelation time and ESS of an AR(1) series") {
  // For phi = 0.9, tau = (1 + phi) / (1 - phi) = 19. With n = 200000 the estimate's sd is
  // about tau sqrt(2 (2K + 1) / n), 3-4% for a truncation lag K of 50-70, so 15% is about
  // 4 sd (over 60 seeds the estimate ranged from 18.2 to 21.1).
  const double phi = 0.9, tau = (1 + phi) / (1 - phi), n = 200000;
  auto one = ar1(1, 200000, phi, 7)[0];
  CHECK(autocorrelation_time(one) == doctest::Approx(tau).epsilon(0.15));
  CHECK(effective_sample_size({one}) == doctest::Approx(n / tau).epsilon(0.15));
  // Four chains: the normal scores of a Gaussian series are the series rescaled, so the
  // bulk-ESS has the same tau; the MCSE of the mean is sd(x) sqrt(tau / S), sd(x)^2 = 1/(1-phi^2).
  auto s = summarize(ar1(4, 50000, phi, 8));
  CHECK(s.ess_bulk == doctest::Approx(n / tau).epsilon(0.15));
  CHECK(s.mcse_mean == doctest::Approx(std::sqrt(tau / n / (1 - phi * phi))).epsilon(0.15));
  CHECK(s.rhat < 1.01);
}

TEST_CASE("diagnostics: a chain shifted by 3 sd is caught by rhat and ESS") {
  auto d = ar1(4, 1000, 0.0, 11, 1, 3.0);
  // Two of eight split chains 3 sd away: B/W ~ N * 9 * (2/8)(6/8)(8/7) and R-hat ~ 1.7.
  auto s = summarize(d);
  CHECK(s.rhat > 1.1);
  CHECK(split_rhat(halves(d)) > 1.1);
  // Chains that do not mix make ESS count modes rather than draws (Section 3.2).
  CHECK(s.ess_bulk < 0.1 * 4000);
}

TEST_CASE("diagnostics: a chain with another scale is caught only by the folded rhat") {
  auto d = ar1(4, 1000, 0.0, 12, 2, 0.0, 3.0);
  // Same location: the chain means vary as much as the within-chain spread predicts, so the
  // plain split R-hat stays within O(1/N) of 1 (below 1.01 needs B/W < 11).
  CHECK(split_rhat(halves(d)) < 1.01);
  // Folded about the median, the wide chain's draws rank high: R-hat ~ 1.3.
  CHECK(summarize(d).rhat > 1.05);
}

TEST_CASE("diagnostics: mean, sd and type-7 quantiles by hand") {
  // Pooled sorted: 1 1 2 3 4 5 6 9. Mean 31/8; sum of squared deviations 52.875, sd
  // sqrt(52.875 / 7). Type 7 takes h = 7p: q5 at h = 0.35 between 1 and 1; q50 at 3.5
  // between 3 and 4; q95 at 6.65 between 6 and 9, 6 + 0.65 * 3.
  auto s = summarize({{3, 1, 4, 1}, {5, 9, 2, 6}});
  CHECK(s.mean == doctest::Approx(3.875));
  CHECK(s.sd == doctest::Approx(std::sqrt(52.875 / 7)));
  CHECK(s.q5 == doctest::Approx(1.0));
  CHECK(s.q50 == doctest::Approx(3.5));
  CHECK(s.q95 == doctest::Approx(7.95));
}

TEST_CASE("diagnostics: split rhat and ess by hand") {
  // Means 2 and 4, variances 1: W = 1, B/N = var of the means = 2, var+ = 2/3 + 2.
  CHECK(split_rhat({{1, 2, 3}, {3, 4, 5}}) == doctest::Approx(std::sqrt(8.0 / 3)));
  // Both chains have mean 2, so var+ = (5/6) W. Biased autocovariances of -1 -1 0 0 1 1 at
  // lags 0..3 are 4/6, 2/6, 0, -1/6 (the reversed chain has the same), and W = (4/6)(6/5)
  // = 4/5, var+ = 2/3. As posterior 1.4.0 and Stan scale only W by N/(N-1), rho_t = 1 - (W -
  // gamma_t) / var+ = 1, 3/10, -1/5, -9/20: P_0 = 13/10, P_1 = -13/20 stops the sequence,
  // and its rho_2 = -1/5 is not positive, so it is left out: tau = -1 + 2 (13/10) = 8/5 and
  // ESS = 12 / (8/5) = 7.5, posterior's ess_basic(x, split = FALSE) to 15 digits.
  CHECK(effective_sample_size({{1, 1, 2, 2, 3, 3}, {3, 3, 2, 2, 1, 1}}) == doctest::Approx(7.5).epsilon(1e-14));
}

TEST_CASE("diagnostics: ess of short chains, as posterior and Stan read Geyer's sequence") {
  // Split, these are four chains of 3 draws: too short for any pair of lags after P_0
  // (Geyer's sequence stops at the first even lag of at least n - 5), where posterior and
  // Stan take tau = 2, so ESS = S / 2 = 6 (posterior's ess_bulk and ess_mean both give 6).
  auto s = summarize({{1, 1, 2, 2, 3, 3}, {3, 3, 2, 2, 1, 1}});
  CHECK(s.ess_bulk == doctest::Approx(6).epsilon(1e-14));
  CHECK(s.mcse_mean == doctest::Approx(s.sd / std::sqrt(6.0)).epsilon(1e-14));
  // Chains of 5 draws split into halves of 2: posterior gives no ESS, ppl neither; R-hat is defined.
  auto five = summarize({{1, 2, 3, 4, 5}, {2, 3, 5, 4, 1}});
  CHECK(std::isnan(five.ess_bulk));
  CHECK(std::isnan(five.ess_tail));
  CHECK(std::isnan(five.mcse_mean));
  CHECK(std::isfinite(five.rhat));
  CHECK(std::isnan(effective_sample_size({{1, 2}, {2, 1}})));
}

TEST_CASE("diagnostics: ess of an antithetic chain is capped at S log10 S") {
  // AR(1) with phi = -0.9: tau = (1 + phi) / (1 - phi) = 0.053, below the cap's 1 / log10(S)
  // = 1/3 for S = 1000. Over 2000 seeds of such a series (arima.sim in R, posterior's
  // estimator without its cap) the estimated tau had mean -0.02, sd 0.07 and maximum 0.21:
  // 1/3 is about 5 sd away.
  auto one = ar1(1, 1000, -0.9, 15)[0];
  CHECK(effective_sample_size({one}) == doctest::Approx(1000 * std::log10(1000.0)).epsilon(1e-14));
  CHECK(autocorrelation_time(one) == doctest::Approx(1 / std::log10(1000.0)).epsilon(1e-14));
  // A strictly alternating chain has rho_1 < -1, so P_0 <= 0 ends the sequence before it
  // starts: tau = 2 in posterior and Stan (posterior's ess_basic gives 4 for these 8 draws).
  std::vector<double> alternating = {1, -1, 1, -1, 1, -1, 1, -1};
  CHECK(effective_sample_size({alternating}) == doctest::Approx(4).epsilon(1e-14));
  CHECK(autocorrelation_time(alternating) == doctest::Approx(2).epsilon(1e-14));
}

TEST_CASE("diagnostics: constant draws give NaN diagnostics, an exact mean, no crash") {
  auto s = summarize(chains_t(4, std::vector<double>(100, 0.1)));
  CHECK(s.mean == 0.1);
  CHECK(s.sd == 0);
  CHECK(s.q5 == 0.1);
  CHECK(s.q95 == 0.1);
  CHECK(s.mcse_mean == 0);  // the mean is exact
  CHECK(std::isnan(s.rhat));
  CHECK(std::isnan(s.ess_bulk));
  CHECK(std::isnan(s.ess_tail));
  CHECK(std::isnan(effective_sample_size({{2, 2, 2}, {2, 2, 2}})));
  CHECK(std::isnan(split_rhat({{2, 2, 2}, {2, 2, 2}})));
  CHECK(std::isnan(autocorrelation_time({5, 5, 5, 5})));
}

TEST_CASE("diagnostics: degenerate input never crashes") {
  CHECK(std::isnan(summarize({}).mean));
  CHECK(std::isnan(summarize({{}, {}}).mean));
  auto short_chains = summarize({{1, 2}, {3, 4}});  // too short to split: moments only
  CHECK(short_chains.mean == 2.5);
  CHECK(std::isnan(short_chains.rhat));
  chains_t bad(2, std::vector<double>(10, 1.0));
  bad[0][2] = INFINITY;
  bad[1][3] = NAN;
  auto s = summarize(bad);
  CHECK(std::isnan(s.mean));
  CHECK(std::isnan(s.rhat));
  CHECK(std::isnan(effective_sample_size(bad)));
  // The exposed estimators state their contract instead of reading past a chain's end.
  CHECK_THROWS_AS(effective_sample_size({{1, 2, 3}, {1, 2}}), std::invalid_argument);
  CHECK_THROWS_AS(effective_sample_size({}), std::invalid_argument);
  CHECK_THROWS_AS(split_rhat({{1, 2, 3}}), std::invalid_argument);
  CHECK_THROWS_AS(split_rhat({{1}, {2}}), std::invalid_argument);
}

TEST_CASE("diagnostics: chains of different lengths (an interrupted run) are cut to the shortest") {
  auto d = ar1(4, 1000, 0.5, 13);
  auto uneven = d;
  uneven[0].resize(1000 + 37, 100.0);  // draws past the shortest chain are ignored
  uneven[2].resize(1000 + 5, -100.0);
  auto a = summarize(d), b = summarize(uneven);
  CHECK(b.mean == a.mean);
  CHECK(b.q95 == a.q95);
  CHECK(b.ess_bulk == a.ess_bulk);
  CHECK(b.rhat == a.rhat);
}

TEST_CASE("diagnostics: a two-valued quantity keeps a finite rhat and tail-ESS") {
  // 0/1 draws half and half: folded about the median 0.5 they are all 0.5, a constant with
  // no R-hat, so R-hat is the bulk one; I(x <= q95) is always 1, so tail-ESS is that of q5.
  std::vector<double> all(4000, 0.0);
  std::fill(all.begin() + 2000, all.end(), 1.0);
  std::mt19937_64 rng(14);
  std::shuffle(all.begin(), all.end(), rng);
  chains_t d;
  for (auto first = all.begin(); first != all.end(); first += 1000) d.emplace_back(first, first + 1000);
  auto s = summarize(d);
  CHECK(std::isfinite(s.rhat));
  CHECK(s.rhat < 1.01);
  CHECK(std::isfinite(s.ess_tail));
  CHECK(s.ess_bulk > 0.6 * 4000);
}

}  // namespace test_diagnostics
