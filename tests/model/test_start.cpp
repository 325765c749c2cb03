// Where a chain starts (model/graph_start.cpp): typical values jittered on the
// unconstrained scale, prior draws on request, --init values set before anything that
// depends on them, and parameters that are invalid at a start left for the start to retry
// rather than failing the build (`ppl check` on a vague Gamma prior).
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/model_fixture.hpp"

namespace test_start {

using ppl::testing::fixture;

TEST_CASE("start: typical values moved within the radius on the unconstrained scale") {
  fixture f("s ~ Gamma(2, 1)\nu ~ Uniform(0, 10)\nm ~ Normal(-3, 100)\np ~ Dirichlet([1.0, 1.0, 2.0])\n");
  double lo = INFINITY, hi = 0;
  for (int k = 0; k < 200; ++k) {
    f.graph->start(f.rng, {.radius = 1});
    const double s = f.value("s").data[0], u = f.value("u").data[0], m = f.value("m").data[0];
    // Gamma(2, 1): the mean 2, on the log scale +-1. Uniform(0, 10): 5, on the logit scale.
    CHECK(s > 2 * std::exp(-1.0));
    CHECK(s < 2 * std::exp(1.0));
    CHECK(u > 10 / (1 + std::exp(1.0)));
    CHECK(u < 10 / (1 + std::exp(-1.0)));
    CHECK(std::fabs(m + 3) < 1);  // the mean, not a draw at a scale of 100
    const auto& p = f.value("p").data;
    CHECK(p[0] + p[1] + p[2] == doctest::Approx(1));
    lo = std::min(lo, s), hi = std::max(hi, s);
  }
  CHECK(hi - lo > 3);  // the chains' starts differ: the jitter spans most of its range
  f.graph->start(f.rng, {.radius = 0});
  CHECK(f.value("s").data[0] == 2);
  CHECK(f.value("u").data[0] == 5);
  const auto& p = f.value("p").data;
  CHECK(p[2] == doctest::Approx(0.5));
}

TEST_CASE("start: a vague Gamma prior on a precision starts at its mean, not at an underflowed draw") {
  // The BUGS habit: drawn from the prior, tau underflows to 0 and sigma is infinite.
  const char* model = "tau ~ Gamma(0.001, 0.001)\nsigma = 1 / sqrt(tau)\nfor i in 1:5 { b[i] ~ Normal(0, sigma) }\n";
  fixture f(model);  // builds: neither a check nor a start fails for an unlucky draw
  for (int k = 0; k < 50; ++k) {
    f.graph->start(f.rng, {});
    CHECK(std::isfinite(f.graph->log_density()));
  }
  // From the prior, most starts are not finite (tau = 0 leaves b NaN): the chain's start
  // would try again rather than stop.
  int finite = 0;
  for (int k = 0; k < 50; ++k) {
    f.graph->start(f.rng, {.from_prior = true});
    finite += std::isfinite(f.graph->log_density());
  }
  CHECK(finite < 50);
}

TEST_CASE("start: --init values are set before what depends on them is drawn") {
  fixture f("tau ~ Gamma(1, 1)\nx ~ Normal(tau, 0.001)\n");
  ppl::data::data_table init;
  ppl::data::apply_set(init, "tau=100");
  f.graph->start(f.rng, {.from_prior = true, .init = &init});
  CHECK(f.value("tau").data[0] == 100);
  CHECK(f.value("x").data[0] == doctest::Approx(100).epsilon(1e-4));
  CHECK_FALSE(ppl::model::failed_start(*f.graph).covered_by_init());
  ppl::data::apply_set(init, "x=3");
  f.graph->start(f.rng, {.init = &init});
  CHECK(ppl::model::failed_start(*f.graph).covered_by_init());
  CHECK(f.value("x").data[0] == 3);
  // Names and shapes that do not fit are usage errors.
  ppl::data::data_table wrong;
  ppl::data::apply_set(wrong, "sigma=1");
  CHECK_THROWS_WITH_AS(f.graph->start(f.rng, {.init = &wrong}), "--init: `sigma` is not an unknown of the model", std::invalid_argument);
  ppl::data::data_table outside;
  ppl::data::apply_set(outside, "tau=-1");
  CHECK_THROWS_WITH_AS(f.graph->start(f.rng, {.init = &outside}), doctest::Contains("--init: tau = -1 is outside the support"),
                       std::invalid_argument);
}

TEST_CASE("start: a Bernoulli of inv_logit far in the tail keeps a finite density") {
  // inv_logit(60) is 1 in doubles: Bernoulli(1) at y = 0 would be log 0. Evaluated on the
  // log-odds scale the term is -60.
  fixture f("data y: int\nx ~ Normal(0, 100)\ny ~ Bernoulli(inv_logit(x))\ndata n: int\nk ~ Poisson(exp(x - 800))\n",
            {"y=0", "n=1"});
  f.mutable_value("x").data[0] = 60;
  f.mutable_value("k").data[0] = 0;
  f.graph->update_derived();
  CHECK(std::isfinite(f.graph->log_density()));
  fixture g("data y: int\nx ~ Normal(0, 100)\ny ~ Bernoulli(inv_logit(x))\n", {"y=0"});
  g.mutable_value("x").data[0] = 60;
  const double lp = g.graph->log_density();
  const double prior = -std::log(100 * std::sqrt(2 * M_PI)) - 0.5 * 0.36;
  CHECK(lp == doctest::Approx(prior - 60 - std::log1p(std::exp(-60.0))));
}

}  // namespace test_start
