// User functions (lang/functions.cpp): `function f(x, y) = expression`, each call written
// out with the arguments in the parameters' places, gives the values, log density and
// gradient of the same model written out by hand; errors at their place.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/gradient_check.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_functions {

using ppl::testing::error_of;
using ppl::testing::fixture;

TEST_CASE("user functions: values, arrays, functions of functions, a call above its definition") {
  fixture f("function sq(x) = x .* x\n"
            "function shifted(x, by) = sq(x) + by\n"
            "v = shifted(3, 1)\n"
            "w = sq([1, 2, 3])\n"
            "u = later(2)\n"
            "function later(x) = x + 0.5\n");
  CHECK(f.value("v").data.at(0) == 10);
  CHECK(f.value("w").data == std::vector<double>{1, 4, 9});
  CHECK(f.value("u").data.at(0) == 2.5);
}

TEST_CASE("user functions: the log density and gradient of the model written out by hand") {
  const std::string data = "data t: real[4] = [118, 484, 1004, 1582]\ndata y: real[4] = [30, 58, 115, 145]\n";
  const std::string priors = "a ~ Normal(150, 50)\nb ~ Normal(700, 200)\nc ~ LogNormal(6, 0.5)\ns ~ HalfNormal(20)\n";
  fixture with(data + "function logistic(x, top, mid, scale) = top / (1 + exp(-(x - mid) / scale))\n" + priors +
               "for i in 1:4 { y[i] ~ Normal(logistic(t[i], a, b, c), s) }\n");
  fixture by_hand(data + priors + "for i in 1:4 { y[i] ~ Normal(a / (1 + exp(-(t[i] - b) / c)), s) }\n");
  for (const auto& [name, x] : std::vector<std::pair<std::string, double>>{{"a", 160}, {"b", 650}, {"c", 380}, {"s", 9}}) {
    with.mutable_value(name).data[0] = x;
    by_hand.mutable_value(name).data[0] = x;
  }
  with.graph->update_derived();
  by_hand.graph->update_derived();
  CHECK(with.graph->log_density() == by_hand.graph->log_density());
  fixture f(data + "function logistic(x, top, mid, scale) = top / (1 + exp(-(x - mid) / scale))\n" +
            "a ~ Normal(0, 1)\nb ~ Normal(0, 1)\nc ~ LogNormal(0, 1)\ns ~ HalfNormal(1)\n" +
            "for i in 1:4 { factor normal_lpdf(y[i] / 100 | logistic(t[i] / 1000, a, b, c), s) }\n");
  ppl::testing::check_model_gradient(f, {"a", "b", "c", "s"}, 0.8);
}

TEST_CASE("user functions: errors") {
  CHECK(error_of("function f(x) = x * k\nv = f(1)\n") ==
        "test.ppl:1:21: error: the function `f` reads `k`, which is not one of its parameters (x): a function sees only its "
        "arguments; pass `k` as one");
  CHECK(error_of("function f(x, y) = x + y\nv = f(1, 2, 3)\n") == "test.ppl:2:5: error: `f` takes 2 arguments (x, y), not 3");
  CHECK(error_of("function f(x) = f(x)\nv = f(1)\n") ==
        "test.ppl:1:17: error: `f` calls `f`, itself: a function calls only the functions defined above it, so none is recursive");
  CHECK(error_of("function f(x) = x\nfunction f(y) = y\n") == "test.ppl:2:10: error: the function `f` is defined twice");
  CHECK(error_of("function Normal(x) = x\n") == "test.ppl:1:10: error: `Normal` is a built-in distribution; give the function another name");
}

}  // namespace test_functions
