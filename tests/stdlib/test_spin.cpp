// Spin(): uniform on {-1, +1}.
#include <numbers>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_spin {

using namespace ppl::testing;

TEST_CASE("Spin: log masses, with and without constants") {
  const double half = -std::numbers::ln2;
  check_log_masses(dist("Spin"), {
                                     {{}, scalar(1), half, half},
                                     {{}, scalar(-1), half, half},
                                     {{}, scalar(0), -INFINITY},
                                     {{}, scalar(2), -INFINITY},
                                     {{}, scalar(0.5), -INFINITY},
                                 });
}

TEST_CASE("Spin: no parameters, support {-1, +1}") {
  const auto& d = dist("Spin");
  CHECK(d.params().empty());
  CHECK_NOTHROW(d.check({}));
  CHECK(d.value_support({}).kind == ppl::stdlib::support_kind::spin);
  CHECK(d.in_support({}, scalar(-1).as_view()));
  CHECK(d.in_support({}, scalar(1).as_view()));
  CHECK_FALSE(d.in_support({}, scalar(0).as_view()));
}

TEST_CASE("Spin: draws are fair") {
  const auto& d = dist("Spin");
  check_draws_pmf(d, {}, [](long k) { return k == -1 || k == 1 ? 0.5 : 0.0; }, -1, 1);
  check_draws_reproducible(d, {});
  check_no_integer_gradients(d, {}, scalar(1));
}

}  // namespace test_spin
