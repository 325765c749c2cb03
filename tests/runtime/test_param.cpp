// `param` declarations (lang/checker_param.cpp): an unknown declared with its type, shape
// and bounds; without a `~`, Stan's implicit flat prior on that support (stdlib/flat.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "stdlib/flat.hpp"
#include "tests/support/model_fixture.hpp"

using ppl::testing::error_of;
using ppl::testing::fixture;

TEST_CASE("a param without ~ adds nothing to the density inside its support, -inf outside") {
  fixture f("data y: real[N]\nparam mu: real\nparam s: real<lower=0>\nparam p: real<lower=0, upper=1>\n"
            "y ~ Normal(mu, s)\nfactor log(p)\n", {"y=[0.5,1.5]"});
  f.mutable_value("mu").data[0] = 1.0;
  f.mutable_value("s").data[0] = 2.0;
  f.mutable_value("p").data[0] = 0.25;
  const double normal = 2 * (-0.5 * std::log(2 * M_PI) - std::log(2.0)) - (0.25 + 0.25) / 8;
  CHECK(f.graph->log_density() == doctest::Approx(normal + std::log(0.25)));  // Uniform(0, 1) on p: log 1
  f.mutable_value("p").data[0] = 1.5;
  CHECK(f.graph->log_density() == -INFINITY);
  fixture g("param t: real<lower=2>\nfactor -t\n");
  g.mutable_value("t").data[0] = 3;
  CHECK(g.graph->log_density() == doctest::Approx(-3));
  g.mutable_value("t").data[0] = 1;
  CHECK(g.graph->log_density() == -INFINITY);
}

TEST_CASE("a param's declared shape: its flat prior, its `~`, and arrays that must agree with it") {
  fixture f("data K: int = 3\nparam b: real[K]\nparam c: real[K, 2]\nc ~ Normal(0, 1)\nfactor -dot(b, b) - sum(c)\n");
  CHECK(f.value("b").shape == ppl::runtime::shape::vector(3));
  CHECK(f.value("c").shape == ppl::runtime::shape::matrix(3, 2));
  const auto& m = *f.model;
  const auto& b = m.statements[static_cast<std::size_t>(m.variables[static_cast<std::size_t>(m.find("b"))].statements[0])];
  CHECK(ppl::stdlib::improper(*b.dist));
  CHECK(error_of("data K: int = 3\ndata m: real[M]\nparam b: real[K]\nb ~ Normal(m, 1)\n", {"m=[1,2]"}) ==
        "test.ppl:4:1: error: `b` is declared with shape [3] but `m` has shape [2]: the arrays of a vectorised statement must "
        "all have one shape");
}

TEST_CASE("Flat() is BUGS's dflat(): improper on the reals, with no draws") {
  fixture f("data y: real[N]\nmu ~ Flat()\ny ~ Normal(mu, 1)\n", {"y=[0.5,1.5]"});
  f.mutable_value("mu").data[0] = 1e6;
  CHECK(std::isfinite(f.graph->log_density()));
  ppl::runtime::rng rng(1);
  CHECK_THROWS_AS(f.graph->draw_variable(f.model->find("mu"), rng), ppl::stdlib::parameter_error);
}

TEST_CASE("param: errors") {
  CHECK(error_of("param s: real<lower=0>\ns ~ HalfNormal(1)\n").find("`s` has bounds and a prior") != std::string::npos);
  CHECK(error_of("param k: int\n").find("`k` is an int `param` without a prior") != std::string::npos);
  CHECK(error_of("data b: real\nparam b: real\n") == "test.ppl:2:7: error: `b` is already declared (line 1)");
  CHECK(error_of("param b: real\nb = 2\n") == "test.ppl:2:1: error: `b` is declared `param`, an unknown; it cannot be assigned with `=`");
}
