// Observed sums of unknowns (y ~ Sum(...), JAGS's dsum) and the `sum_move` sampler, against
// posteriors known in closed form: the means within 4 Monte Carlo standard errors and the
// sds within 4 standard errors of an sd estimate (inference_fixture.hpp), fixed seeds.
#include <cmath>

#include "inference/monte_carlo.hpp"
#include "tests/samplers/inference_fixture.hpp"

namespace test_sum_move {

using namespace ppl;

TEST_CASE("sum_move: three Gamma(2, 1) summands of an observed total 6 are 6 Dirichlet(2, 2, 2)") {
  // Each x[k] / 6 is Beta(2, 4): mean 2, sd 6 sqrt(8 / (36 * 7)).
  const auto p = testing::infer("data y: real\nfor k in 1:3 { x[k] ~ Gamma(2, 1) }\ny ~ Sum(x)\n", {"y=6"}, testing::two_chains(500, 4000, 3));
  CHECK(p.kind("x") == "sum_move");
  for (const char* name : {"x[1]", "x[3]"}) {
    testing::check_mean(p, name, 2);
    testing::check_sd(p, name, 6 * std::sqrt(8.0 / (36 * 7)));
  }
}

TEST_CASE("sum_move: counts with an observed total, one summand data") {
  // a ~ Poisson(2), b ~ Poisson(3), a + b + 4 = 11: a ~ Binomial(7, 2/5).
  const auto p = testing::infer("data y: int\na ~ Poisson(2)\nb ~ Poisson(3)\ny ~ Sum([a, b, 4])\n", {"y=11"}, testing::two_chains(500, 4000, 4));
  CHECK(p.kind("a") == "sum_move");
  testing::check_mean(p, "a", 2.8);
  testing::check_sd(p, "a", std::sqrt(1.68));
  const auto a = p.column("a"), b = p.column("b");
  for (std::size_t c = 0; c < a.size(); ++c)
    for (std::size_t i = 0; i < a[c].size(); ++i) CHECK(a[c][i] + b[c][i] == 7);
}

TEST_CASE("an observed Sum refuses a computed summand, a summand in two sums, and the weighted methods") {
  CHECK_THROWS_WITH(testing::infer("data y: int\na ~ Poisson(2)\nb ~ Poisson(3)\ny ~ Sum([a + 1, b])\n", {"y=7"}, testing::two_chains(10, 10, 1)),
                    doctest::Contains("must be an unknown itself"));
  CHECK_THROWS_WITH(testing::infer("data y: int[2]\na ~ Poisson(2)\nb ~ Poisson(3)\nc ~ Poisson(1)\ny[1] ~ Sum([a, b])\ny[2] ~ Sum([b, c])\n",
                                   {"y=[7,4]"}, testing::two_chains(10, 10, 1)),
                    doctest::Contains("is a summand of this Sum and of the one on line 5"));
  const auto m = lang::compile({"test.ppl", "data y: int\na ~ Poisson(2)\nb ~ Poisson(3)\ny ~ Sum([a, b])\n"}, stdlib::library());
  data::data_table data;
  data::apply_set(data, "y=7");
  CHECK_THROWS_WITH(inference::importance_sample(m, data, {}), doctest::Contains("no draw from the prior meets"));
}

}  // namespace test_sum_move
