// Posteriors of models written with the language's later forms — vectorised statements,
// conditionals, `param` declarations, log-density calls — against exact answers, within
// Monte Carlo error (|z| < 4, fixed seeds).
#include "tests/samplers/inference_fixture.hpp"

namespace test_language {

using namespace ppl::testing;

namespace {

ppl::inference::run_options quick(long draws = 2000) {
  ppl::inference::run_options o;
  o.chains = 2;
  o.warmup = 300;
  o.draws = draws;
  o.seed = 23;
  return o;
}

}  // namespace

TEST_CASE("a vectorised observation: the Normal mean with known variance") {
  auto p = infer("data y: real[N]\nmu ~ Normal(1, 2)\ny ~ Normal(mu, 0.5)\n", {"y=[0.3,0.9,1.4,0.2]"}, quick());
  CHECK(p.kind("mu") == "conjugate");
  // Precision 1/4 + 4/0.25; mean (1/4 * 1 + 2.8/0.25) / precision.
  const double precision = 0.25 + 16;
  check_mean(p, "mu", (0.25 + 11.2) / precision);
  check_sd(p, "mu", 1 / std::sqrt(precision));
}

TEST_CASE("a vectorised unknown with a vector mean, sampled by nuts") {
  // theta_k ~ Normal(m_k, 1), y_k ~ Normal(theta_k, 1): theta_k | y ~ Normal((m_k + y_k) / 2, sqrt(1/2)).
  auto p = infer("data m: real[K]\ndata y: real[K]\ntheta ~ Normal(m, 1)\ny ~ Normal(theta, 1)\n", {"m=[0,1,-2]", "y=[1,3,0]"},
                 [] {
                   auto o = quick();
                   o.overrides["theta"] = "nuts";
                   return o;
                 }());
  check_mean(p, "theta[1]", 0.5);
  check_mean(p, "theta[2]", 2.0);
  check_mean(p, "theta[3]", -1.0);
  check_sd(p, "theta[2]", std::sqrt(0.5));
}

TEST_CASE("an if/else chain on the loop index: a change point at a known time") {
  // Each level's mean sees only its own observations: precision 1/100 + n, mean sum / precision.
  auto p = infer("data y: real[N]\nfor k in 1:3 { l[k] ~ Normal(0, 10) }\nfor t in 1:N {\n"
                 "  if (t <= 3) { y[t] ~ Normal(l[1], 1) } else if (t <= 5) { y[t] ~ Normal(l[2], 1) } else { y[t] ~ Normal(l[3], 1) }\n}\n",
                 {"y=[1,1.2,0.8,3,4,5.1,4.9,5]"}, quick());
  const double p3 = 0.01 + 3, p2 = 0.01 + 2;
  check_mean(p, "l[1]", 3.0 / p3);
  check_mean(p, "l[2]", 7.0 / p2);
  check_mean(p, "l[3]", 15.0 / p3);
  check_sd(p, "l[2]", 1 / std::sqrt(p2));
}

TEST_CASE("flat priors from param declarations: regression with a known scale") {
  // With flat priors on a and b the posterior is Normal around least squares, covariance
  // sigma^2 (X'X)^-1. x = [-1, 0, 1, 2], y = [0.2, 1.1, 1.9, 3.2], sigma = 0.5.
  auto p = infer("data x: real[N]\ndata y: real[N]\nparam a: real\nparam b: real\ny ~ Normal(a + b * x, 0.5)\n",
                 {"x=[-1,0,1,2]", "y=[0.2,1.1,1.9,3.2]"}, quick(3000));
  CHECK(p.kind("a") != "conjugate");
  const double n = 4, sx = 2, sxx = 6, sy = 6.4, sxy = -0.2 + 1.9 + 6.4;
  const double det = n * sxx - sx * sx;
  check_mean(p, "a", (sxx * sy - sx * sxy) / det);
  check_mean(p, "b", (n * sxy - sx * sy) / det);
  check_sd(p, "b", 0.5 * std::sqrt(n / det));
  check_sd(p, "a", 0.5 * std::sqrt(sxx / det));
}

TEST_CASE("a flat prior on a half-line: the Poisson rate") {
  // Flat on (0, inf) and y ~ Poisson(lambda): lambda | y ~ Gamma(sum y + 1, n).
  auto p = infer("data y: int[N]\nparam lambda: real<lower=0>\ny ~ Poisson(lambda)\n", {"y=[3,5,2,4,6,1]"}, quick(3000));
  CHECK(p.kind("lambda") != "conjugate");
  check_mean(p, "lambda", 22.0 / 6);
  check_sd(p, "lambda", std::sqrt(22.0) / 6);
}

TEST_CASE("a factor of a log-density call is the same posterior as the ~") {
  // factor poisson_lpmf(y | lambda) with a flat prior on (0, inf): Gamma(sum y + 1, n).
  auto p = infer("data y: int[N]\nparam lambda: real<lower=0>\nfactor poisson_lpmf(y | lambda)\n"
                 "for n in 1:N { log_lik[n] = poisson_lpmf(y[n] | lambda) }\n",
                 {"y=[3,5,2,4,6,1]"}, quick(3000));
  check_mean(p, "lambda", 22.0 / 6);
  check_sd(p, "lambda", std::sqrt(22.0) / 6);
  // E[log_lik[1]] = E[3 log lambda - lambda] - log 3!, with lambda ~ Gamma(22, 6):
  // E[log lambda] = digamma(22) - log 6.
  const double digamma22 = 3.0681430398611966;  // H_21 - Euler's gamma
  check_mean(p, "log_lik[1]", 3 * (digamma22 - std::log(6.0)) - 22.0 / 6 - std::log(6.0));
}

}  // namespace test_language
