// DiscreteUniform(lower, upper): the mass 1 / (upper - lower + 1) on each integer between.
#include "tests/stdlib/discrete_checks.hpp"

namespace test_discrete_uniform {

using namespace ppl::testing;

namespace {

mass_case at(double lower, double upper, double k, double expected) {
  return {{scalar(lower), scalar(upper)}, scalar(k), expected};
}

}  // namespace

TEST_CASE("DiscreteUniform: log masses, with and without constants") {
  check_log_masses(dist("DiscreteUniform"), {
                                                at(1, 6, 1, -std::log(6.0)), at(1, 6, 6, -std::log(6.0)),
                                                at(-3, 3, 0, -std::log(7.0)), at(5, 5, 5, 0),
                                                at(1, 6, 0, -INFINITY), at(1, 6, 7, -INFINITY), at(1, 6, 2.5, -INFINITY),
                                            });
}

TEST_CASE("DiscreteUniform: a plate's sum, and values outside the bounds") {
  const auto& d = dist("DiscreteUniform");
  const std::vector<double> inside = {1, 2, 6, 3}, outside = {1, 2, 7};
  const std::vector<tensor> params = {scalar(1), scalar(6)};
  const auto p = views(params);
  CHECK(d.log_density_sum(p, inside.data(), 4) == doctest::Approx(-4 * std::log(6.0)));
  CHECK(d.log_density_sum(p, outside.data(), 3) == -INFINITY);
}

TEST_CASE("DiscreteUniform: the support is lower..upper and moves with them") {
  const auto& d = dist("DiscreteUniform");
  const auto s = d.value_support(views({scalar(-2), scalar(4)}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == -2);
  CHECK(s.upper == 4);
  CHECK(d.support_moves());
  CHECK(d.params()[0].kind == ppl::stdlib::scalar_kind::integer);
  CHECK(d.params()[1].kind == ppl::stdlib::scalar_kind::integer);
  CHECK(d.value_kind() == ppl::stdlib::scalar_kind::integer);
  check_invalid(d, {
                       {{scalar(3), scalar(2)}, "DiscreteUniform: lower bound 3 is above upper bound 2"},
                       {{scalar(1.5), scalar(2)}, "DiscreteUniform: lower bound is 1.5; it must be an integer"},
                       {{scalar(0), scalar(1e300)}, "DiscreteUniform: upper bound is 1e+300; it must be an integer of at most 2^53"},
                       {{scalar(NAN), scalar(2)}, "DiscreteUniform: lower bound is nan"},
                   });
}

TEST_CASE("DiscreteUniform: draws are uniform") {
  const auto& d = dist("DiscreteUniform");
  check_draws_pmf(d, {scalar(1), scalar(6)}, [](long) { return 1.0 / 6; }, 1, 6);
  check_draws_pmf(d, {scalar(-40), scalar(59)}, [](long) { return 0.01; }, -40, 59);
  check_draws_constant(d, {scalar(5), scalar(5)}, 5);
  check_draws_reproducible(d, {scalar(1), scalar(100)});
  check_no_integer_gradients(d, {scalar(1), scalar(6)}, scalar(3));
}

}  // namespace test_discrete_uniform
