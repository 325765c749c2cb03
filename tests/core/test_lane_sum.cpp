// sum_in_lanes: every element counted once, whatever the remainder after the rounds of four.
#include <doctest/doctest.h>

#include <vector>

#include "core/lane_sum.hpp"

namespace test_lane_sum {

TEST_CASE("a sum in four lanes counts every element once, for every length") {
  // Integers (exact in any order), so the sum must equal n (n + 1) / 2 exactly.
  for (ppl::index_t n = 0; n <= 13; ++n) {
    std::vector<double> d(static_cast<std::size_t>(n));
    for (ppl::index_t k = 0; k < n; ++k) d[static_cast<std::size_t>(k)] = static_cast<double>(k + 1);
    CHECK(ppl::sum_in_lanes(d.data(), n) == static_cast<double>(n * (n + 1) / 2));
  }
  // Within rounding of the sequential sum for values of mixed sizes.
  std::vector<double> d;
  double sequential = 0;
  for (int k = 0; k < 1001; ++k) {
    d.push_back(1.0 / (k + 1) * (k % 3 == 0 ? -1 : 1));
    sequential += d.back();
  }
  CHECK(ppl::sum_in_lanes(d.data(), static_cast<ppl::index_t>(d.size())) == doctest::Approx(sequential).epsilon(1e-14));
}

}  // namespace test_lane_sum
