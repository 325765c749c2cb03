// Rejection sampling (inference/rejection.cpp) on the models of evidence_cases.hpp: its
// evidence within 3 of its own standard errors of the exact value, with the bound it finds
// or one given; its draws through a Kolmogorov-Smirnov test against the exact posterior;
// and its refusals (no bound, a wrong bound, a hopeless cost).
#include <doctest/doctest.h>

#include "tests/samplers/evidence_cases.hpp"

namespace test_rejection {

using namespace ppl;
using namespace evidence_cases;

TEST_CASE("rejection's evidence matches the exact evidence, with the bound found or given") {
  // The bounds found (every model of the evidence tests but Normal-Normal and the logistic
  // regression, which follow): Categorical observations are probabilities, at most 1; the mark
  // network's one Bernoulli observation is 1 at probability 1; observations sharing their
  // argument peak jointly at its maximum-likelihood value (3 successes in 4 at p = 3/4,
  // counts at their mean 5), far tighter than 0 (the Poisson's acceptance rate 1 in 10^5).
  double poisson = 0;
  for (double y : {4.0, 7.0, 3.0, 6.0, 5.0}) poisson += y * std::log(5.0) - 5 - std::lgamma(y + 1);
  const std::pair<model_case, double> cases[] = {{beta_bernoulli(), 3 * std::log(0.75) + std::log(0.25)},
                                                 {dirichlet_categorical(), 0},
                                                 {mark(), 0},
                                                 {gamma_poisson(), poisson},
                                                 // each observation at most N(y | y, 1), its mean 3 z[n] - 1 its own
                                                 {mixture(), -3 * std::log(2 * M_PI)}};
  for (const auto& [c, bound] : cases) {
    const compiled m = compile(c);
    const auto r = inference::rejection_sample(m.model, m.data, options(2000));
    INFO(c.name);
    CHECK(r.bound == doctest::Approx(bound).epsilon(1e-12));
    check_evidence("rejection", c, r);
  }
  {
    // Found: the Normal observations share mu, and peak jointly at mu = mean(y); given: a
    // looser bound, each observation at its own peak.
    const model_case c = normal_normal();
    const compiled m = compile(c);
    const auto found = inference::rejection_sample(m.model, m.data, options(2000));
    CHECK(found.bound == doctest::Approx(normal_bound()).epsilon(1e-12));
    check_evidence("rejection", c, found);
    auto o = options(2000);
    o.bound = -6 * std::log(normal_sigma * std::sqrt(2 * M_PI));
    const auto given = inference::rejection_sample(m.model, m.data, o);
    CHECK(given.bound == o.bound);
    check_evidence("rejection", c, given);
  }
  {
    // LogNormal(mu, s) observations sharing mu peak jointly at mu = mean(log y).
    const model_case c = log_normal_normal();
    const compiled m = compile(c);
    const auto r = inference::rejection_sample(m.model, m.data, options(2000));
    double jacobian = 0;
    for (double y : normal_y) jacobian -= y;
    CHECK(r.bound == doctest::Approx(normal_bound() + jacobian).epsilon(1e-12));
    check_evidence("rejection", c, r);
  }
  // A location that differs by observation (a + b x[n]), from a family without a joint
  // peak in closed form: Logistic(., 1), at most 1/4 at each y.
  const model_case c = logistic_regression();
  const compiled m = compile(c);
  const auto r = inference::rejection_sample(m.model, m.data, options(2000));
  CHECK(r.bound == doctest::Approx(5 * std::log(0.25)).epsilon(1e-12));
  check_evidence("rejection", c, r);
}

TEST_CASE("rejection draws pass a Kolmogorov-Smirnov test against the exact posterior") {
  // The 0.1% critical value of the one-sample statistic is 1.95 / sqrt(n).
  {
    const compiled m = compile(beta_bernoulli());
    const auto r = inference::rejection_sample(m.model, m.data, options(4000));
    const boost::math::beta_distribution<> exact(2 + 3, 3 + 1);
    const double d = ks_distance(values(r, "p"), [&](double x) { return boost::math::cdf(exact, x); });
    CHECK(d < 1.95 / std::sqrt(static_cast<double>(r.row_count)));
  }
  {
    const compiled m = compile(normal_normal());
    const auto r = inference::rejection_sample(m.model, m.data, options(4000));  // the bound found
    const double n = static_cast<double>(normal_y.size()), sum = std::accumulate(normal_y.begin(), normal_y.end(), 0.0);
    const double precision = 1 / (normal_s0 * normal_s0) + n / (normal_sigma * normal_sigma);
    const boost::math::normal_distribution<> exact((normal_m0 / (normal_s0 * normal_s0) + sum / (normal_sigma * normal_sigma)) / precision,
                                                   1 / std::sqrt(precision));
    const double d = ks_distance(values(r, "mu"), [&](double x) { return boost::math::cdf(exact, x); });
    CHECK(d < 1.95 / std::sqrt(static_cast<double>(r.row_count)));
  }
}

TEST_CASE("rejection refuses a likelihood it has no bound for, a wrong bound and a hopeless cost") {
  {
    // An unknown scale: the density grows without bound as sigma falls.
    const compiled unbounded = compile({"unknown scale", "data y: real[N]\nmu ~ Normal(1, 2)\ns ~ Exponential(1)\nfor n in 1:N { y[n] ~ Normal(mu, s) }\n",
                                        {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
    CHECK_THROWS_WITH(inference::rejection_sample(unbounded.model, unbounded.data, options(100)), doctest::Contains("--bound"));
    const compiled m = compile(normal_normal());
    auto o = options(100);
    o.bound = normal_bound() - 1;
    CHECK_THROWS_WITH(inference::rejection_sample(m.model, m.data, o), doctest::Contains("above the bound"));
  }
  const compiled m = compile(beta_bernoulli());
  auto o = options(100);
  o.max_proposals = 1.05 * static_cast<double>(o.particles);  // the draws asked for, at an acceptance rate near 0.5
  CHECK_THROWS_WITH(inference::rejection_sample(m.model, m.data, o), doctest::Contains("--max-proposals"));
}

}  // namespace test_rejection
