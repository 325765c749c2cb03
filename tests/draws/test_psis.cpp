// The generalized Pareto fit on draws from known distributions, and PSIS's rules: the tail
// length, the threshold of k, the weights it returns. Its figures against R's loo are in
// test_loo_reference.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "draws/loo.hpp"
#include "draws/psis.hpp"
#include "core/random.hpp"

namespace test_psis {


namespace {

// n draws of GPD(k, sigma) by inversion, sorted.
std::vector<double> pareto_draws(double k, double sigma, std::size_t n, std::uint64_t seed) {
  ppl::rng rng(seed);
  std::vector<double> x(n);
  for (double& v : x) v = ppl::draws::pareto_quantile(ppl::unit_uniform(rng), {k, sigma});
  std::sort(x.begin(), x.end());
  return x;
}

double sum_of_weights(const ppl::draws::psis_weights& w) {
  double s = 0;
  for (double lw : w.log_weights) s += std::exp(lw);
  return s;
}

}  // namespace

// The maximum likelihood estimate's asymptotic sds (Smith 1984; Hosking & Wallis 1987) are
// (1 + k) / sqrt(n) for k and sigma sqrt(2 (1 + k) / n) for sigma, and Zhang & Stephens's
// estimator is about as efficient for k > 0 (their Section 4). With 10,000 draws that is
// 0.013 and 0.016 at k = 0.3, 0.018 and 0.019 at k = 0.8; the fit must land within 4 of them.
// loo's prior on k moves it by (0.5 - k) 10 / 10010, at most 3e-4: negligible here.
TEST_CASE("pareto_fit: recovers k and sigma from 10,000 draws of a known GPD") {
  const std::size_t n = 10000;
  for (double k : {0.3, 0.8}) {
    const double sigma = 2;
    CAPTURE(k);
    const auto x = pareto_draws(k, sigma, n, k == 0.3 ? 11 : 12);
    const ppl::draws::pareto_estimate fit = ppl::draws::pareto_fit(x);
    const double sd_k = (1 + k) / std::sqrt(static_cast<double>(n));
    const double sd_sigma = sigma * std::sqrt(2 * (1 + k) / static_cast<double>(n));
    CAPTURE(fit.k);
    CAPTURE(fit.sigma);
    CHECK(std::fabs(fit.k - k) < 4 * sd_k);
    CHECK(std::fabs(fit.sigma - sigma) < 4 * sd_sigma);
  }
}

TEST_CASE("pareto_fit: the prior on k is worth 10 draws at 0.5") {
  const auto x = pareto_draws(0.9, 1, 40, 3);
  const ppl::draws::pareto_estimate raw = ppl::draws::pareto_fit(x, false), shrunk = ppl::draws::pareto_fit(x);
  CHECK(shrunk.k == doctest::Approx((40 * raw.k + 5) / 50).epsilon(1e-14));
  CHECK(shrunk.sigma == raw.sigma);  // only k is shrunk, as loo does
  CHECK(std::fabs(shrunk.k - 0.5) < std::fabs(raw.k - 0.5));
}

TEST_CASE("pareto_quantile: the GPD's quantile function, and its exponential limit at k = 0") {
  CHECK(ppl::draws::pareto_quantile(0.5, {1, 2}) == doctest::Approx(2.0));  // sigma (2^k - 1) / k
  CHECK(ppl::draws::pareto_quantile(0.75, {0.5, 1}) == doctest::Approx(2.0));
  CHECK(ppl::draws::pareto_quantile(0.5, {0, 3}) == doctest::Approx(3 * std::log(2.0)));
  CHECK(ppl::draws::pareto_quantile(0.5, {1e-12, 3}) == doctest::Approx(3 * std::log(2.0)));
}

TEST_CASE("psis: tail length and the threshold of k follow the 2024 paper") {
  CHECK(ppl::draws::psis_tail_length(1000, 1) == 95);    // 3 sqrt(1000) = 94.9 < 200
  CHECK(ppl::draws::psis_tail_length(1000, 0.1) == 200);  // 3 sqrt(10000) = 300: capped at 20%
  CHECK(ppl::draws::psis_tail_length(4000, 0.5) == 269);  // 3 sqrt(8000) = 268.3
  CHECK(ppl::draws::pareto_k_threshold(100) == doctest::Approx(0.5));
  CHECK(ppl::draws::pareto_k_threshold(1000) == doctest::Approx(2.0 / 3));
  CHECK(ppl::draws::pareto_k_threshold(2000) == doctest::Approx(1 - 1 / std::log10(2000.0)));
  CHECK(ppl::draws::pareto_k_threshold(2200) == 0.7);
  CHECK(ppl::draws::pareto_k_threshold(100000) == 0.7);
}

TEST_CASE("psis_smooth: normalised weights, no larger than the largest raw ratio's") {
  // Ratios whose tail is Pareto with k = 0.6: log ratios are logs of GPD draws.
  ppl::rng rng(5);
  std::vector<double> log_ratios(2000);
  for (double& v : log_ratios) v = std::log1p(ppl::draws::pareto_quantile(ppl::unit_uniform(rng), {0.6, 1})) + 3;
  const ppl::draws::psis_weights w = ppl::draws::psis_smooth(log_ratios, 1);
  CHECK(w.tail_length == 135);
  CHECK(sum_of_weights(w) == doctest::Approx(1).epsilon(1e-12));
  // k from the 135 largest: sd about (1 + k) / sqrt(135) = 0.14, so within 3 of them.
  CHECK(std::fabs(w.pareto_k - 0.6) < 3 * 1.6 / std::sqrt(135.0));
  // The body is untouched: a draw below the tail keeps its ratio to the smallest one.
  const double top = *std::max_element(log_ratios.begin(), log_ratios.end());
  const auto low = std::min_element(log_ratios.begin(), log_ratios.end()) - log_ratios.begin();
  const auto mid = std::find_if(log_ratios.begin(), log_ratios.end(), [&](double v) { return v < top - 3; }) - log_ratios.begin();
  CHECK(w.log_weights[mid] - w.log_weights[low] == doctest::Approx(log_ratios[mid] - log_ratios[low]));
  // Truncation: no weight is larger, against the body's, than the largest raw ratio.
  const double largest = *std::max_element(w.log_weights.begin(), w.log_weights.end());
  CHECK(largest - w.log_weights[low] <= top - log_ratios[low] + 1e-12);
}

TEST_CASE("psis_smooth: equal ratios give equal weights and no k") {
  const ppl::draws::psis_weights w = ppl::draws::psis_smooth(std::vector<double>(500, -2.5), 1);
  CHECK(std::isnan(w.pareto_k));
  for (double lw : w.log_weights) CHECK(lw == doctest::Approx(-std::log(500.0)));
}

TEST_CASE("loo_observation: independent draws of a likelihood that never varies") {
  // p(y | theta) the same in every draw: leaving y out changes nothing, so elpd_loo = lpd
  // and p_loo = 0; the draws count fully.
  const std::vector<std::vector<double>> log_lik(2, std::vector<double>(100, -1.25));
  const ppl::draws::loo_point p = ppl::draws::loo_observation(log_lik);
  CHECK(p.elpd_loo == doctest::Approx(-1.25));
  CHECK(p.p_loo == doctest::Approx(0).epsilon(1e-12));
  CHECK(p.looic == doctest::Approx(2.5));
  CHECK(p.r_eff == 1);
  CHECK(p.n_eff == doctest::Approx(200));
  CHECK(p.mcse_elpd_loo == doctest::Approx(0));
  // Such a k counts as good.
  CHECK(ppl::draws::pareto_k_table({p}, 0.7)[0].count == 1);
}

}  // namespace test_psis
