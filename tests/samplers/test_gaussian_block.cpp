// gaussian_block (samplers/gaussian_block.cpp): Normal unknowns that a term combines in one
// argument (or a term's value with its mean), drawn jointly from their multivariate normal
// conditional, checked against the exact Gaussian posteriors of known-variance regressions,
// random effects with their mean, and a random walk.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <string>

#include "samplers/gaussian_block.hpp"
#include "samplers/structure.hpp"
#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_gaussian_block {

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

TEST_CASE("the block integrated out: a known-variance regression's evidence, N(y | 0, s^2 I + X Sigma0 X')") {
  // What a companion move targets (samplers/gaussian_block_companions.cpp): the log of the
  // integral of the block's terms over the block, here in closed form. Exact up to rounding,
  // at two points of the block (it must not depend on where the block is) and with a
  // change point c that the means read outside the affine form.
  const std::vector<double> x = {-1.2, -0.4, 0.3, 0.9, 1.6}, y = {2.1, 0.7, -0.2, 0.4, 1.9};
  const double s = 0.7, prior_sd = 3;
  ppl::testing::fixture f("data x: real[5]\ndata y: real[5]\ndata c: real\na ~ Normal(0, 3)\nb ~ Normal(0, 3)\n"
                          "for n in 1:5 { y[n] ~ Normal(a + b * (x[n] - c) * (x[n] > c), 0.7) }\n",
                          {"x=" + list(x), "y=" + list(y), "c=0.1"});
  auto block = ppl::samplers::make_gaussian_block(*f.graph, {f.model->find("a"), f.model->find("b")});
  Eigen::MatrixXd design(5, 2);
  Eigen::VectorXd obs(5);
  for (int n = 0; n < 5; ++n) {
    const double xn = x[static_cast<std::size_t>(n)];
    design.row(n) << 1, (xn - 0.1) * (xn > 0.1);
    obs[n] = y[static_cast<std::size_t>(n)];
  }
  const Eigen::MatrixXd cov = s * s * Eigen::MatrixXd::Identity(5, 5) + prior_sd * prior_sd * design * design.transpose();
  const Eigen::LLT<Eigen::MatrixXd> llt(cov);
  const double exact = -0.5 * obs.dot(llt.solve(obs)) - std::log(llt.matrixL().toDenseMatrix().diagonal().prod()) - 2.5 * std::log(2 * M_PI);
  for (double at : {0.0, 5.0}) {
    f.mutable_value("a").data[0] = at;
    f.mutable_value("b").data[0] = -at;
    f.graph->update_derived();
    CHECK(block->integrated_log_density() == doctest::Approx(exact).epsilon(1e-10));
    CHECK(f.value("a").data[0] == at);  // left where it was
  }
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
  // Said from the text before any block is built (samplers::multiplies_them): a product or
  // a dot product of two of them in a term or in a definition a term reads...
  const auto bpmf = std::make_unique<ppl::lang::ir::model>(ppl::lang::compile({"test.ppl", 
      "data user: int[R]\ndata item: int[R]\ndata rating: real[R]\nfor i in 1:3 { U[i] ~ MultiNormal([0, 0], [[1, 0], [0, 1]]) }\n"
      "for j in 1:4 { V[j] ~ MultiNormal([0, 0], [[1, 0], [0, 1]]) }\nfor r in 1:R { m[r] = dot(U[user[r]], V[item[r]]) }\n"
      "rating ~ Normal(m, 1)\n"}, ppl::stdlib::library()));
  const int U = bpmf->find("U"), V = bpmf->find("V");
  CHECK(ppl::samplers::multiplies_them(*bpmf, {U, V}));
  CHECK_FALSE(ppl::samplers::multiplies_them(*bpmf, {U}));
  // ... but not one only the output reads: the regression's block stands beside it.
  auto q = infer("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 100)\nb ~ Normal(0, 100)\ny ~ Normal(a + b * x, 0.5)\nab = a * b\n",
                 {"x=" + list(years), "y=" + list(temps)}, two_chains(100, 200, 73));
  CHECK(q.kind("a") == "gaussian_block");
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

namespace {

// The exact posterior of unknowns x under Gaussian terms value ~ Normal(coef'x + offset, sd):
// each adds coef coef' / sd^2 to the precision and coef (value - offset) / sd^2 to c.
struct gaussian_terms {
  Eigen::MatrixXd q;
  Eigen::VectorXd c;
  explicit gaussian_terms(Eigen::Index p) : q(Eigen::MatrixXd::Zero(p, p)), c(Eigen::VectorXd::Zero(p)) {}
  void add(const Eigen::VectorXd& coef, double value, double sd) {
    q += coef * coef.transpose() / (sd * sd);
    c += coef * value / (sd * sd);
  }
  Eigen::VectorXd unit(Eigen::Index k, double scale = 1) const { return Eigen::VectorXd::Unit(c.size(), k) * scale; }
  Eigen::VectorXd mean() const { return q.llt().solve(c); }
  Eigen::MatrixXd covariance() const { return q.inverse(); }
};

}  // namespace

TEST_CASE("random effects drawn with their mean: a sparse block of 31, exact posterior, mu's ESS per draw near 1") {
  // 30 groups of two observations, strongly pooled (the groups' sd 0.1 against the data's
  // 1): alternating mu | b and b | mu moves mu by its conditional sd 0.1 / sqrt(30) against
  // a marginal sd near 0.13, an ESS of a few percent; the joint draw is exact.
  const int groups = 30, per_group = 2;
  std::vector<double> y;
  std::string g = "g=[";
  for (int j = 0; j < groups; ++j)
    for (int k = 0; k < per_group; ++k) {
      y.push_back(1 + 0.8 * std::sin(1.7 * j + k));
      g += (g.size() > 3 ? "," : "") + std::to_string(j + 1);
    }
  auto p = infer("data J: int\ndata g: int[N]\ndata y: real[N]\nmu ~ Normal(0, 10)\nfor j in 1:J { b[j] ~ Normal(mu, 0.1) }\n"
                 "for n in 1:N { y[n] ~ Normal(b[g[n]], 1) }\n",
                 {"J=30", g + "]", "y=" + list(y)}, two_chains(200, 2000, 75));
  CHECK(p.kind("mu") == "gaussian_block");
  CHECK(p.kind("b") == "gaussian_block");
  gaussian_terms e(groups + 1);  // mu, then b
  e.add(e.unit(0), 0, 10);
  for (int j = 0; j < groups; ++j) e.add(e.unit(j + 1) - e.unit(0), 0, 0.1);
  for (std::size_t n = 0; n < y.size(); ++n) e.add(e.unit(static_cast<Eigen::Index>(n / per_group) + 1), y[n], 1);
  const Eigen::VectorXd mean = e.mean();
  const Eigen::MatrixXd cov = e.covariance();
  check_mean(p, "mu", mean[0]);
  check_sd(p, "mu", std::sqrt(cov(0, 0)));
  for (int j : {1, 17, 30}) {
    check_mean(p, "b[" + std::to_string(j) + "]", mean[j]);
    check_sd(p, "b[" + std::to_string(j) + "]", std::sqrt(cov(j, j)));
  }
  CHECK(p.summary("mu").ess_bulk >= 0.8 * 4000);
}

TEST_CASE("a random walk observed with noise: the path drawn at once (a banded block), exact posterior") {
  // x[t] ~ Normal(x[t - 1], 0.3), y[t] ~ Normal(x[t], 1): neighbouring states are
  // correlated about 0.9 a posteriori, and one state at a time mixes slowly.
  const int steps = 40;
  std::vector<double> y;
  for (int t = 0; t < steps; ++t) y.push_back(0.05 * t + std::cos(0.9 * t));
  auto p = infer("data y: real[T]\nx[1] ~ Normal(0, 10)\nfor t in 2:T { x[t] ~ Normal(x[t - 1], 0.3) }\n"
                 "for t in 1:T { y[t] ~ Normal(x[t], 1) }\n",
                 {"T=40", "y=" + list(y)}, two_chains(200, 2000, 76));
  CHECK(p.kind("x") == "gaussian_block");
  gaussian_terms e(steps);
  e.add(e.unit(0), 0, 10);
  for (int t = 1; t < steps; ++t) e.add(e.unit(t) - e.unit(t - 1), 0, 0.3);
  for (int t = 0; t < steps; ++t) e.add(e.unit(t), y[static_cast<std::size_t>(t)], 1);
  const Eigen::VectorXd mean = e.mean();
  const Eigen::MatrixXd cov = e.covariance();
  for (int t : {1, 20, 40}) {
    const std::string name = "x[" + std::to_string(t) + "]";
    check_mean(p, name, mean[t - 1]);
    check_sd(p, name, std::sqrt(cov(t - 1, t - 1)));
    CHECK(p.summary(name).ess_bulk >= 0.8 * 4000);
  }
}

TEST_CASE("MultiNormal unknowns in a block: varying intercepts and slopes with their mean vector, exact posterior") {
  // b[j] ~ MultiNormal(mu, S) with S known, y[n] ~ Normal(b[g[n], 1] + b[g[n], 2] x[n], 0.4):
  // b enters the means affinely but in no form a conjugate pair takes (NUTS would move it),
  // and mu is b's MultiNormal mean; (mu, b) is drawn as one block, each b[j] ~ MultiNormal
  // term whitened by S's Cholesky factor.
  const int groups = 12, per_group = 4;
  std::vector<double> x, y;
  std::string g = "g=[";
  for (int j = 0; j < groups; ++j)
    for (int k = 0; k < per_group; ++k) {
      x.push_back(k - 1.5);
      y.push_back(1 + 0.3 * std::sin(2.1 * j) + (0.5 + 0.2 * std::cos(1.3 * j)) * x.back() + 0.3 * std::sin(5.0 * (j * per_group + k)));
      g += (g.size() > 3 ? "," : "") + std::to_string(j + 1);
    }
  auto p = infer("data J: int\ndata g: int[N]\ndata x: real[N]\ndata y: real[N]\n"
                 "mu ~ MultiNormal([0.0, 0.0], [[4.0, 0.0], [0.0, 4.0]])\n"
                 "for j in 1:J { b[j] ~ MultiNormal(mu, [[0.25, 0.05], [0.05, 0.09]]) }\n"
                 "for n in 1:N { y[n] ~ Normal(b[g[n], 1] + b[g[n], 2] * x[n], 0.4) }\n",
                 {"J=12", g + "]", "x=" + list(x), "y=" + list(y)}, two_chains(200, 2000, 77));
  CHECK(p.kind("mu") == "gaussian_block");
  CHECK(p.kind("b") == "gaussian_block");
  // Coordinates: mu[1], mu[2], then b[j, 1], b[j, 2] for each j.
  gaussian_terms e(2 + 2 * groups);
  e.q.topLeftCorner(2, 2) += Eigen::Matrix2d::Identity() / 4;
  Eigen::Matrix2d s;
  s << 0.25, 0.05, 0.05, 0.09;
  const Eigen::Matrix2d s_inv = s.inverse();
  for (int j = 0; j < groups; ++j) {
    Eigen::MatrixXd d = Eigen::MatrixXd::Zero(2, 2 + 2 * groups);  // b[j] - mu
    d.block(0, 2 + 2 * j, 2, 2) = Eigen::Matrix2d::Identity();
    d.block(0, 0, 2, 2) = -Eigen::Matrix2d::Identity();
    e.q += d.transpose() * s_inv * d;
  }
  for (std::size_t n = 0; n < y.size(); ++n) {
    const auto j = static_cast<Eigen::Index>(n / per_group);
    e.add(e.unit(2 + 2 * j) + e.unit(3 + 2 * j, x[n]), y[n], 0.4);
  }
  const Eigen::VectorXd mean = e.mean();
  const Eigen::MatrixXd cov = e.covariance();
  const std::vector<std::pair<std::string, int>> checked = {{"mu[1]", 0}, {"mu[2]", 1}, {"b[1,1]", 2}, {"b[7,2]", 15}};
  for (const auto& [name, k] : checked) {
    check_mean(p, name, mean[k]);
    check_sd(p, name, std::sqrt(cov(k, k)));
    CHECK(p.summary(name).ess_bulk >= 0.8 * 4000);
  }
}

}  // namespace test_gaussian_block
