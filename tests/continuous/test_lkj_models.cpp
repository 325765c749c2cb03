// LKJ priors end to end, through the samplers that move them on the transforms of
// stdlib/correlation_transform.hpp: with no data the posterior is the prior, whose
// off-diagonal entries are 2 Beta(b, b) - 1 with b = eta - 1 + K/2 (mean 0, variance
// 1 / (2b + 1)); an unknown eta keeps its own prior only if the normalising constant's
// dependence on it is right; and a covariance built Stan's way,
// quad_form_diag(multiply_lower_tri_self_transpose(L), tau), recovers a known correlation
// from simulated data. Means within 4 Monte Carlo standard errors of the runs' own ESS,
// sds within 4 standard errors of the sd estimate; seeds fixed.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <sstream>

#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/short_run.hpp"

namespace test_lkj_models {

using namespace ppl::testing;

namespace {

// Every off-diagonal entry of the K x K matrix `name` against the LKJ(K, eta) marginal.
void check_lkj_marginals(const posterior& p, const std::string& name, int k, double eta) {
  const double b = eta - 1 + 0.5 * k, sd = std::sqrt(1 / (2 * b + 1));
  for (int i = 1; i <= k; ++i)
    for (int j = 1; j < i; ++j) {
      const std::string entry = name + "[" + std::to_string(i) + "," + std::to_string(j) + "]";
      check_mean(p, entry, 0);
      check_sd(p, entry, sd);
    }
}

// The fraction of draws after warmup that NUTS marked divergent.
double divergent_fraction(const posterior& p) {
  const auto& cols = p.result.draws.columns;
  const auto at = std::find(cols.begin(), cols.end(), "divergent__");
  REQUIRE(at != cols.end());
  double divergent = 0, n = 0;
  for (const auto& chain : p.result.draws.column(static_cast<std::size_t>(at - cols.begin())))
    for (double d : chain) divergent += d, n += 1;
  return divergent / n;
}

}  // namespace

TEST_CASE("nuts: LKJCorrCholesky(3, 2) with no data; (L L')[i, j] has the prior's Beta marginal") {
  auto o = two_chains(1000, shortened(4000, 4), 61);
  o.overrides = {{"L", "nuts"}};  // the plan's own choice, with no data, is the exact draw
  auto p = infer("L ~ LKJCorrCholesky(3, 2.0)\nOmega = multiply_lower_tri_self_transpose(L)\n", {}, o);
  CHECK(p.kind("L") == "nuts");
  check_lkj_marginals(p, "Omega", 3, 2.0);
  CHECK(divergent_fraction(p) < 0.01);
  // And the exact draw, by the plan's choice.
  auto a = infer("L ~ LKJCorrCholesky(3, 2.0)\nOmega = multiply_lower_tri_self_transpose(L)\n", {}, two_chains(100, 4000, 62));
  CHECK(a.kind("L") == "ancestral");
  check_lkj_marginals(a, "Omega", 3, 2.0);
}

TEST_CASE("nuts and rwmh: LKJCorr(3, 1.5) with no data; Omega[i, j] has the prior's Beta marginal") {
  for (const char* kind : {"nuts", "rwmh"}) {
    INFO(std::string(kind));
    auto o = two_chains(1000, shortened(std::string(kind) == "nuts" ? 4000 : 8000, 4), 63);
    o.overrides = {{"Omega", kind}};
    auto p = infer("Omega ~ LKJCorr(3, 1.5)\n", {}, o);
    CHECK(p.kind("Omega") == kind);
    check_lkj_marginals(p, "Omega", 3, 1.5);
  }
}

TEST_CASE("nuts: an unknown eta keeps its Gamma(2, 1) prior, which it does only if LKJ's constant follows eta") {
  // With no data the joint is eta's prior times LKJ(4, eta), whose integral over L is 1
  // for every eta: eta's marginal is Gamma(2, 1), mean 2 and sd sqrt(2). Without the
  // constant (or with a wrong one) eta's posterior would tilt by it.
  auto o = two_chains(1000, shortened(4000, 4), 64);
  o.overrides = {{"eta", "nuts"}, {"L", "nuts"}};
  auto p = infer("eta ~ Gamma(2, 1)\nL ~ LKJCorrCholesky(4, eta)\nOmega = multiply_lower_tri_self_transpose(L)\n", {}, o);
  CHECK(p.kind("eta") == "nuts");
  check_mean(p, "eta", 2);
  check_sd(p, "eta", std::sqrt(2.0));
  check_mean(p, "Omega[4,3]", 0);
}

TEST_CASE("nuts: a correlation recovered from data, the covariance built as quad_form_diag(multiply_lower_tri_self_transpose(L), tau)") {
  // N draws from MultiNormal(0, diag(tau) R diag(tau)) with a known R. The posterior mean
  // of each correlation is within 4 sampling sds of a correlation estimated from N points,
  // (1 - rho^2) / sqrt(N), of the truth (0.6 is 16 of them from the prior's mean 0); and
  // within 4 MCSE + 0.01 of the data's own correlation, 0.01 bounding what separates a
  // posterior mean from that estimate at N = 300: the LKJ(2) prior's pull, about
  // 3 rho (1 - rho^2) / N < 0.004, and the posterior's skew, of the same order 1/N.
  const int n = 300;
  Eigen::Matrix3d r;
  r << 1, 0.6, -0.3, 0.6, 1, 0.2, -0.3, 0.2, 1;
  const Eigen::Vector3d tau(1, 2, 0.5);
  const Eigen::Matrix3d factor = (tau.asDiagonal() * r * tau.asDiagonal()).llt().matrixL();
  ppl::rng rng(65);
  boost::random::normal_distribution<double> normal;
  std::ostringstream y;
  y.precision(17);
  Eigen::Matrix3d scatter = Eigen::Matrix3d::Zero();
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d z(normal(rng), normal(rng), normal(rng)), x = factor * z;
    y << (i ? ", [" : "y=[[") << x[0] << ", " << x[1] << ", " << x[2] << "]";
    scatter += x * x.transpose();
  }
  y << "]";
  // Stan's two spellings of the same model: the covariance, and its Cholesky factor.
  for (const char* term : {"MultiNormal([0, 0, 0], quad_form_diag(multiply_lower_tri_self_transpose(L), tau))",
                           "MultiNormalCholesky([0, 0, 0], diag_pre_multiply(tau, L))"}) {
    INFO(std::string(term));
    auto p = infer("data y: real[N, 3]\nL ~ LKJCorrCholesky(3, 2.0)\nfor k in 1:3 { tau[k] ~ HalfCauchy(2.5) }\n"
                   "for n in 1:N { y[n] ~ " + std::string(term) + " }\nOmega = multiply_lower_tri_self_transpose(L)\n",
                   {y.str()}, two_chains(shortened(1000, 2), shortened(1000, 2), 66));
    CHECK(p.kind("L") == "nuts");
    CHECK(p.kind("tau") == "nuts");
    for (int i = 1; i < 3; ++i)
      for (int j = 0; j < i; ++j) {
        const std::string entry = "Omega[" + std::to_string(i + 1) + "," + std::to_string(j + 1) + "]";
        const double rho = r(i, j), mean = p.summary(entry).mean, mcse = p.summary(entry).mcse_mean;
        const double estimate = scatter(i, j) / std::sqrt(scatter(i, i) * scatter(j, j));
        INFO(entry, ": posterior mean ", mean, " (mcse ", mcse, "), truth ", rho, ", the data's ", estimate);
        CHECK(std::fabs(mean - rho) < 4 * (1 - rho * rho) / std::sqrt(n));
        CHECK(std::fabs(mean - estimate) < 4 * mcse + 0.01);
      }
    CHECK(divergent_fraction(p) < 0.01);
  }
}

}  // namespace test_lkj_models
