// The chain's trial of its plan (inference/chain_trial.hpp): the ESS it compares, and the
// choice on two hierarchies — one whose scale the data pin (the scale move only costs),
// one a funnel (the move is what mixes the scale) — and with a Hamiltonian block (no trial).
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "core/random.hpp"
#include "inference/chain_trial.hpp"
#include "tests/samplers/inference_fixture.hpp"

namespace test_plan_trial {

using ppl::inference::plan_trial;
using ppl::testing::infer;
using ppl::testing::two_chains;

namespace {

// An AR(1) series x[t] = rho x[t - 1] + e[t] of n draws, from a fixed seed.
std::vector<double> ar1(double rho, std::size_t n, std::uint64_t seed) {
  ppl::rng rng(seed);
  boost::random::normal_distribution<double> normal;
  std::vector<double> x(n);
  double v = normal(rng) / std::sqrt(1 - rho * rho);
  for (auto& xi : x) xi = v = rho * v + normal(rng);
  return x;
}

// Every chain's verdict on its optional samplers, from the run's reports.
std::vector<std::string> verdicts(const ppl::testing::posterior& p) {
  std::vector<std::string> out;
  for (const auto& chain : p.result.reports)
    for (const auto& r : chain)
      if (r.rfind("plan: ", 0) == 0) out.push_back(r);
  return out;
}

bool all_say(const std::vector<std::string>& v, const std::string& word) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(word) != std::string::npos; });
}

// y[j, k] = theta[j] + noise with theta spread well beyond the noise: 30 groups of 5, the
// scale pinned by the data, so the centred Gibbs update of tau mixes alone.
std::vector<std::string> pinned_data() {
  std::string y = "y=[";
  for (int j = 1; j <= 30; ++j) {
    y += j > 1 ? ",[" : "[";
    for (int k = 1; k <= 5; ++k) y += (k > 1 ? "," : "") + std::to_string(4 * std::sin(1.3 * j) + std::cos(7.0 * j + 3 * k));
    y += "]";
  }
  return {y + "]"};
}

const char* const pinned = R"(
data y: real[J, K]
mu ~ Normal(0, 10)
tau ~ Gamma(1, 1)
for j in 1:J {
  theta[j] ~ Normal(mu, 1 / sqrt(tau))
  for k in 1:K { y[j, k] ~ Normal(theta[j], 1) }
}
)";

// The centred eight schools: tau's funnel.
const char* const funnel = ppl::testing::centred_eight_schools;
const std::vector<std::string>& schools = ppl::testing::eight_schools_data;

}  // namespace

TEST_CASE("the trial's ESS: of ranks, near n for independent draws, near n (1 - rho) / (1 + rho) for AR(1)") {
  // Geyer's estimate over 2,000 draws: its relative sd is about 0.1 for independent draws
  // and 0.25 at rho = 0.9 (Monte Carlo, this seed); the bounds are 3 of those.
  const auto iid = ar1(0, 2000, 7), slow = ar1(0.9, 2000, 7);
  const double n = 2000, slow_exact = n * 0.1 / 1.9;
  CHECK(plan_trial::rank_ess(iid) > 0.7 * n);
  CHECK(plan_trial::rank_ess(iid) < 1.3 * n);
  CHECK(plan_trial::rank_ess(slow) > 0.25 * slow_exact);
  CHECK(plan_trial::rank_ess(slow) < 1.75 * slow_exact);
  // A monotone transform leaves the ranks, so the figure, unchanged.
  std::vector<double> exp_slow(slow);
  for (auto& x : exp_slow) x = std::exp(3 * x);
  CHECK(plan_trial::rank_ess(exp_slow) == plan_trial::rank_ess(slow));
  // A window's efficiency is its least ESS per work; constant series say nothing.
  const std::vector<std::vector<double>> window = {iid, slow, std::vector<double>(2000, 1.0)};
  CHECK(plan_trial::efficiency(window, 1000) == doctest::Approx(plan_trial::rank_ess(slow) / 1000));
  CHECK(std::isnan(plan_trial::efficiency({std::vector<double>(50, 2.0)}, 1000)));
  CHECK(std::isnan(plan_trial::efficiency(window, 0)));
}

TEST_CASE("the trial drops a scale move where the data pin the scale, and keeps it in a funnel") {
  auto pinned_run = infer(pinned, pinned_data(), two_chains(1000, 200, 5));
  const auto dropped = verdicts(pinned_run);
  const std::string first_dropped = dropped.empty() ? std::string("no verdict") : dropped[0];
  INFO(first_dropped);
  CHECK(dropped.size() == 2);
  CHECK(all_say(dropped, "(tau with theta (scale move)) dropped after a trial"));
  auto funnel_run = infer(funnel, schools, two_chains(1000, 200, 5));
  const auto kept = verdicts(funnel_run);
  const std::string first_kept = kept.empty() ? std::string("no verdict") : kept[0];
  INFO(first_kept);
  CHECK(kept.size() == 2);
  // Kept for the spread of tau, which the windows alone could not see the cost of.
  CHECK(all_say(kept, "(tau with theta (scale move)) kept: `tau` spreads widely"));
  // Too short a warmup for the trial: kept, and said so.
  auto short_run = infer(funnel, schools, two_chains(100, 50, 5));
  CHECK(all_say(verdicts(short_run), "kept: the warmup (100 iterations) is too short"));
}

TEST_CASE("no trial beside a Hamiltonian block: the scale move stays") {
  // mu and tau joined to NUTS: its adaptation is not to be disturbed.
  auto p = infer(funnel, schools, [] {
    auto o = two_chains(300, 50, 5);
    o.overrides = {{"mu", "nuts"}};
    return o;
  }());
  CHECK(p.kind("mu") == "nuts");
  CHECK(all_say(verdicts(p), "kept: a Hamiltonian block adapts"));
}

}  // namespace test_plan_trial
