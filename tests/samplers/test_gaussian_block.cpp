// gaussian_block (samplers/gaussian_block.cpp): Normal unknowns that a term combines in one
// argument, drawn jointly from their multivariate normal conditional, checked against the
// exact Gaussian posterior of known-variance regressions.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <string>

#include "tests/samplers/inference_fixture.hpp"

using ppl::testing::check_mean;
using ppl::testing::check_sd;
using ppl::testing::infer;
using ppl::testing::two_chains;

namespace {

// The exact posterior of (a, b) for y[n] ~ Normal(a + b x[n], s) and a Gaussian prior
// with precision `prior` and mean 0: precision Q = prior + X'X / s^2, mean Q^-1 X'y / s^2.
struct exact_posterior {
  Eigen::Vector2d mean;
  Eigen::Matrix2d covariance;
};

exact_posterior regression(const std::vector<double>& x, const std::vector<double>& y, double s, const Eigen::Matrix2d& prior) {
  Eigen::Matrix2d q = prior;
  Eigen::Vector2d c = Eigen::Vector2d::Zero();
  for (std::size_t n = 0; n < x.size(); ++n) {
    const Eigen::Vector2d row(1, x[n]);
    q += row * row.transpose() / (s * s);
    c += row * y[n] / (s * s);
  }
  const Eigen::Matrix2d cov = q.inverse();
  return {cov * c, cov};
}

std::string list(const std::vector<double>& v) {
  std::string out = "[";
  for (double x : v) out += (out.size() > 1 ? "," : "") + std::to_string(x);
  return out + "]";
}

const std::vector<double> years = {1990, 1991, 1992, 1993, 1994, 1995, 1996, 1997, 1998, 1999};
const std::vector<double> temps = {8.1, 8.4, 7.9, 8.8, 8.6, 9.1, 8.7, 9.3, 9.0, 9.6};

}  // namespace

TEST_CASE("an uncentred regression: intercept and slope drawn jointly, exact posterior, ESS per draw near 1") {
  // x near 1995 makes a and b correlated -0.99999 a posteriori: one conjugate draw at a time
  // (the old plan) barely moved them.
  auto p = infer("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 100)\nb ~ Normal(0, 100)\ny ~ Normal(a + b * x, 0.5)\n",
                 {"x=" + list(years), "y=" + list(temps)}, two_chains(200, 2000, 71));
  CHECK(p.kind("a") == "gaussian_block");
  CHECK(p.kind("b") == "gaussian_block");
  const auto e = regression(years, temps, 0.5, Eigen::Matrix2d::Identity() / 1e4);
  check_mean(p, "a", e.mean[0]);
  check_mean(p, "b", e.mean[1]);
  check_sd(p, "a", std::sqrt(e.covariance(0, 0)));
  check_sd(p, "b", std::sqrt(e.covariance(1, 1)));
  // Independent draws: a bulk ESS of at least 0.8 per draw (4,000 draws; its estimate
  // varies by a few percent).
  CHECK(p.summary("a").ess_bulk >= 0.8 * 4000);
  CHECK(p.summary("b").ess_bulk >= 0.8 * 4000);
}

TEST_CASE("a block through a derived mean, with one unknown the prior mean of the other") {
  // a ~ N(0, 10^2), b ~ N(a, 10^2): prior precision [[2, -1], [-1, 1]] / 100.
  auto p = infer("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(a, 10)\n"
                 "for n in 1:N { mu[n] = a + b * (x[n] - 1990) }\nfor n in 1:N { y[n] ~ Normal(mu[n], 0.5) }\n",
                 {"x=" + list(years), "y=" + list(temps)}, two_chains(200, 2000, 72));
  CHECK(p.kind("a") == "gaussian_block");
  std::vector<double> shifted;
  for (double t : years) shifted.push_back(t - 1990);
  Eigen::Matrix2d prior;
  prior << 2, -1, -1, 1;
  const auto e = regression(shifted, temps, 0.5, prior / 100);
  check_mean(p, "a", e.mean[0]);
  check_mean(p, "b", e.mean[1]);
  check_sd(p, "a", std::sqrt(e.covariance(0, 0)));
  check_sd(p, "b", std::sqrt(e.covariance(1, 1)));
}

TEST_CASE("no block where the terms are not affine in the unknowns jointly, or a scale reads them") {
  // a * b is affine in each alone (so each keeps its conjugate draw), not in both.
  auto p = infer("data y: real[N]\na ~ Normal(1, 1)\nb ~ Normal(1, 1)\ny ~ Normal(a * b, 1)\n", {"y=[1.5, 2, 0.5]"}, two_chains(100, 200, 73));
  CHECK(p.kind("a") == "conjugate");
  CHECK(p.kind("b") == "conjugate");
}

TEST_CASE("a posterior-predictive yrep is left out of the block's conditional and drawn after it") {
  // yrep depends on a and b but nothing observed depends on it: a prediction. Were its
  // terms in the block's conditional (as children observed at their last draws), a and b
  // would be pulled back toward the previous sweep and their ESS would fall to about a
  // third; drawn from the sweep's new a and b, yrep[n] has the exact predictive law
  // Normal(m_n, x_n' C x_n + s^2) with (m, C) the posterior's mean and covariance.
  auto p = infer("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 100)\nb ~ Normal(0, 100)\n"
                 "for n in 1:N { mu[n] = a + b * x[n]\n  y[n] ~ Normal(mu[n], 0.5)\n  yrep[n] ~ Normal(mu[n], 0.5) }\n",
                 {"x=" + list(years), "y=" + list(temps)}, two_chains(200, 2000, 74));
  CHECK(p.kind("a") == "gaussian_block");
  CHECK(p.kind("yrep") == "ancestral");
  const auto e = regression(years, temps, 0.5, Eigen::Matrix2d::Identity() / 1e4);
  check_mean(p, "a", e.mean[0]);
  check_sd(p, "b", std::sqrt(e.covariance(1, 1)));
  CHECK(p.summary("a").ess_bulk >= 0.8 * 4000);
  CHECK(p.summary("b").ess_bulk >= 0.8 * 4000);
  for (std::size_t n : {0, 9}) {
    const Eigen::Vector2d row(1, years[n]);
    const std::string name = "yrep[" + std::to_string(n + 1) + "]";
    check_mean(p, name, row.dot(e.mean));
    check_sd(p, name, std::sqrt(row.dot(e.covariance * row) + 0.25));
  }
  // Any other kind for yrep would have to see it in the block's conditional.
  auto o = two_chains(10, 10, 74);
  o.overrides = {{"yrep", "slice"}};
  CHECK_THROWS_WITH_AS(infer("data y: real[N]\na ~ Normal(0, 1)\ny ~ Normal(a, 1)\nyrep ~ Normal(a, 1)\n", {"y=[1, 2]"}, o),
                       doctest::Contains("`yrep` is a prediction"), std::invalid_argument);
}
