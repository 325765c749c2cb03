// Sum(x): the point mass at the sum of x (JAGS's dsum), within a relative 1e-9.
#include <cmath>

#include "tests/stdlib/distribution_checks.hpp"

namespace test_sum {

using namespace ppl::testing;

TEST_CASE("Sum: a point mass at the sum of its vector, to a relative 1e-9") {
  const auto& d = dist("Sum");
  check_real_signature(d, {{"x", 1}}, 0);
  const std::vector<ppl::tensor> x = {vec({1.5, 2, -0.25})};
  CHECK(log_density(d, x, scalar(3.25)) == 0);
  CHECK(log_density(d, x, scalar(3.25 + 1e-12)) == 0);  // floating point's wobble keeps it
  CHECK(log_density(d, x, scalar(3.26)) == -INFINITY);
  const std::vector<ppl::tensor> large = {vec({1e12, 1})};
  CHECK(log_density(d, large, scalar(1e12 + 1)) == 0);
  CHECK(log_density(d, large, scalar(1e12 + 1e4)) == -INFINITY);
  double draw = 0, typical = 0;
  ppl::rng rng(1);
  d.draw(views(x), rng, &draw);
  CHECK(draw == 3.25);
  CHECK(d.typical(views(x), &typical));
  CHECK(typical == 3.25);
  check_invalid(d, {{{vec({1, NAN})}, "summand"}, {{vec({INFINITY, 1})}, "summand"}});
}

}  // namespace test_sum
