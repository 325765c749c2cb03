// Vectorised statements (lang/checker_vectorise.cpp): `y ~ D(args)` over arrays is the
// loop over their elements, with the same terms, and shapes that differ are an error.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/model_fixture.hpp"

namespace test_vectorised {

using ppl::testing::error_of;
using ppl::testing::fixture;

namespace {

// The joint log density of a model at the unknowns' values given as `--set` strings.
double density_at(const std::string& text, std::vector<std::string> sets, const std::vector<std::pair<std::string, std::vector<double>>>& at) {
  fixture f(text, sets);
  for (const auto& [name, values] : at) {
    auto& t = f.mutable_value(name);
    REQUIRE(t.data.size() == values.size());
    t.data = values;
  }
  f.graph->update_derived();
  return f.graph->log_density();
}

}  // namespace

TEST_CASE("a vectorised observation has the terms of its loop") {
  const std::vector<std::string> data = {"x=[0.5,-1,2,0.3]", "y=[1.2,-0.4,3.9,0.8]"};
  const std::vector<std::pair<std::string, std::vector<double>>> at = {{"a", {0.4}}, {"b", {1.3}}, {"s", {0.7}}};
  const std::string head = "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\ns ~ HalfNormal(5)\n";
  const double looped = density_at(head + "for n in 1:N { y[n] ~ Normal(a + b * x[n], s) }\n", data, at);
  CHECK(density_at(head + "y ~ Normal(a + b * x, s)\n", data, at) == doctest::Approx(looped).epsilon(1e-12));
  // Through a deterministic vector, and with the arguments the other way round.
  CHECK(density_at(head + "mu = a + b * x\ny ~ Normal(mu, s)\n", data, at) == doctest::Approx(looped).epsilon(1e-12));
}

TEST_CASE("an array computed from data and observed whole has the terms of its loop") {
  // posteriordb's earnings models: log_earn = log(earn), then log_earn ~ Normal(...) with a
  // second computed array among the arguments (this crashed while the graph was built).
  const std::vector<std::string> data = {"x=[0.5,-1,2,0.3]", "z=[1,0,1,1]", "y=[1.2,0.4,3.9,0.8]"};
  const std::vector<std::pair<std::string, std::vector<double>>> at = {{"a", {0.4}}, {"b", {1.3}}, {"s", {0.7}}};
  const std::string head = "data x: real[N]\ndata z: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\ns ~ HalfNormal(5)\n";
  const double looped = density_at(head + "for n in 1:N { ly[n] = log(y[n])\n ly[n] ~ Normal(a + b * x[n] * z[n], s) }\n", data, at);
  CHECK(density_at(head + "ly = log(y)\nxz = x .* z\nly ~ Normal(a + b * xz, s)\n", data, at) == doctest::Approx(looped).epsilon(1e-12));
  CHECK(density_at(head + "ly = log(y)\nly ~ Normal(a + b * x .* z, s)\n", data, at) == doctest::Approx(looped).epsilon(1e-12));
}

TEST_CASE("an unknown vector takes its shape from an array argument") {
  fixture f("data m: real[N]\ntheta ~ Normal(m, 1)\n", {"m=[1,2,3,4]"});
  CHECK(f.value("theta").shape == ppl::shape::vector(4));
  fixture g("data M: real[R, C]\nY ~ Normal(M, 2)\n", {"M=[[1,2,3],[4,5,6]]"});
  CHECK(g.value("Y").shape == ppl::shape::matrix(2, 3));
}

TEST_CASE("a matrix observed with scalar arguments, rows, a matrix product, a slice") {
  const std::vector<std::string> data = {"Y=[[1,2],[0.5,-1],[2,2]]", "X=[[1,0.5],[1,-0.2],[1,1.1]]", "y=[0.3,1,2]"};
  const std::vector<std::pair<std::string, std::vector<double>>> at = {{"m", {0.3}}, {"w", {0.2, -0.6}}};
  const std::string head = "data Y: real[N, K]\ndata X: real[N, K]\ndata y: real[N]\nm ~ Normal(0, 1)\nw ~ Normal(rep(0, K), 1)\n";
  const double looped = density_at(head + "for i in 1:N, k in 1:K { Y[i, k] ~ Normal(m, 1) }\n"
                                          "for i in 1:N { y[i] ~ Normal(dot(X[i], w) + X[i, 2], 2) }\n"
                                          "for i in 1:N, k in 1:K { Y[i, k] ~ Normal(X[i, k] * m, 3) }\n", data, at);
  const double vectorised = density_at(head + "Y ~ Normal(m, 1)\ny ~ Normal(X * w + X[:, 2], 2)\n"
                                              "for i in 1:N { Y[i] ~ Normal(X[i] * m, 3) }\n", data, at);
  CHECK(vectorised == doctest::Approx(looped).epsilon(1e-12));
}

TEST_CASE("a whole dimension on the left of ~ is looped over") {
  // Stan's y[:, k] ~ ...: data columns, an unknown's columns (shaped by the argument), a
  // declared param's column; and Y[:, :] as Y.
  const std::vector<std::string> data = {"Y=[[1,2],[0.5,-1],[2,2]]", "x=[0.2,1,-0.5]"};
  const std::vector<std::pair<std::string, std::vector<double>>> at = {{"b", {0.4, -0.3}}, {"u", {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}}};
  const std::string head = "data Y: real[N, K]\ndata x: real[N]\nfor k in 1:K { b[k] ~ Normal(0, 1) }\n";
  const double looped = density_at(head + "for n in 1:N, k in 1:K { Y[n, k] ~ Normal(b[k] * x[n], 1) }\n"
                                          "for n in 1:N, k in 1:K { u[n, k] ~ Normal(x[n], 2) }\n", data, at);
  const double sliced = density_at(head + "for k in 1:K { Y[:, k] ~ Normal(b[k] * x, 1) }\n"
                                          "for k in 1:K { u[:, k] ~ Normal(x, 2) }\n", data, at);
  CHECK(sliced == doctest::Approx(looped).epsilon(1e-12));
  CHECK(density_at(head + "for k in 1:K { Y[, k] ~ Normal(b[k] * x, 1) }\nfor k in 1:K { u[:, k] ~ Normal(x, 2) }\n", data, at) ==
        doctest::Approx(looped).epsilon(1e-12));
  const std::string declared = "data Y: real[N, K]\ndata x: real[N]\nparam b: real[K]\nparam u: real[N, K]\nb ~ Normal(0, 1)\n"
                               "for n in 1:N, k in 1:K { Y[n, k] ~ Normal(b[k] * x[n], 1) }\n";
  CHECK(density_at(declared + "for k in 1:K { u[:, k] ~ Normal(0, 2) }\n", data, at) ==
        doctest::Approx(density_at(declared + "for n in 1:N, k in 1:K { u[n, k] ~ Normal(0, 2) }\n", data, at)).epsilon(1e-12));
  // The column's length is checked against the argument's.
  CHECK(error_of("data Y: real[N, K]\ndata z: real[M]\nm ~ Normal(0, 1)\nY[:, 1] ~ Normal(m * z, 1)\n", {"Y=[[1,2],[3,4]]", "z=[1,2,3]"})
            .find("has shape [2] but") != std::string::npos);
  CHECK(error_of("data Y: real[N, K]\nm ~ Normal(0, 1)\nY[2:3, 1] ~ Normal(m, 1)\n", {"Y=[[1,2],[3,4]]"})
            .find("a range on the left of `~` takes a block of a distribution of arrays") != std::string::npos);
  CHECK(error_of("data x: real[N]\nY[:, 1] = x\n", {"x=[1,2]"}).find("a whole dimension (`:`) on the left is for `~`") != std::string::npos);
  CHECK(error_of("data y: real[N]\nm ~ Normal(0, 1)\ny[:, 1] ~ Normal(m, 1)\n", {"y=[1,2]"}).find("`y` has 1 dimension but") != std::string::npos);
  CHECK(error_of("data Y: real[N, K]\np ~ Dirichlet([1, 1])\nY[:, 1] ~ Dirichlet([1, 1])\n", {"Y=[[0.5,0.5],[0.3,0.7]]"})
            .find("does not apply element by element") != std::string::npos);
}

TEST_CASE("arrays of different shapes are an error naming both") {
  CHECK(error_of("data y: real[N]\ndata mu: real[M]\ny ~ Normal(mu, 1)\n", {"y=[1,2,3]", "mu=[1,2]"}) ==
        "test.ppl:3:1: error: `y` has shape [3] but `mu` has shape [2]: the arrays of a vectorised statement must all have one shape");
  CHECK(error_of("data y: real[N]\ndata mu: real[M]\ns ~ HalfNormal(1)\ny ~ Normal(mu, s + mu)\n", {"y=[1,2]", "mu=[1,2,3]"})
            .find("`y` has shape [2] but `mu` has shape [3]") != std::string::npos);
  CHECK(error_of("data y: real[N]\ndata M: real[N, N]\ny ~ Normal(M, 1)\n") ==
        "test.ppl:3:12: error: `M` has 2 dimensions but `y` has 1 dimension: the arguments of Normal must be scalars or arrays "
        "of the shape of what it gives");
}

TEST_CASE("distributions of vectors, or with vector parameters, keep their meaning") {
  CHECK(error_of("data z: int[N]\np ~ Dirichlet([1, 1])\nz ~ Categorical(p)\n", {"z=[1,2]"})
            .find("Categorical takes or gives arrays, so it does not apply element by element") != std::string::npos);
  fixture f("p ~ Dirichlet([1, 1, 2])\n");
  CHECK(f.value("p").shape == ppl::shape::vector(3));
}

TEST_CASE("an element in a vectorised statement names no hidden loop") {
  // The error names the element, not the checker's loop variable.
  const std::string e = error_of("data y: int[N]\ny ~ Poisson(2)\n", {"y=[1,-2]"});
  CHECK(e == "test.ppl:2:1: error: y[2] = -2 is outside the support of Poisson");
}

TEST_CASE("an if/else chain on data has the terms of the branch each instance takes") {
  const std::vector<std::string> data = {"y=[1,1.2,0.8,3,4,5.1]"};
  const std::vector<std::pair<std::string, std::vector<double>>> at = {{"a", {0.9}}, {"b", {4.2}}};
  const std::string head = "data y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\n";
  const double explicit_terms = density_at(head + "for t in 1:3 { y[t] ~ Normal(a, 1) }\ny[4] ~ Normal(0.5 * (a + b), 2)\n"
                                                  "for t in 5:6 { y[t] ~ Normal(b, 1) }\n", data, at);
  const double branches = density_at(head + "for t in 1:N {\n  if (t < 4) { y[t] ~ Normal(a, 1) }\n"
                                             "  else if (t == 4) { y[t] ~ Normal(0.5 * (a + b), 2) }\n"
                                             "  else { y[t] ~ Normal(t < 5 ? a : b, 1) }\n}\n", data, at);
  CHECK(branches == doctest::Approx(explicit_terms).epsilon(1e-12));
}

TEST_CASE("an unknown defined in both branches is defined once; in both an if and outside, twice") {
  fixture f("data c: int = 2\nif (c == 1) { x ~ Normal(0, 1) } else { x ~ Gamma(2, 1) }\n");
  CHECK(f.value("x").data.at(0) > 0);
  CHECK(error_of("data c: int = 1\nif (c == 1) { x ~ Normal(0, 1) }\nx ~ Normal(1, 1)\n") ==
        "test.ppl:3:1: error: x is defined twice");
  CHECK(error_of("data c: int = 1\nif (c == 2) { x ~ Normal(0, 1) }\n") == "test.ppl:2:15: error: x is never defined");
}

TEST_CASE("a factor inside an if on unknowns counts only where its condition holds") {
  fixture f("th ~ Normal(0, 1)\nif (th > 0) { factor -2 * th }\n");
  auto& th = f.mutable_value("th");
  th.data[0] = 0.5;
  const double normal = -0.5 * std::log(2 * M_PI);
  CHECK(f.graph->log_density() == doctest::Approx(normal - 0.125 - 1.0));
  th.data[0] = -0.5;
  CHECK(f.graph->log_density() == doctest::Approx(normal - 0.125));
}

TEST_CASE("a range on the left of `~` defines a block of a row") {
  // x[1, 1:2] and x[1, 3:4] are two Dirichlet blocks of one row, beside a whole row x[2]:
  // their terms are those of vectors of their own.
  const double blocks = density_at("x[1, 1:2] ~ Dirichlet([1, 2])\nx[1, 3:4] ~ Dirichlet([2, 2])\nx[2] ~ Dirichlet([1, 1, 2, 3])\n",
                                   {}, {{"x", {0.3, 0.7, 0.25, 0.75, 0.1, 0.2, 0.3, 0.4}}});
  const double own = density_at("a ~ Dirichlet([1, 2])\nb ~ Dirichlet([2, 2])\nc ~ Dirichlet([1, 1, 2, 3])\n", {},
                                {{"a", {0.3, 0.7}}, {"b", {0.25, 0.75}}, {"c", {0.1, 0.2, 0.3, 0.4}}});
  CHECK(std::isfinite(own));
  CHECK(blocks == doctest::Approx(own).epsilon(1e-12));
  // The errors, at their place.
  CHECK(error_of("x[1, 1:2] = [0.5, 0.5]\n", {}).find("a range on the left is for `~`") != std::string::npos);
  CHECK(error_of("x[1:2, 1] ~ Dirichlet([1, 1])\n", {}).find("must be the last index given") != std::string::npos);
  CHECK(error_of("n ~ Poisson(2)\nx[1, 1:n] ~ Dirichlet([1, 1])\n", {}).find("must be fixed by the data") != std::string::npos);
  CHECK(error_of("x[1, 1:3] ~ Dirichlet([1, 1])\n", {}).find("the value has 2 elements but its place in `x` has 3") !=
        std::string::npos);
  CHECK(error_of("data x: real[2, 2]\nx[1, 2:3] ~ Dirichlet([1, 1])\n", {"x=[[0.5, 0.5], [0.5, 0.5]]"})
            .find("the range 2:3 is not within 1..2 for `x`") != std::string::npos);
  CHECK(error_of("x[1, 1:2] ~ Dirichlet([1, 1])\nx[1, 2:3] ~ Dirichlet([1, 1])\n", {}).find("x[1, 2] is defined twice") !=
        std::string::npos);
}

}  // namespace test_vectorised
