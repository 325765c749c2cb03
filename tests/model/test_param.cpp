// `param` declarations (lang/checker_param.cpp): an unknown declared with its type, shape
// and bounds; without a `~`, Stan's implicit flat prior on that support (stdlib/flat.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "stdlib/flat.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_param {

using ppl::testing::error_of;
using ppl::testing::fixture;

namespace {

const ppl::lang::ir::statement& first_statement(const fixture& f, const std::string& name) {
  const auto& m = *f.model;
  return m.statements[static_cast<std::size_t>(m.variables[static_cast<std::size_t>(m.find(name))].statements[0])];
}

}  // namespace

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

TEST_CASE("between bounds that follow another unknown the flat prior is not normalised, as Stan's is not") {
  // posteriordb's garch11: beta1 in (0, 1 - alpha1). Uniform(0, 1 - a) would add -log(1 - a).
  fixture f("param a: real<lower=0, upper=1>\nparam b: real<lower=0, upper=1 - a>\nfactor -b\n");
  f.mutable_value("a").data[0] = 0.75;
  f.mutable_value("b").data[0] = 0.125;
  CHECK(f.graph->log_density() == doctest::Approx(-0.125).epsilon(1e-12));
  f.mutable_value("b").data[0] = 0.3;
  CHECK(f.graph->log_density() == -INFINITY);
  CHECK(ppl::stdlib::improper(*first_statement(f, "b").dist));
  CHECK(!ppl::stdlib::improper(*first_statement(f, "a").dist));
}

TEST_CASE("a param's declared shape: its flat prior, its `~`, and arrays that must agree with it") {
  fixture f("data K: int = 3\nparam b: real[K]\nparam c: real[K, 2]\nc ~ Normal(0, 1)\nfactor -dot(b, b) - sum(c)\n");
  CHECK(f.value("b").shape == ppl::shape::vector(3));
  CHECK(f.value("c").shape == ppl::shape::matrix(3, 2));
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
  ppl::rng rng(1);
  CHECK_THROWS_AS(f.graph->draw_variable(f.model->find("mu"), rng), ppl::stdlib::parameter_error);
}

TEST_CASE("a prior on a param with bounds is truncated to them, as Stan's is when the bounds are data") {
  // Exponential(1) on (1, 3): log density -s - log(e^-1 - e^-3).
  fixture f("param s: real<lower=1, upper=3>\ns ~ Exponential(1)\n");
  f.mutable_value("s").data[0] = 2.0;
  CHECK(f.graph->log_density() == doctest::Approx(-2.0 - std::log(std::exp(-1.0) - std::exp(-3.0))).epsilon(1e-12));
  f.mutable_value("s").data[0] = 3.5;
  CHECK(f.graph->log_density() == -INFINITY);
  // Normal(0, 1) on (0, inf): the half-normal, twice the density.
  fixture g("param s: real<lower=0>\ns ~ Normal(0, 1)\n");
  g.mutable_value("s").data[0] = 0.5;
  CHECK(g.graph->log_density() == doctest::Approx(std::log(2.0) - 0.5 * std::log(2 * M_PI) - 0.125).epsilon(1e-12));
  // Bounds that hold the whole support change nothing: the Gamma stays a Gamma (and
  // keeps its conjugate updates); a bound from data is a truncation still.
  CHECK(first_statement(fixture("param t: real<lower=0>\nt ~ Gamma(2, 1)\n"), "t").dist_name == "Gamma");
  CHECK(first_statement(fixture("data c: real\nparam t: real<lower=c>\nt ~ Gamma(2, 1)\n", {"c=0"}), "t").dist_name != "Gamma");
}

TEST_CASE("param: errors") {
  CHECK(error_of("param s: real<lower=0>\ns ~ Normal(0, 1) T[0, ]\n").find("give the bounds once") != std::string::npos);
  CHECK(error_of("param a: real<lower=0, upper=1>\nparam b: real<lower=0, upper=1 - a>\nb ~ Beta(2, 2)\n")
            .find("`b` has a prior and bounds that follow the unknown `a`") != std::string::npos);
  CHECK(error_of("param k: int\n").find("`k` is an int `param` without a prior") != std::string::npos);
  CHECK(error_of("data b: real\nparam b: real\n") == "test.ppl:2:7: error: `b` is already declared (line 1)");
  CHECK(error_of("param b: real\nb = 2\n") == "test.ppl:2:1: error: `b` is declared `param`, an unknown; it cannot be assigned with `=`");
}

}  // namespace test_param
