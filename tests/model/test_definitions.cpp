// What the graph decides with data: elements defined twice where the loops' bounds come
// from data, and observed counts above a Binomial's or Multinomial's n.
#include <doctest/doctest.h>

#include "tests/support/model_fixture.hpp"

namespace test_definitions {

using ppl::testing::error_of;

TEST_CASE("an element defined twice through bounds from data is found when the graph is built") {
  CHECK(error_of("data N: int\nfor i in 1:N { x[i] ~ Normal(0, 1) }\nfor i in 1:N { x[i] ~ Normal(0, 1) }\n", {"N=2"}) ==
        "test.ppl:3:16: error: x[1] is defined twice (when i = 1)");
  CHECK(error_of("data N: int\nfor i in 1:N { x[i] = 2 * i }\nfor i in 2:N { x[i] = i }\n", {"N=3"}) ==
        "test.ppl:3:16: error: x[2] is defined twice (when i = 2)");
  CHECK(error_of("data N: int\nfor i in 1:N { x[i] = 2 * i }\nfor i in 2:N { x[i] = i }\n", {"N=1"}).empty());
}

TEST_CASE("an observed count above n is an error when the data are bound, naming n") {
  const std::string binomial = "data y: int[N]\np ~ Beta(1, 1)\nfor i in 1:N { y[i] ~ Binomial(10, p) }\n";
  CHECK(error_of(binomial, {"y=[3,12,4]"}) == "test.ppl:3:16: error: y[2] = 12 is above n = 10 of Binomial (when i = 2)");
  CHECK(error_of(binomial, {"y=[3,10,0]"}).empty());
  CHECK(error_of("data y: int[N]\ndata n: int[N]\np ~ Beta(1, 1)\nfor i in 1:N { y[i] ~ Binomial(n[i], p) }\n",
                 {"y=[3,5]", "n=[4,4]"}) == "test.ppl:4:16: error: y[2] = 5 is above n = 4 of Binomial (when i = 2)");
  CHECK(error_of("data y: int[K]\ntheta ~ Dirichlet(rep(1.0, K))\ny ~ Multinomial(10, theta)\n", {"y=[3,4,5]"}) ==
        "test.ppl:3:1: error: y = [3, 4, 5] sums to 12, not n = 10 of Multinomial");
  // Where n itself is unknown, the support moves: the values are checked at each chain's start.
  CHECK(error_of("data y: int[N]\nn ~ Poisson(20)\nfor i in 1:N { y[i] ~ Binomial(n, 0.5) }\n", {"y=[3,12,4]"}).empty());
}

}  // namespace test_definitions
