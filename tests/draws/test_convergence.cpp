// Convergence diagnostics (Vehtari et al. 2021) on series whose answers are known.
#include <doctest/doctest.h>

#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "draws/diagnostics.hpp"
#include "core/random.hpp"

namespace test_convergence {

using ppl::draws::summarize;

namespace {

std::vector<std::vector<double>> ar1(int chains, int n, double phi, unsigned seed, double shift_last = 0, double scale_last = 1) {
  ppl::rng rng(seed);
  boost::random::normal_distribution<double> normal;
  std::vector<std::vector<double>> out(static_cast<std::size_t>(chains));
  for (int c = 0; c < chains; ++c) {
    double x = normal(rng) / std::sqrt(1 - phi * phi);
    for (int i = 0; i < n; ++i) {
      x = phi * x + normal(rng);
      bool last = c == chains - 1;
      out[static_cast<std::size_t>(c)].push_back(last ? shift_last + scale_last * x : x);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("diagnostics: independent draws") {
  auto s = summarize(ar1(4, 1000, 0.0, 1));
  // For iid draws R-hat - 1 is O(1/n) and ESS is near 4000 (its sampling sd is a few
  // percent); these bounds are many standard deviations wide.
  CHECK(s.rhat < 1.01);
  CHECK(s.ess_bulk > 3000);
  CHECK(s.ess_bulk < 5000);
  CHECK(std::fabs(s.mean) < 0.1);  // sd of the mean is 1/sqrt(4000) = 0.016
  CHECK(std::fabs(s.q50) < 0.1);
}

TEST_CASE("diagnostics: autocorrelation time of an AR(1) series") {
  // tau = (1 + phi) / (1 - phi) = 19 for phi = 0.9.
  auto chain = ar1(1, 200000, 0.9, 2)[0];
  CHECK(ppl::draws::autocorrelation_time(chain) == doctest::Approx(19).epsilon(0.15));
}

TEST_CASE("diagnostics: a chain stuck elsewhere, or with another scale, is caught") {
  CHECK(summarize(ar1(4, 1000, 0.0, 3, 3.0)).rhat > 1.1);
  // Same location, different spread: plain split R-hat misses it, the folded one does not.
  auto spread = ar1(4, 1000, 0.0, 4, 0.0, 3.0);
  CHECK(ppl::draws::split_rhat(spread) < 1.05);
  CHECK(summarize(spread).rhat > 1.05);
}

TEST_CASE("diagnostics: constant and non-finite draws give NaN, never hang") {
  std::vector<std::vector<double>> constant(2, std::vector<double>(10, 1.5));
  auto s = summarize(constant);
  CHECK(s.mean == 1.5);
  CHECK(std::isnan(s.rhat));
  std::vector<std::vector<double>> bad(2, std::vector<double>(10, 1.0));
  bad[1][3] = NAN;
  bad[0][2] = INFINITY;
  CHECK(std::isnan(summarize(bad).rhat));
}

TEST_CASE("diagnostics: quantiles interpolate as R's type 7") {
  std::vector<std::vector<double>> d = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
  auto s = summarize(d);
  CHECK(s.mean == 5.5);
  CHECK(s.q50 == 5.5);
  CHECK(s.q5 == doctest::Approx(1.45));
  CHECK(s.q95 == doctest::Approx(9.55));
}

}  // namespace test_convergence
