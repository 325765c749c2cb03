// The graph: data binding, shapes, the joint log density and Markov blankets.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "tests/support/model_fixture.hpp"

namespace test_graph {

using ppl::testing::error_of;
using ppl::testing::fixture;

TEST_CASE("sizes bind from data and shapes come from loops") {
  fixture f("data y: int[N]\nfor k in 1:K { phi[k] ~ Dirichlet(rep(1.0, V)) }\nfor n in 1:N { y[n] ~ Categorical(phi[1]) }\n"
            "data K: int = 3\ndata V: int = 4\n",
            {"y=[1,2,3,4,4]"});
  CHECK(f.value("N").data.at(0) == 5);
  CHECK(f.value("phi").shape == ppl::shape::matrix(3, 4));
  double row = 0;
  for (int j = 0; j < 4; ++j) row += f.value("phi").data[static_cast<std::size_t>(4 + j)];
  CHECK(row == doctest::Approx(1.0));
}

TEST_CASE("the joint log density of the coin model") {
  fixture f("data y: int[N]\np ~ Beta(2, 3)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n", {"y=[1,0,1,1]"});
  f.mutable_value("p").data[0] = 0.3;
  // Beta(2, 3) density at 0.3 is 12 * 0.3 * 0.7^2; three heads and one tail.
  double expected = std::log(12 * 0.3 * 0.49) + 3 * std::log(0.3) + std::log(0.7);
  CHECK(f.graph->log_density() == doctest::Approx(expected));
}

TEST_CASE("a Markov blanket changes exactly as the joint does") {
  // Ising on a 4x4 torus: flipping one spin changes the joint by the change of its blanket.
  fixture f("data L: int = 4\nfor i in 1:L, j in 1:L { s[i, j] ~ Spin() }\n"
            "for i in 1:L, j in 1:L { factor 0.4 * s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) + 0.1 * s[i, j] }\n");
  int s = f.model->find("s");
  for (ppl::index_t e : {0, 5, 15}) {
    double joint0 = f.graph->log_density(), blanket0 = ppl::model::instances(*f.graph).blanket_log_density(s, e);
    f.graph->values()[static_cast<std::size_t>(s)].data[static_cast<std::size_t>(e)] *= -1;
    double joint1 = f.graph->log_density(), blanket1 = ppl::model::instances(*f.graph).blanket_log_density(s, e);
    CHECK(joint1 - joint0 == doctest::Approx(blanket1 - blanket0));
    // The blanket of a site: its prior term and the 5 factors that mention it.
    double field = 0;
    CHECK(blanket1 != doctest::Approx(joint1));
    (void)field;
  }
}

TEST_CASE("a blanket through a deterministic node and a data index") {
  fixture f("data g: int[N]\ndata x: real[N]\nfor k in 1:2 { mu[k] ~ Normal(0, 1) }\n"
            "for n in 1:N { m[n] = 2 * mu[g[n]] }\nfor n in 1:N { x[n] ~ Normal(m[n], 1) }\n",
            {"g=[1,2,1]", "x=[0.5,1.0,-0.2]"});
  int mu = f.model->find("mu");
  double j0 = f.graph->log_density(), b0 = ppl::model::instances(*f.graph).blanket_log_density(mu, 1);
  f.graph->values()[static_cast<std::size_t>(mu)].data[1] += 0.7;
  f.graph->update_derived();
  double j1 = f.graph->log_density(), b1 = ppl::model::instances(*f.graph).blanket_log_density(mu, 1);
  CHECK(j1 - j0 == doctest::Approx(b1 - b0));
}

TEST_CASE("data errors name the variable and the index") {
  CHECK(error_of("data y: int[N]\nfor n in 1:N { y[n] ~ Poisson(2) }\n", {"y=[1,-2]"}) ==
        "test.ppl:2:16: error: y[2] = -2 is outside the support of Poisson (when n = 2)");
  CHECK(error_of("data w: int[N]\nfor n in 1:N { w[n] ~ Categorical([0.5, 0.5]) }\n", {"w=[1,3]"}) ==
        "test.ppl:2:16: error: w[2] = 3 is outside the support of Categorical (when n = 2)");
  CHECK(error_of("data y: int[N]\ndata x: real[N]\n", {"y=[1,2]", "x=[1.0]"}) ==
        "test.ppl:2:14: error: size `N` is 2 from `y` (--set y=[1,2]) but 1 from `x` (--set x=[1.0])");
  CHECK(error_of("data y: int[N]\n", {"y=[1.5]"}) == "test.ppl:1:6: error: y[1] = 1.5 is not an integer, but `y` is declared int");
  // Without a value or a default, the missing value is the error, not its unknown size.
  CHECK(error_of("data y: real[N]\n") == "test.ppl:1:6: error: no value for data `y`: it is not in the data and has no default");
  CHECK(error_of("data y: real[N] = rep(0.0, N)\n") ==
        "test.ppl:1:14: error: the size `N` of `y` is unknown: give `y` in the data or set `N` with --set");
  CHECK(error_of("for i in 1:3 { x[i + 1] ~ Normal(0, 1) }\n") == "test.ppl:1:16: error: x[1] is never defined");
  // With literal bounds the checker finds these (tests/lang/test_elements.cpp); with bounds
  // from data, the graph.
  CHECK(error_of("data K: int = 3\nfor i in 1:K { x[i + 1] ~ Normal(0, 1) }\n") == "test.ppl:2:16: error: x[1] is never defined");
  CHECK(error_of("data K: int = 3\nfor i in 1:K { x[1] ~ Normal(0, 1) }\n") == "test.ppl:2:16: error: x[1] is defined twice (when i = 2)");
}

TEST_CASE("elements without a value are errors only where something reads them") {
  const std::string computed = "data K: int = 3\nfor i in 2:K { x[i] = i }\n";
  const std::string undefined = "error: `x[1]` is read here, but no statement defines it";
  CHECK(error_of(computed + "z ~ Normal(x[2] + x[3], 1)\n") == "");
  CHECK(error_of(computed + "z ~ Normal(x[1], 1)\n") == "test.ppl:3:1: " + undefined);
  CHECK(error_of(computed + "z ~ Normal(sum(x), 1)\n") == "test.ppl:3:1: " + undefined);
  CHECK(error_of(computed + "for i in 1:K { y[i] ~ Normal(x[i], 1) }\n") == "test.ppl:3:16: " + undefined + " (when i = 1)");
  // An observation reads its value; a factor is checked too.
  CHECK(error_of(computed + "z ~ Normal(0, 1)\nfor i in 1:K { x[i] ~ Normal(z, 1) }\n") == "test.ppl:4:16: " + undefined + " (when i = 1)");
  CHECK(error_of(computed + "z ~ Normal(0, 1)\nfactor -x[1] * z * z\n") == "test.ppl:4:1: " + undefined);
  // A column of a matrix whose first column is undefined reads none of it; a row does.
  const std::string matrix = "data K: int = 3\nfor i in 1:K { for j in 2:K { m[i, j] = i * j } }\n";
  CHECK(error_of(matrix + "z ~ Normal(sum(m[, 2]), 1)\n") == "");
  CHECK(error_of(matrix + "z ~ Normal(sum(m[2, ]), 1)\n") == "test.ppl:3:1: error: `m[2, 1]` is read here, but no statement defines it");
  // A missing value in data that no `~` observes: the same.
  const std::string data = "data w: real[3]\nz ~ Normal(0, 1)\n";
  CHECK(error_of(data + "y ~ Normal(z + w[2], 1)\n", {"w=[1,2,null]"}) == "");
  CHECK(error_of(data + "y ~ Normal(z + w[3], 1)\n", {"w=[1,2,null]"}) ==
        "test.ppl:3:1: error: `w[3]` is read here, but it is missing (--set w=[1,2,null]) and no `~` observes `w`, so nothing says how to "
        "impute it; give `w` a distribution to impute it, or leave that value out of what the model reads");
  // An unknown's elements all need a prior.
  CHECK(error_of("data K: int = 3\nfor i in 2:K { u[i] ~ Normal(0, 1) }\n") == "test.ppl:2:16: error: u[1] is never defined");
}

TEST_CASE("sizes and indices beyond the integers are errors, not conversions") {
  // Converting a double past 2^63 (or NaN) to an integer is undefined: each is refused first.
  CHECK(error_of("data y: real[N]\n", {"N=18446744073709551615"}) ==
        "test.ppl:1:14: error: size `N` is 18446744073709551616, more than the limit of 268435456 (2^28) (--set N=18446744073709551615)");
  CHECK(error_of("data y: real[3]\nx = y[18446744073709551615]\n", {"y=[1,2,3]"}) ==
        "test.ppl:2:7: error: 1.8446744073709552e+19 is not usable as an index or a size (an integer of at most 2^53 in magnitude)");
  CHECK(error_of("data k: int\ndata y: real[k]\n", {"k=1e300", "y=[1]"}) ==
        "test.ppl:2:14: error: 1e+300 is not usable as an index or a size (an integer of at most 2^53 in magnitude)");
  CHECK(error_of("for i in 1:3 { x[i * 1000000000000] ~ Normal(0, 1) }\n").find("more than the limit") != std::string::npos);
}

TEST_CASE("a variable may read its own earlier elements") {
  fixture f("s[1] ~ Normal(2, 1)\nfor t in 2:5 { s[t] ~ Normal(s[t - 1], 0.001) }\n");
  const auto& s = f.value("s").data;
  CHECK(s.size() == 5);
  // Drawn from the prior, each element follows the one before within thousandths.
  f.graph->start(f.rng, {.from_prior = true});
  CHECK(s[4] == doctest::Approx(s[0]).epsilon(0.05));
  CHECK(s[0] != 2);
  // Started at typical values with no jitter, each is its prior's mean: the one before.
  f.graph->start(f.rng, {.radius = 0});
  for (double x : s) CHECK(x == 2);
}

TEST_CASE("the graph counts its work: an instance evaluated is 1, differentiated 2") {
  // The unit of the chain's trial of its plan (inference/chain_trial.hpp): a count, so that
  // a seed makes the same choice on any machine.
  fixture f("data y: real[N]\nmu ~ Normal(0, 1)\nfor n in 1:N { m[n] = mu + n }\nfor n in 1:N { y[n] ~ Normal(m[n], 1) }\n",
            {"y=[1,2,3,4,5,6,7]"});
  auto& g = *f.graph;
  const auto& statements = f.model->statements;
  for (const auto& s : statements) CHECK(g.instance_count(s) == (s.loops.empty() ? 1u : 7u));
  std::uint64_t before = g.work();
  g.log_density();
  CHECK(g.work() - before == 8);  // mu's prior and seven observations
  before = g.work();
  g.update_derived();
  CHECK(g.work() - before == 7);  // the seven m[n]
  before = g.work();
  std::vector<char> wrt(f.model->variables.size(), 0);
  wrt[static_cast<std::size_t>(f.model->find("mu"))] = 1;
  std::vector<std::vector<double>> gradient;
  g.log_density_gradient(wrt, gradient);
  // Forward and back through the definition and the eight terms: 2 x 15, and the
  // definition's values recomputed once more where its plate is not differentiated whole.
  CHECK(g.work() - before >= 30);
  CHECK(g.work() - before <= 37);
  before = g.work();
  ppl::model::instances(g).log_density(statements.back(), std::vector<ppl::index_t>{3}.data());
  CHECK(g.work() - before == 1);
  g.add_work(5);
  CHECK(g.work() - before == 6);
}

}  // namespace test_graph
