// The parts of `nuts` and `hmc` that can be checked alone: Stan's warmup windows, dual
// averaging, the metric (momentum draws, velocity, kinetic energy) and its windowed
// estimate with Stan's shrinkage. The samplers as a whole are checked against known
// posteriors in tests/continuous/test_hamiltonian.cpp.
#include <doctest/doctest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <vector>

#include "samplers/hamiltonian_adaptation.hpp"
#include "samplers/hamiltonian_metric.hpp"

namespace test_hamiltonian_parts {

using namespace ppl::samplers::hamiltonian;

namespace {

std::vector<long> closing(long warmup) {
  windows w;
  w.reset(warmup);
  std::vector<long> out;
  for (long i = 0; i < warmup; ++i)
    if (w.closes(i)) out.push_back(i);
  return out;
}

}  // namespace

TEST_CASE("windows: Stan's schedule, 75 + 25, 50, 100, 200, 500 + 50 for a warmup of 1000") {
  CHECK(closing(1000) == std::vector<long>{99, 149, 249, 449, 949});
  windows w;
  w.reset(1000);
  CHECK_FALSE(w.collects(74));
  CHECK(w.collects(75));
  CHECK(w.collects(949));
  CHECK_FALSE(w.collects(950));
  // Too short for the defaults: 15% / 75% / 10%; too short for any: none.
  CHECK(closing(100) == std::vector<long>{89});
  CHECK(closing(10).empty());
  // A start in the bulk with a path's metric: an initial buffer of 25, the rest as before.
  windows b;
  b.reset(1000, true);
  CHECK_FALSE(b.collects(24));
  CHECK(b.collects(25));
  std::vector<long> ends;
  for (long i = 0; i < 1000; ++i)
    if (b.closes(i)) ends.push_back(i);
  CHECK(ends == std::vector<long>{49, 99, 199, 399, 949});
}

TEST_CASE("dual averaging: Hoffman & Gelman's Algorithm 5 with Stan's constants") {
  dual_averaging d;
  d.target = 0.8;
  d.restart(0.5);
  CHECK(d.mu == doctest::Approx(std::log(5.0)));
  // One step at acceptance 1: s_bar = (0.8 - 1) / 11, x = mu - s_bar / 0.05, x_bar = x.
  const double step = d.learn(1.0);
  const double x = std::log(5.0) + 0.2 / 11 / 0.05;
  CHECK(step == doctest::Approx(std::exp(x)));
  CHECK(d.final_step() == doctest::Approx(std::exp(x)));
  // Acceptance above 1 counts as 1; a long run at the target settles.
  dual_averaging e = d;
  CHECK(e.learn(3.0) == doctest::Approx(d.learn(1.0)));
  for (int i = 0; i < 2000; ++i) d.learn(0.8);
  const double settled = d.final_step();
  d.learn(0.8);
  CHECK(d.final_step() == doctest::Approx(settled).epsilon(1e-3));
}

TEST_CASE("metric: momentum draws have covariance M, velocity M^-1 p, and kinetic energy 1/2 p' M^-1 p") {
  ppl::rng rng(11);
  metric m;
  m.reset(2, false);
  Eigen::VectorXd v(2);
  m.set_diagonal(Eigen::Vector2d(4, 0.25));  // M^-1: momentum variances 1/4 and 4
  Eigen::VectorXd p;
  double s0 = 0, s1 = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    m.draw(rng, p);
    s0 += p[0] * p[0], s1 += p[1] * p[1];
  }
  // The variance of a sample variance of n normals is 2 sigma^4 / n: 5 standard errors.
  CHECK(std::fabs(s0 / n - 0.25) < 5 * 0.25 * std::sqrt(2.0 / n));
  CHECK(std::fabs(s1 / n - 4) < 5 * 4 * std::sqrt(2.0 / n));
  p = Eigen::Vector2d(1, 2);
  m.velocity(p, v);
  CHECK(v[0] == 4);
  CHECK(v[1] == 0.5);
  CHECK(metric::kinetic(p, v) == doctest::Approx(0.5 * (4 + 1)));

  metric dense;
  dense.reset(2, true);
  Eigen::Matrix2d c;
  c << 2, 0.5, 0.5, 1;
  dense.set_covariance(c);
  dense.velocity(p, v);
  CHECK(v[0] == doctest::Approx(3));
  CHECK(v[1] == doctest::Approx(2.5));
  Eigen::Matrix2d not_definite;
  not_definite << 1, 2, 2, 1;
  dense.set_covariance(not_definite);  // refused: the metric stays
  dense.velocity(p, v);
  CHECK(v[0] == doctest::Approx(3));
}

TEST_CASE("metric_estimate: the window's variance shrunk towards 1e-3 as Stan does") {
  metric_estimate e;
  e.reset(2, ppl::samplers::metric_choice::diagonal);
  const std::vector<double> xs = {1, 2, 4, 7, 11};  // sample variance 16.5
  for (double x : xs) e.add(Eigen::Vector2d(x, -x));
  metric m;
  m.reset(2, false);
  e.update(m);
  const double n = 5, expected = n / (n + 5) * 16.5 + 1e-3 * 5 / (n + 5);
  Eigen::VectorXd v(2);
  m.velocity(Eigen::Vector2d(1, 1), v);
  CHECK(v[0] == doctest::Approx(expected));
  CHECK(v[1] == doctest::Approx(expected));
  // The next window starts afresh; fewer than 3 draws leave the metric as it is.
  e.add(Eigen::Vector2d(100, 100));
  e.update(m);
  m.velocity(Eigen::Vector2d(1, 1), v);
  CHECK(v[0] == doctest::Approx(expected));
}

