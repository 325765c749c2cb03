// Missing values in observed data (NA, null) imputed as unknowns (lang/checker_missing.cpp):
// the posterior of the parameters is the one given the observed values alone, and each
// imputed value is drawn from its predictive distribution, checked against closed forms
// within 4 Monte Carlo standard errors (two chains of 4,000 draws, fixed seeds).
#include <algorithm>
#include <cmath>

#include "tests/samplers/inference_fixture.hpp"

namespace test_missing {

using namespace ppl;
using testing::check_mean;
using testing::check_sd;

namespace {

bool has_column(const testing::posterior& p, const std::string& name) {
  const auto& c = p.result.draws.columns;
  return std::find(c.begin(), c.end(), name) != c.end();
}

}  // namespace

TEST_CASE("missing Normal observations: mu given the observed ones, the missing ones predicted") {
  const auto p = testing::infer("data y: real[N]\nmu ~ Normal(0, 10)\ny ~ Normal(mu, 1)\n", {"y=[1, null, 2, 3, null]"},
                                testing::two_chains(200, 4000, 3));
  // Three observations summing to 6 with unit variance and a Normal(0, 10) prior.
  const double precision = 0.01 + 3, mean = 6 / precision;
  check_mean(p, "mu", mean);
  check_sd(p, "mu", 1 / std::sqrt(precision));
  for (const char* y : {"y[2]", "y[5]"}) {
    check_mean(p, y, mean);
    check_sd(p, y, std::sqrt(1 + 1 / precision));
  }
  // Only the imputed elements are recorded, and mu keeps its conjugate update: the
  // observed elements are still observations.
  CHECK_FALSE(has_column(p, "y[1]"));
  CHECK(p.kind("mu") == "conjugate");
}

TEST_CASE("a missing count is imputed from its Poisson, lambda from the other counts") {
  const auto p = testing::infer("data y: int[N]\nlambda ~ Gamma(2, 1)\nfor n in 1:N { y[n] ~ Poisson(lambda) }\n",
                                {"y=[1, 2, null, 4]"}, testing::two_chains(200, 4000, 4));
  // lambda | y ~ Gamma(2 + 7, 1 + 3); y[3] has mean E lambda and variance E lambda + var lambda.
  check_mean(p, "lambda", 9.0 / 4);
  check_mean(p, "y[3]", 9.0 / 4);
  check_sd(p, "y[3]", std::sqrt(9.0 / 4 + 9.0 / 16));
}

TEST_CASE("a missing value between two observed ones of a random walk") {
  // y[2] | y[1] = 0, y[3] = 2 is Normal(1, sqrt(1/2)): it has a parent and a child.
  const auto p = testing::infer("data y: real[N]\ny[1] ~ Normal(0, 1)\nfor t in 2:N { y[t] ~ Normal(y[t - 1], 1) }\n",
                                {"y=[0, null, 2]"}, testing::two_chains(200, 4000, 5));
  check_mean(p, "y[2]", 1);
  check_sd(p, "y[2]", std::sqrt(0.5));
}

TEST_CASE("missing values the model cannot impute are errors at their place") {
  auto run = [](const char* text, std::vector<std::string> sets) { return testing::infer(text, sets, testing::two_chains(10, 10, 1)); };
  // A covariate: nothing observes it, and the model reads it (a value nothing reads is
  // no error: tests/model/test_graph.cpp).
  CHECK_THROWS_WITH(run("data x: real[N]\ndata y: real[N]\nb ~ Normal(0, 1)\ny ~ Normal(b * x, 1)\n", {"x=[1, null]", "y=[1, 2]"}),
                    doctest::Contains("test.ppl:4:1: error: `x[2]` is read here, but it is missing (--set x=[1, null]) and no `~` observes `x`"));
  // Observed, but not where the value is missing.
  CHECK_THROWS_WITH(run("data y: real[N]\nmu ~ Normal(0, 1)\nfor n in 1:N - 1 { y[n] ~ Normal(mu, 1) }\n", {"y=[1, 2, null]"}),
                    doctest::Contains("y[3] is missing in the data, and no `~` observes it"));
  // A vector at a time.
  CHECK_THROWS_WITH(run("data y: real[N]\nm ~ Normal(0, 1)\ny ~ MultiNormal(rep(m, 2), identity_matrix(2))\n", {"y=[1, null]"}),
                    doctest::Contains("test.ppl:3:1: error: `y[1]` is given in the data but other elements of the block MultiNormal "
                                      "gives here are missing; ppl imputes a block only when all of it is missing"));
  // The given values are still checked against the declaration.
  CHECK_THROWS_WITH(run("data y: int<lower=0>[N]\nl ~ Gamma(1, 1)\ny ~ Poisson(l)\n", {"y=[-1, null]"}),
                    doctest::Contains("y[1] = -1 is below its declared lower bound 0"));
}

TEST_CASE("blocks of a data matrix drawn by Dirichlet where all of them are missing (BUGS's Biopsies)") {
  // E's first row and E[2, 3] are data; E[2, 1:2] and E[3] are missing, so each is a
  // Dirichlet unknown. E[2, 1:2] | counts is Dirichlet(1 + 5, 1 + 3); E[3] has no child and
  // keeps its prior Dirichlet(1, 1, 1).
  const auto p = testing::infer(
      "data E: real[3, 3]\ndata counts: int[N, 3]\nE[2, 1:2] ~ Dirichlet([1, 1])\nE[3] ~ Dirichlet([1, 1, 1])\n"
      "for n in 1:N { counts[n] ~ Multinomial(sum(counts[n]), E[2]) }\n",
      {"E=[[1, 0, 0], [null, null, 0], [null, null, null]]", "counts=[[3, 1, 0], [2, 2, 0]]"}, testing::two_chains(500, 4000, 6));
  check_mean(p, "E[2,1]", 0.6);
  check_sd(p, "E[2,1]", std::sqrt(0.6 * 0.4 / 11));
  check_mean(p, "E[2,2]", 0.4);
  for (const char* e : {"E[3,1]", "E[3,2]", "E[3,3]"}) {
    check_mean(p, e, 1.0 / 3);
    check_sd(p, e, std::sqrt(2.0 / 9 / 4));
  }
  CHECK_FALSE(has_column(p, "E[1,1]"));
  CHECK_FALSE(has_column(p, "E[2,3]"));
}

TEST_CASE("a vector observation given whole is observed, one missing whole is imputed") {
  // F[1] = (0.5, 0.5) observed by Dirichlet(a, 1): its term is a 0.5^(a - 1), so with an
  // Exponential(1) prior a | F[1] is Gamma(2, 1 - log 0.5). F[2] is missing and imputed.
  const auto p = testing::infer("data F: real[2, 2]\na ~ Exponential(1)\nfor r in 1:2 { F[r, 1:2] ~ Dirichlet([a, 1]) }\n",
                                {"F=[[0.5, 0.5], [null, null]]"}, testing::two_chains(500, 4000, 7));
  const double rate = 1 - std::log(0.5);
  check_mean(p, "a", 2 / rate);
  check_sd(p, "a", std::sqrt(2.0) / rate);
  CHECK(has_column(p, "F[2,1]"));
  CHECK_FALSE(has_column(p, "F[1,1]"));
}

TEST_CASE("right-censored exponential times: lambda from the exact Gamma posterior, the censored times imputed above their bounds") {
  // Three observed times (3.5 in all) and two censored at 3 and 1.5: lambda | data is
  // Gamma(1 + 3, 1 + 3.5 + 4.5), and a censored time is its bound plus an Exponential(lambda).
  const auto p = testing::infer(
      "data t: real[N]\ndata c: real[N]\nlambda ~ Gamma(1, 1)\nfor i in 1:N { t[i] ~ Exponential(lambda) C[c[i], ] }\n",
      {"t=[1.0, null, 0.5, null, 2.0]", "c=[0, 3, 0, 1.5, 0]"}, testing::two_chains(200, 4000, 6));
  check_mean(p, "lambda", 4.0 / 9);
  check_sd(p, "lambda", 2.0 / 9);
  check_mean(p, "t[2]", 3 + 9.0 / 3);  // E[1 / lambda] = 9 / 3
  check_mean(p, "t[4]", 1.5 + 9.0 / 3);
  // The same model vectorised: the bounds an array beside the value.
  const auto q = testing::infer("data t: real[N]\ndata c: real[N]\nlambda ~ Gamma(1, 1)\nt ~ Exponential(lambda) C[c, ]\n",
                                {"t=[1.0, null, 0.5, null, 2.0]", "c=[0, 3, 0, 1.5, 0]"}, testing::two_chains(200, 4000, 7));
  check_mean(q, "lambda", 4.0 / 9);
}

TEST_CASE("censoring and truncation: what cannot be restricted is an error at the bracket") {
  auto run = [](const char* text, std::vector<std::string> sets) { return testing::infer(text, sets, testing::two_chains(10, 10, 1)); };
  CHECK_THROWS_WITH(run("data y: real[N]\nm ~ Normal(0, 1)\ny ~ MultiNormal(rep(m, 2), identity_matrix(2)) C[0, ]\n", {"y=[1, 2]"}),
                    doctest::Contains("MultiNormal gives vectors; only a distribution of scalars can be censored or truncated"));
  CHECK_THROWS_WITH(run("data y: real[N]\nm ~ Normal(0, 1)\ny ~ Normal(m, 1) C[2, 1]\n", {"y=[null, null]"}),
                    doctest::Contains("the lower bound 2 of C[lower, upper] is above the upper bound 1"));
  // An observed value outside its censoring interval contradicts it.
  CHECK_THROWS_WITH(run("data y: real[N]\nm ~ Normal(0, 1)\ny ~ Normal(m, 1) C[0, ]\n", {"y=[1.5, -1]"}),
                    doctest::Contains("y[2] = -1 is below lower = 0 of Normal C[]"));
  // `T[1] ~ ...` on the next line is a statement of its own, not a truncation.
  CHECK_NOTHROW(run("m ~ Normal(0, 1)\nT[1] ~ Normal(m, 1)\nT[2] ~ Normal(m, 1)\n", {}));
}

TEST_CASE("truncation: a half-normal prior written as T[0, ], and observations truncated at 0") {
  const auto p = testing::infer("x ~ Normal(0, 1) T[0, ]\n", {}, testing::two_chains(200, 4000, 8));
  check_mean(p, "x", std::sqrt(2 / M_PI));
  check_sd(p, "x", std::sqrt(1 - 2 / M_PI));
  // y[i] ~ Normal(mu, 1) T[0, ]: each term renormalised by P(Y > 0) = Phi(mu); mu's
  // posterior mean by quadrature on a fine grid.
  const std::vector<double> y = {0.2, 0.5, 1.1, 0.1};
  auto log_post = [&](double mu) {
    double lp = -mu * mu / 8;  // Normal(0, 2) prior
    for (double v : y) lp += -0.5 * (v - mu) * (v - mu) - std::log(0.5 * std::erfc(-mu / std::sqrt(2.0)));
    return lp;
  };
  double z = 0, m = 0;
  for (int k = 0; k <= 40000; ++k) {
    const double mu = -10 + k * 20.0 / 40000, w = std::exp(log_post(mu));
    z += w;
    m += w * mu;
  }
  for (const char* sampler : {"", "nuts"}) {
    inference::run_options o = testing::two_chains(300, 4000, 9);
    if (*sampler) o.overrides["mu"] = sampler;
    const auto q = testing::infer("data y: real[N]\nmu ~ Normal(0, 2)\ny ~ Normal(mu, 1) T[0, ]\n", {"y=[0.2, 0.5, 1.1, 0.1]"}, o);
    INFO(sampler);
    check_mean(q, "mu", m / z);
  }
  // Two bounds, an integer count: Poisson(lambda) T[1, 5] has P(1 <= Y <= 5) = F(5) - F(0).
  const auto c = testing::infer("data k: int[N]\nlambda ~ Gamma(2, 1)\nk ~ Poisson(lambda) T[1, 5]\n", {"k=[1, 2, 5, 3]"},
                                testing::two_chains(200, 4000, 10));
  double zc = 0, mc = 0;
  for (int i = 1; i <= 60000; ++i) {
    const double l = i * 30.0 / 60000;
    double mass = 0, term = std::exp(-l);
    for (int j = 1; j <= 5; ++j) mass += (term *= l / j);
    // Gamma(2, 1) prior, the counts' kernel l^11 e^(-4 l), each renormalised by the mass.
    const double w = std::exp(std::log(l) - l + 11 * std::log(l) - 4 * l - 4 * std::log(mass));
    zc += w;
    mc += w * l;
  }
  check_mean(c, "lambda", mc / zc);
}

}  // namespace test_missing
