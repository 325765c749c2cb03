// Multivariate conjugate updates (samplers/conjugate_multi_normal_normal.cpp,
// samplers/conjugate_wishart.cpp) against the exact Normal-Wishart and
// Normal-InverseWishart posteriors, within Monte Carlo error (|z| < 4, fixed seeds).
#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "tests/samplers/inference_fixture.hpp"

namespace test_normal_wishart {

using namespace ppl::testing;

namespace {

ppl::inference::run_options runs(std::uint64_t seed) {
  ppl::inference::run_options o;
  o.chains = 2;
  o.warmup = 200;
  o.draws = 4000;
  o.seed = seed;
  return o;
}

// Six points in the plane, the prior mean m0 = (1, -1) and scale S = [[2, 0.5], [0.5, 1]].
const Eigen::Matrix<double, 6, 2> points = (Eigen::Matrix<double, 6, 2>() << 1.2, 0.3, 2.5, -0.4, 0.1, 1.1, 1.9, 0.8, 3.0, 0.2, 0.7, -0.9).finished();
const std::string points_data = "x=[[1.2,0.3],[2.5,-0.4],[0.1,1.1],[1.9,0.8],[3.0,0.2],[0.7,-0.9]]";
const Eigen::Vector2d m0(1, -1);
const Eigen::Matrix2d scale = (Eigen::Matrix2d() << 2, 0.5, 0.5, 1).finished();
constexpr double beta0 = 2, nu = 4, n = 6;

// The posterior's updated scale term: sum (x - xbar)(x - xbar)' + beta0 n / (beta0 + n)
// (xbar - m0)(xbar - m0)', and the posterior mean of mu, (beta0 m0 + n xbar) / (beta0 + n).
Eigen::Matrix2d scatter() {
  const Eigen::Vector2d xbar = points.colwise().mean();
  Eigen::Matrix2d s = Eigen::Matrix2d::Zero();
  for (int i = 0; i < 6; ++i) s += (points.row(i).transpose() - xbar) * (points.row(i) - xbar.transpose());
  return s + beta0 * n / (beta0 + n) * (xbar - m0) * (xbar - m0).transpose();
}
Eigen::Vector2d mean_of_mu() { return (beta0 * m0 + n * Eigen::Vector2d(points.colwise().mean())) / (beta0 + n); }

}  // namespace

TEST_CASE("MultiNormalPrec prior on regression weights, Normal children linear in them") {
  // The prior precision 0.01 I is MultiNormal's 100 I: the same exact posterior as the
  // MultiNormal case of test_conjugate.cpp (y shifted by the offset 1).
  auto p = infer("data X: real[N, 2]\ndata y: real[N]\nw ~ MultiNormalPrec([0.0, 0.0], [[0.01, 0.0], [0.0, 0.01]])\n"
                 "for n in 1:N { y[n] ~ Normal(dot(w, X[n]) + 1, 0.5) }\n",
                 {"X=[[1,-1],[1,0],[1,1],[1,2]]", "y=[0.2,2.1,3.9,6.2]"}, runs(31));
  CHECK(p.kind("w") == "conjugate");
  Eigen::Matrix2d q;
  q << 4 / 0.25 + 0.01, 2 / 0.25, 2 / 0.25, 6 / 0.25 + 0.01;
  const Eigen::Vector2d r(8.4 / 0.25, (0.8 + 2.9 + 10.4) / 0.25);
  const Eigen::Vector2d mean = q.ldlt().solve(r);
  const Eigen::Matrix2d cov = q.inverse();
  check_mean(p, "w[1]", mean[0]);
  check_mean(p, "w[2]", mean[1]);
  check_sd(p, "w[1]", std::sqrt(cov(0, 0)));
  // The mean exactly dot(w, X[n]) (the ratings of matrix factorisation): the coefficients
  // are read in place, the conjugate sampler's dot path; y less the offset gives the same posterior.
  auto d = infer("data X: real[N, 2]\ndata y: real[N]\nw ~ MultiNormalPrec([0.0, 0.0], [[0.01, 0.0], [0.0, 0.01]])\n"
                 "for n in 1:N { y[n] ~ Normal(dot(X[n], w), 0.5) }\n",
                 {"X=[[1,-1],[1,0],[1,1],[1,2]]", "y=[-0.8,1.1,2.9,5.2]"}, runs(34));
  check_mean(d, "w[1]", mean[0]);
  check_mean(d, "w[2]", mean[1]);
  check_sd(d, "w[2]", std::sqrt(cov(1, 1)));
}

TEST_CASE("Normal-Wishart: a population's mean and precision, the mean's prior precision scaled by beta0") {
  // W ~ Wishart(nu, S), mu | W ~ MultiNormalPrec(m0, beta0 W), x[i] ~ MultiNormalPrec(mu, W):
  // W | x ~ Wishart(nu + n, (S^-1 + scatter)^-1) and E[mu | x] = (beta0 m0 + n xbar) / (beta0 + n),
  // with Cov(mu | x) = E[((beta0 + n) W)^-1] = (S^-1 + scatter) / ((beta0 + n) (nu + n - 3)).
  auto p = infer("data x: real[N, 2]\ndata m0: real[2]\ndata S: real[2, 2]\ndata beta0: real\ndata nu: real\n"
                 "W ~ Wishart(nu, S)\nmu ~ MultiNormalPrec(m0, beta0 * W)\nfor i in 1:N { x[i] ~ MultiNormalPrec(mu, W) }\n",
                 {points_data, "m0=[1,-1]", "S=[[2,0.5],[0.5,1]]", "beta0=2", "nu=4"}, runs(32));
  CHECK(p.kind("W") == "conjugate");
  CHECK(p.kind("mu") == "conjugate");
  const Eigen::Matrix2d inverse_scale = scale.inverse() + scatter();
  const Eigen::Matrix2d sn = inverse_scale.inverse();
  const double nun = nu + n;
  check_mean(p, "W[1,1]", nun * sn(0, 0));
  check_mean(p, "W[1,2]", nun * sn(0, 1));
  check_mean(p, "W[2,2]", nun * sn(1, 1));
  // Var(W_ij) = nu (S_ij^2 + S_ii S_jj).
  check_sd(p, "W[1,1]", std::sqrt(2 * nun * sn(0, 0) * sn(0, 0)));
  check_sd(p, "W[1,2]", std::sqrt(nun * (sn(0, 1) * sn(0, 1) + sn(0, 0) * sn(1, 1))));
  const Eigen::Vector2d mu = mean_of_mu();
  check_mean(p, "mu[1]", mu[0]);
  check_mean(p, "mu[2]", mu[1]);
  check_sd(p, "mu[1]", std::sqrt(inverse_scale(0, 0) / ((beta0 + n) * (nun - 3))));
  check_sd(p, "mu[2]", std::sqrt(inverse_scale(1, 1) / ((beta0 + n) * (nun - 3))));
}

TEST_CASE("Normal-InverseWishart: a population's mean and covariance, the mean's prior covariance scaled") {
  // C ~ InverseWishart(nu, S), mu | C ~ MultiNormal(m0, C / beta0), x[i] ~ MultiNormal(mu, C):
  // C | x ~ InverseWishart(nu + n, S + scatter), E[C | x] = (S + scatter) / (nu + n - 3).
  auto p = infer("data x: real[N, 2]\ndata m0: real[2]\ndata S: real[2, 2]\ndata kappa: real\ndata nu: real\n"
                 "C ~ InverseWishart(nu, S)\nmu ~ MultiNormal(m0, kappa * C)\nfor i in 1:N { x[i] ~ MultiNormal(mu, C) }\n",
                 {points_data, "m0=[1,-1]", "S=[[2,0.5],[0.5,1]]", "kappa=0.5", "nu=4"}, runs(33));
  CHECK(p.kind("C") == "conjugate");
  CHECK(p.kind("mu") == "conjugate");
  const Eigen::Matrix2d sn = scale + scatter();
  const double nun = nu + n;
  check_mean(p, "C[1,1]", sn(0, 0) / (nun - 3));
  check_mean(p, "C[1,2]", sn(0, 1) / (nun - 3));
  check_mean(p, "C[2,2]", sn(1, 1) / (nun - 3));
  const Eigen::Vector2d mu = mean_of_mu();
  check_mean(p, "mu[1]", mu[0]);
  check_mean(p, "mu[2]", mu[1]);
  // Cov(mu | x) = E[C | x] / (beta0 + n).
  check_sd(p, "mu[1]", std::sqrt(sn(0, 0) / (nun - 3) / (beta0 + n)));
}

}  // namespace test_normal_wishart
