// PSIS-LOO against the R package loo 2.5.1: tests/data/loo_log_lik.csv holds a
// log-likelihood matrix (4 chains x 250 draws, 13 observations, three of them outliers whose
// Pareto k are 0.67, 0.86 and 1.04), tests/data/loo_pointwise.csv and loo_estimates.csv what
// loo computed for it, written with 17 digits by tests/support/loo_reference.R. ppl follows
// the same algorithm step by step (relative_eff, the tail length, gpdfit with its prior on k,
// the expected order statistics, truncation, normalisation), so only the order of sums
// differs: every figure agrees within 3e-12 on x86-64, and 1e-9 relative is far above that
// rounding yet far below anything an algorithmic change moves. Tried on this fixture:
// leaving out the prior on k moves some k by 99% and some elpd_loo by 1e-2 (relative); a
// tail one draw longer moves k by up to 14% and elpd_loo by 5e-4; quantiles at i / (M + 1)
// instead of (i - 1/2) / M move elpd_loo by 2e-2.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "draws/reader.hpp"
#include "draws/loo.hpp"
#include "draws/psis.hpp"
#include "tests/support/reference_csv.hpp"

namespace test_loo_reference {

using ppl::testing::data_fixture;
using ppl::testing::read_reference_csv;
using ppl::testing::reference_number;

namespace {

constexpr double tolerance = 1e-9;

void check_close(const std::string& what, double actual, double expected) {
  CAPTURE(what);
  CAPTURE(actual);
  CAPTURE(expected);
  REQUIRE(!std::isnan(expected));
  CHECK(std::fabs(actual - expected) <= tolerance * std::fabs(expected));
}

// Every observation's figures, in the file's order.
std::vector<ppl::draws::loo_point> pointwise(const ppl::draws::draws_source& d) {
  std::vector<ppl::draws::loo_point> out;
  for (const auto& chains : d.read(0, d.columns().size())) out.push_back(ppl::draws::loo_observation(chains));
  return out;
}

}  // namespace

TEST_CASE("loo: each observation's figures are loo 2.5.1's") {
  const ppl::draws::draws_source d({data_fixture("loo_log_lik.csv")});
  REQUIRE(d.chains() == 4);
  REQUIRE(d.rows(0) == 250);
  const auto points = pointwise(d);
  const auto expected = read_reference_csv(data_fixture("loo_pointwise.csv"));
  REQUIRE(points.size() == expected.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& want = expected[i];
    const auto& p = points[i];
    CAPTURE(want.at("observation"));
    CHECK(d.columns()[i] == want.at("observation"));
    auto figure = [&](const char* name) { return reference_number(want.at(name)); };
    check_close("r_eff", p.r_eff, figure("r_eff"));
    check_close("pareto_k", p.pareto_k, figure("pareto_k"));
    check_close("n_eff", p.n_eff, figure("n_eff"));
    check_close("elpd_loo", p.elpd_loo, figure("elpd_loo"));
    check_close("p_loo", p.p_loo, figure("p_loo"));
    check_close("looic", p.looic, figure("looic"));
    // The 2024 MCSE, from loo's weights in R (loo 2.5.1 approximated it by quantiles).
    check_close("mcse_elpd_loo", p.mcse_elpd_loo, figure("mcse_elpd_loo"));
  }
}

TEST_CASE("loo: the totals and their standard errors are loo 2.5.1's") {
  const ppl::draws::draws_source d({data_fixture("loo_log_lik.csv")});
  const auto points = pointwise(d);
  const ppl::draws::loo_result r = ppl::draws::loo(points, 1000);
  for (const auto& row : read_reference_csv(data_fixture("loo_estimates.csv"))) {
    const std::string q = row.at("quantity");
    CAPTURE(q);
    const ppl::draws::loo_estimate& e = q == "elpd_loo" ? r.elpd_loo : q == "p_loo" ? r.p_loo : r.looic;
    REQUIRE((q == "elpd_loo" || q == "p_loo" || q == "looic"));
    check_close(q, e.estimate, reference_number(row.at("estimate")));
    check_close(q + " SE", e.se, reference_number(row.at("se")));
  }
  // Some k are above the threshold: no total MCSE, as loo's mcse_loo gives NA.
  CHECK(std::isnan(r.mcse_elpd_loo));
}

TEST_CASE("loo: the Pareto k table uses the 2024 threshold, where loo 2.5.1 uses 0.7") {
  const ppl::draws::draws_source d({data_fixture("loo_log_lik.csv")});
  const auto points = pointwise(d);
  const double t = ppl::draws::pareto_k_threshold(1000);
  CHECK(t == doctest::Approx(2.0 / 3).epsilon(1e-15));
  const auto bins = ppl::draws::pareto_k_table(points, t);
  REQUIRE(bins.size() == 3);
  // log_lik[11] has k = 0.672: loo 2.5.1 calls it ok (0.5, 0.7]; at S = 1000 it is bad.
  CHECK(bins[0].count == 10);
  CHECK(bins[1].count == 2);
  CHECK(bins[2].count == 1);
  // The smallest n_eff of the good ones is log_lik[9]'s; the others' are not shown.
  check_close("min n_eff", bins[0].min_n_eff, points[8].n_eff);
  CHECK(std::isnan(bins[1].min_n_eff));
  CHECK(std::isnan(bins[2].min_n_eff));
}

TEST_CASE("WAIC of one observation by hand, and the totals' SEs") {
  // Draws of p(y | theta) 1 and 3, in two chains of one draw each (pooled, as loo::waic):
  // lpd = log 2, p_waic = the variance of {0, log 3} with divisor 1 = (log 3)^2 / 2.
  const auto w = ppl::draws::waic_observation({{0.0}, {std::log(3.0)}});
  const double p = std::log(3.0) * std::log(3.0) / 2;
  CHECK(w.p_waic == doctest::Approx(p).epsilon(1e-15));
  CHECK(w.elpd_waic == doctest::Approx(std::log(2.0) - p).epsilon(1e-15));
  CHECK(w.waic == doctest::Approx(-2 * (std::log(2.0) - p)).epsilon(1e-15));
  // Two observations: sums, and sqrt(n) times the sd (divisor n - 1) of the pointwise values.
  const auto r = ppl::draws::waic({{-1, 0.5, 2}, {-3, 1.5, 6}});
  CHECK(r.elpd_waic.estimate == -4);
  CHECK(r.elpd_waic.se == doctest::Approx(std::sqrt(2 * 2.0)).epsilon(1e-15));  // values -1, -3: sd sqrt(2)
  CHECK(r.p_waic.estimate == 2);
  CHECK(r.waic.estimate == 8);
}

}  // namespace test_loo_reference
