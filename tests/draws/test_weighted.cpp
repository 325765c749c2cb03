// The weighted summary (draws/weighted.cpp) against figures worked by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "draws/weighted.hpp"

namespace test_weighted {

using namespace ppl;

TEST_CASE("weighted mean, sd, quantiles and Kish's ESS") {
  // Weights 1, 1, 2 (normalised 1/4, 1/4, 1/2) on 1, 2, 4: mean 11/4, variance
  // (1/4)(7/4)^2 + (1/4)(3/4)^2 + (1/2)(5/4)^2 = 1.6875; ESS 16/6.
  const auto s = draws::weighted_summary({1, 2, 4}, {1, 1, 2});
  CHECK(s.mean == doctest::Approx(2.75));
  CHECK(s.sd == doctest::Approx(std::sqrt(1.6875)));
  CHECK(s.q5 == 1);
  CHECK(s.q50 == 2);  // the cumulative weight reaches 1/2 at 2
  CHECK(s.q95 == 4);
  CHECK(s.ess_bulk == doctest::Approx(16.0 / 6));
  CHECK(s.ess_tail == s.ess_bulk);
  CHECK(s.mcse_mean == doctest::Approx(std::sqrt(1.6875 / (16.0 / 6))));
  CHECK(std::isnan(s.rhat));
}

TEST_CASE("equal weights give the plain mean; weight 0 leaves a draw out, even a non-finite one") {
  const auto s = draws::weighted_summary({3, 5, 7, 9}, {0.25, 0.25, 0.25, 0.25});
  CHECK(s.mean == doctest::Approx(6));
  CHECK(s.ess_bulk == doctest::Approx(4));
  const auto t = draws::weighted_summary({3, -INFINITY, 7}, {1, 0, 1});
  CHECK(t.mean == doctest::Approx(5));
  CHECK(t.q5 == 3);
  CHECK(std::isnan(draws::weighted_summary({3, NAN}, {1, 1}).mean));
  CHECK(std::isnan(draws::weighted_summary({3, 4}, {0, 0}).mean));
  CHECK(std::isnan(draws::kish_ess({0, 0})));
}

}  // namespace test_weighted