// Draws of d coordinates with unit variances and correlation rho between the first two
// (the rest independent), from a fixed stream.
Eigen::MatrixXd correlated_draws(long n, long d, double rho, std::uint64_t seed) {
  ppl::rng rng(seed);
  boost::random::normal_distribution<double> normal;
  Eigen::MatrixXd x(n, d);
  for (long i = 0; i < n; ++i) {
    for (long j = 0; j < d; ++j) x(i, j) = normal(rng);
    x(i, 1) = rho * x(i, 0) + std::sqrt(1 - rho * rho) * x(i, 1);
  }
  return x;
}

TEST_CASE("metric_estimate, auto: dense where the window's draws are strongly correlated, else diagonal") {
  auto chosen = [](const Eigen::MatrixXd& draws) {
    metric_estimate e;
    e.reset(draws.cols(), ppl::samplers::metric_choice::automatic);
    for (long i = 0; i < draws.rows(); ++i) e.add(draws.row(i).transpose());
    metric m;
    m.reset(draws.cols(), false);
    e.update(m);
    return m.dense();
  };
  // Correlation 0.99 between two of five: condition number about 200, far above 10 and
  // three times chance's ((1 + sqrt(5/200)) / (1 - sqrt(5/200)))^2 = 1.9.
  CHECK(chosen(correlated_draws(200, 5, 0.99, 1)));
  // Independent coordinates: the sample's condition number is chance's, and stays diagonal.
  CHECK_FALSE(chosen(correlated_draws(200, 5, 0.0, 2)));
  // Correlation 0.5 (condition number 3): not worth a dense metric.
  CHECK_FALSE(chosen(correlated_draws(200, 5, 0.5, 3)));
  // Fewer than ten draws a coordinate: the estimate is too rough to steer by, whatever it says.
  CHECK_FALSE(chosen(correlated_draws(140, 15, 0.999, 4)));
  CHECK(chosen(correlated_draws(150, 15, 0.999, 5)));
  // Above dense_limit coordinates the estimate is diagonal whatever the draws.
  CHECK_FALSE(chosen(correlated_draws(400, metric_estimate::dense_limit + 1, 0.999, 6)));
}

TEST_CASE("metric_estimate, auto with a path's correlations: kept through windows too short to estimate them, where the draws fit them") {
  // 40 draws of 15 coordinates, the first two correlated 0.99: too few (fewer than ten a
  // coordinate) for a dense estimate of their own.
  const Eigen::MatrixXd draws = correlated_draws(40, 15, 0.99, 7);
  auto metric_from = [&](double guide_rho) {
    metric_estimate e;
    e.reset(15, ppl::samplers::metric_choice::automatic);
    Eigen::MatrixXd r = Eigen::MatrixXd::Identity(15, 15);
    r(0, 1) = r(1, 0) = guide_rho;
    e.guide(r);
    for (long i = 0; i < draws.rows(); ++i) e.add(draws.row(i).transpose());
    metric m;
    m.reset(15, false);
    e.update(m);
    return m;
  };
  // The path's correlation is the draws': the metric is dense with it, scaled to the
  // window's variances.
  const metric right = metric_from(0.99);
  REQUIRE(right.dense());
  Eigen::VectorXd e0 = Eigen::VectorXd::Unit(15, 0), e1 = Eigen::VectorXd::Unit(15, 1), v(15);
  right.velocity(e0, v);
  const double v00 = v[0], v10 = v[1];
  right.velocity(e1, v);
  CHECK(v10 / std::sqrt(v00 * v[1]) == doctest::Approx(0.99));
  // The path's is the opposite of the draws': they are likelier without it, and the
  // metric stays diagonal.
  CHECK_FALSE(metric_from(-0.99).dense());
  // Without a guide such a window gives a diagonal metric (the case above).
  metric_estimate plain;
  plain.reset(15, ppl::samplers::metric_choice::automatic);
  for (long i = 0; i < draws.rows(); ++i) plain.add(draws.row(i).transpose());
  metric m;
  m.reset(15, false);
  plain.update(m);
  CHECK_FALSE(m.dense());
}

TEST_CASE("metric: a diagonal and a dense metric in turn, as auto sets them") {
  metric m;
  m.reset(2, false);
  Eigen::Matrix2d c;
  c << 4, 1.9, 1.9, 1;
  m.set_covariance(c);
  CHECK(m.dense());
  Eigen::VectorXd v(2);
  m.velocity(Eigen::Vector2d(1, 0), v);
  CHECK(v[1] == doctest::Approx(1.9));
  m.set_diagonal(Eigen::Vector2d(4, 1));
  CHECK_FALSE(m.dense());
  m.velocity(Eigen::Vector2d(1, 0), v);
  CHECK(v[1] == doctest::Approx(0));
}

}  // namespace test_hamiltonian_parts
