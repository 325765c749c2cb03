// Posteriors of models written with the language's later forms — vectorised statements,
// conditionals, `param` declarations, log-density calls — against exact answers, within
// Monte Carlo error (|z| < 4, fixed seeds).
#include "tests/samplers/inference_fixture.hpp"

using namespace ppl::testing;

namespace {

ppl::samplers::run_options quick(long draws = 2000) {
  ppl::samplers::run_options o;
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
