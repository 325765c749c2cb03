// Categorical(p): values 1..K with probabilities p; masses are hand-computed (p_k itself).
#include "tests/stdlib/discrete_checks.hpp"

namespace test_categorical {

using namespace ppl::testing;

TEST_CASE("Categorical: log masses, with and without constants") {
  const auto p = vec({0.1, 0.6, 0.3});
  const auto edge = vec({0.0, 1.0});
  check_log_masses(dist("Categorical"), {
                                            {{p}, scalar(1), std::log(0.1)},
                                            {{p}, scalar(2), std::log(0.6)},
                                            {{p}, scalar(3), std::log(0.3)},
                                            {{edge}, scalar(1), -INFINITY},
                                            {{edge}, scalar(2), 0.0},
                                            {{vec({1.0})}, scalar(1), 0.0},
                                            // 1-based: 0 and K + 1 are outside
                                            {{p}, scalar(0), -INFINITY},
                                            {{p}, scalar(4), -INFINITY},
                                            {{p}, scalar(1.5), -INFINITY},
                                            {{p}, scalar(NAN), -INFINITY},
                                        });
}

TEST_CASE("Categorical: support and invalid parameters") {
  const auto& d = dist("Categorical");
  const auto p = vec({0.1, 0.6, 0.3});
  const auto s = d.value_support(views({p}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 1);
  CHECK(s.upper == 3);
  CHECK(d.params()[0].rank == 1);
  CHECK(d.in_support(views({p}), scalar(3).as_view()));
  CHECK_FALSE(d.in_support(views({p}), scalar(4).as_view()));
  CHECK_NOTHROW(d.check(views({vec({0.5, 0.5 + 1e-10})})));  // within the 1e-8 tolerance
  CHECK_THROWS_WITH_AS(d.check(views({vec({0.5, 0.4})})), "Categorical: p does not sum to 1 (sum 0.9)",
                       ppl::stdlib::parameter_error);
  check_invalid(d, {
                       {{vec({1.5, -0.5})}, "Categorical: p has an entry -0.5; entries must be non-negative"},
                       {{vec({0.5, NAN})}, "Categorical: p has an entry nan"},
                       {{vec({0.5, 0.5 + 1e-6})}, "Categorical: p does not sum to 1"},
                       {{vec({})}, "Categorical: p is empty"},
                   });
}

TEST_CASE("Categorical: draws follow p, never a category of probability 0") {
  const auto& d = dist("Categorical");
  const std::vector<std::vector<double>> cases = {
      {0.1, 0.6, 0.3}, {0.25, 0.0, 0.5, 0.25}, std::vector<double>(10, 0.1), {0.999, 0.001}, {0.0, 0.0, 1.0}};
  for (const auto& p : cases) {
    INFO("K = ", p.size(), ", p[0] = ", p[0]);
    const auto pmf = [&](long k) { return p[static_cast<std::size_t>(k - 1)]; };
    check_draws_pmf(d, {vec(p)}, pmf, 1, static_cast<long>(p.size()));
  }
  check_draws_constant(d, {vec({0.0, 0.0, 1.0})}, 3);
  check_draws_constant(d, {vec({0.0, 1.0, 0.0})}, 2);
  check_draws_reproducible(d, {vec({0.2, 0.3, 0.5})});
}

TEST_CASE("Categorical: gradient in p matches finite differences") {
  const auto& d = dist("Categorical");
  for (double k : {1.0, 2.0, 3.0}) check_gradients(d, {vec({0.1, 0.6, 0.3})}, scalar(k), false);
  check_no_integer_gradients(d, {vec({0.1, 0.6, 0.3})}, scalar(2));
}

}  // namespace test_categorical
