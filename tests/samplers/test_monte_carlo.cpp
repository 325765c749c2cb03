// The weighted methods (inference/monte_carlo.hpp) on conjugate models whose evidence
// p(data) has a closed form, and on discrete models whose evidence is a sum over every
// value of the unknowns: each method's log evidence within 3 of its own standard errors
// of the exact value (a fixed seed: a wrong estimator fails, a right one passes with
// probability 0.997), the standard error small enough for that to say something, posterior
// means within the runs' Monte Carlo error. Rejection sampling's tests are in
// test_rejection.cpp; the models are in evidence_cases.hpp.
#include <doctest/doctest.h>

#include "inference/particles.hpp"
#include "tests/samplers/evidence_cases.hpp"

namespace test_monte_carlo {

using namespace ppl;
using namespace evidence_cases;

TEST_CASE("importance sampling's evidence matches the exact evidence of conjugate and discrete models") {
  for (const model_case& c : {beta_bernoulli(), normal_normal(), gamma_poisson(), dirichlet_categorical(), mixture(), mark()}) {
    const compiled m = compile(c);
    const auto r = inference::importance_sample(m.model, m.data, options(20000));
    check_evidence("importance", c, r);
    CHECK_FALSE(r.pareto_k > 0.7);  // NaN: weights taking few values have no tail to fit
    CHECK(r.ess > 100);
  }
}

TEST_CASE("importance sampling from a proposal model: weights p(unknowns, data) / q(unknowns)") {
  const model_case c = normal_normal();
  const compiled m = compile(c);
  // The posterior is N(1.03, 0.58); the proposal is near it and wider.
  const compiled q = compile({"proposal", "mu ~ Normal(1, 1)\n", {}, 0});
  auto o = options(4000);
  const auto prior = inference::importance_sample(m.model, m.data, o);
  o.proposal = &q.model;
  o.proposal_data = &q.data;
  const auto r = inference::importance_sample(m.model, m.data, o);
  check_evidence("importance with a proposal", c, r);
  CHECK(r.ess > 1.5 * prior.ess);
  CHECK(r.evidence.se < prior.evidence.se);
  // --monitor names the model's variables; a derived one the proposal lacks is still recorded.
  const compiled derived = compile({"Normal-Normal with a derived quantity", "data y: real[N]\nmu ~ Normal(1, 2)\ntwice = 2 * mu\n"
                                    "for n in 1:N { y[n] ~ Normal(mu, 1.5) }\n", {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
  o.monitors = {"twice"};
  const auto monitored = inference::importance_sample(derived.model, derived.data, o);
  CHECK(monitored.evidence.log_z == r.evidence.log_z);
  column_of(monitored, "twice");
  o.monitors.clear();
  // The proposal must draw exactly the model's unknowns, and observe nothing.
  for (const char* text : {"nu ~ Normal(1, 1)\n", "mu ~ Normal(1, 1)\nz ~ Normal(0, 1)\n", "mu[1] ~ Normal(1, 1)\n",
                           "data y: real[N]\nmu ~ Normal(1, 1)\ny[1] ~ Normal(mu, 1)\n"}) {
    const compiled bad = compile({"proposal", text, {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
    o.proposal = &bad.model;
    o.proposal_data = &bad.data;
    CHECK_THROWS_AS(inference::importance_sample(m.model, m.data, o), std::invalid_argument);
  }
}

TEST_CASE("tempered SMC's evidence matches the exact evidence of conjugate and discrete models") {
  for (const model_case& c : {beta_bernoulli(), normal_normal(), gamma_poisson(), dirichlet_categorical(), mixture(), mark()}) {
    const compiled m = compile(c);
    auto o = options(400);
    o.runs = 8;
    const auto r = inference::smc_sample(m.model, m.data, o);
    check_evidence("smc", c, r);
    REQUIRE(r.temperatures.size() == 8);
    CHECK(r.temperatures[0].back() == 1.0);
  }
}

TEST_CASE("SMC moves by MCMC's conjugate, gaussian_block and collapsed updates, tempered") {
  struct expected {
    model_case c;
    std::vector<std::string> kinds;
  };
  double theta1 = 0;
  for (const auto& [c, kinds] : {expected{beta_bernoulli(), {"conjugate"}}, expected{normal_normal(), {"conjugate"}},
                                 expected{gamma_poisson(), {"conjugate"}}, expected{dirichlet_categorical(), {"conjugate"}},
                                 expected{regression(), {"gaussian_block"}}, expected{collapsed_mixture(&theta1), {"collapsed"}}}) {
    const compiled m = compile(c);
    auto o = options(400);
    o.runs = 8;
    const auto r = inference::smc_sample(m.model, m.data, o);
    std::vector<std::string> got;
    for (const auto& line : r.moves)
      if (std::find(got.begin(), got.end(), line.kind) == got.end()) got.push_back(line.kind);
    INFO(c.name);
    CHECK(got == kinds);
    check_evidence("smc", c, r);
  }
  // The collapsed sweep draws theta given z into each particle: its mean is the posterior's.
  const compiled m = compile(collapsed_mixture());
  auto o = options(400);
  o.runs = 8;
  const auto r = inference::smc_sample(m.model, m.data, o);
  const std::vector<double> theta = values(r, "theta[1]");
  const auto per_run = theta.size() / 8;
  std::vector<double> means;
  for (std::size_t k = 0; k < 8; ++k)
    means.push_back(std::accumulate(theta.begin() + static_cast<std::ptrdiff_t>(k * per_run), theta.begin() + static_cast<std::ptrdiff_t>((k + 1) * per_run), 0.0) /
                    static_cast<double>(per_run));
  const double mean = std::accumulate(means.begin(), means.end(), 0.0) / 8;
  double ss = 0;
  for (double x : means) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / 7 / 8);
  INFO("theta[1]: ", mean, " (se ", se, "), exact ", theta1);
  CHECK(std::abs(mean - theta1) < 5 * se);  // Student's t with 7 degrees of freedom: beyond 5 with probability 0.2%
  CHECK(se < 0.02);
}

TEST_CASE("SMC moves by MCMC's nuts where its plan gives it, with the tempered gradient") {
  const model_case c = logistic_regression();
  const compiled m = compile(c);
  auto o = options(400);
  o.runs = 8;
  const auto r = inference::smc_sample(m.model, m.data, o);
  REQUIRE(r.moves.size() == 2);
  for (const auto& line : r.moves) CHECK(line.kind == "nuts");
  check_evidence("smc", c, r);
}

TEST_CASE("SMC's posterior mean agrees with the exact one within the runs' Monte Carlo error") {
  const compiled m = compile(beta_bernoulli());
  auto o = options(400);
  o.runs = 8;
  const auto r = inference::smc_sample(m.model, m.data, o);
  // Each run's particles are equally weighted: the runs' means are independent estimates.
  const std::vector<double> p = values(r, "p");
  const auto per_run = static_cast<std::size_t>(o.particles);
  std::vector<double> means;
  for (std::size_t k = 0; k < 8; ++k) means.push_back(std::accumulate(p.begin() + k * per_run, p.begin() + (k + 1) * per_run, 0.0) / per_run);
  const double mean = std::accumulate(means.begin(), means.end(), 0.0) / 8;
  double ss = 0;
  for (double x : means) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / 7 / 8);
  // 5 standard errors: Student's t with 7 degrees of freedom exceeds it with probability 0.2%.
  CHECK(std::abs(mean - 5.0 / 9.0) < 5 * se);
  CHECK(se < 0.01);
}

TEST_CASE("the weighted methods give the same draws whatever the number of threads") {
  const compiled m = compile(mixture());
  auto o = options(200);
  o.runs = 3;
  const auto two = inference::smc_sample(m.model, m.data, o);
  o.threads = 1;
  const auto one = inference::smc_sample(m.model, m.data, o);
  CHECK(one.rows == two.rows);
  CHECK(one.evidence.log_z == two.evidence.log_z);
  // Fewer runs than threads: the particles are spread instead of the runs (nuts moves, whose
  // tuned step size the other threads' samplers take from the first's).
  const compiled logistic = compile(logistic_regression());
  o.runs = 1;
  const auto serial = inference::smc_sample(logistic.model, logistic.data, o);
  o.threads = 3;
  const auto spread = inference::smc_sample(logistic.model, logistic.data, o);
  CHECK(serial.rows == spread.rows);
  CHECK(serial.evidence.log_z == spread.evidence.log_z);
  o.threads = 1;
  const auto i1 = inference::importance_sample(m.model, m.data, o);
  o.threads = 3;
  const auto i3 = inference::importance_sample(m.model, m.data, o);
  CHECK(i1.rows == i3.rows);
}

TEST_CASE("an interrupted method returns what it finished: here nothing, and says so") {
  struct reset {
    ~reset() { ppl::set_interrupted(false); }
  } guard;
  ppl::set_interrupted(true);
  const compiled m = compile(beta_bernoulli());
  auto o = options(200);
  for (const auto& r : {inference::importance_sample(m.model, m.data, o), inference::smc_sample(m.model, m.data, o),
                        inference::rejection_sample(m.model, m.data, o)}) {
    CHECK(r.interrupted);
    CHECK(r.row_count == 0);
    CHECK(r.stopped.rfind("0 of ", 0) == 0);
  }
}

TEST_CASE("the evidence's error bar grows with the runs' disagreement, and says when it cannot be trusted") {
  // Four SMC runs of one mixture written with latent indicators (issue 41): the delta
  // method over their Z gave 0.999991, which one dominant run always gives.
  ppl::inference::weighted_result far;
  far.run_log_z = {-480.6, -468.2, -482.0, -481.9};
  far.evidence = ppl::inference::particles::log_mean_exp(far.run_log_z);
  CHECK(far.evidence.se == doctest::Approx(1.0).epsilon(1e-3));
  ppl::inference::particles::runs_spread(far);
  CHECK(far.unreliable);
  CHECK(far.evidence.se > 3);  // sd 6.7 over sqrt(4)
  REQUIRE(far.warnings.size() == 1);
  CHECK(far.warnings[0].find("range from -482.00 to -468.20") != std::string::npos);
  // Runs that agree (eight schools' four): no warning, and the larger of the two errors.
  ppl::inference::weighted_result near;
  near.run_log_z = {-31.316934, -31.277570, -31.272911, -31.394840};
  near.evidence = ppl::inference::particles::log_mean_exp(near.run_log_z);
  const double delta = near.evidence.se;
  ppl::inference::particles::runs_spread(near);
  CHECK_FALSE(near.unreliable);
  CHECK(near.warnings.empty());
  CHECK(near.evidence.se >= delta);
}

}  // namespace test_monte_carlo
