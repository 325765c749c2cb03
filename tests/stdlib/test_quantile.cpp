// Inverse distribution functions (distribution::quantile): the closed forms (Exponential,
// Weibull) and the default bisection, against the distribution functions far into both
// tails and against Boost.Math's quantiles; and a censored or truncated distribution's draws
// by inversion, within intervals that rejection from the unrestricted distribution cannot
// reach (each draw's probability integral transform uniform: mean within 4 MC errors).
#include <boost/math/distributions.hpp>
#include <cmath>

#include "stdlib/restricted.hpp"
#include "tests/stdlib/distribution_checks.hpp"

namespace test_quantile {

using namespace ppl::testing;
namespace stdlib = ppl::stdlib;
namespace bm = boost::math;

namespace {

struct quantile_row {
  const char* name;
  std::vector<tensor> params;
  std::vector<double> xs;
};

std::unique_ptr<stdlib::distribution> restrict(const char* name, bool truncated, bool lower, bool upper) {
  std::string why;
  auto d = stdlib::make_restricted(dist(name), truncated, lower, upper, why);
  REQUIRE(d);
  return d;
}

// n draws of `d`, each mapped by `pit` to (0, 1); their mean and the share below 1/4
// within 4 MC errors of a uniform's.
template <class F>
void check_uniform(const stdlib::distribution& d, const std::vector<tensor>& params, double lower, double upper, F pit) {
  ppl::rng rng(11);
  const int n = 4000;
  double sum = 0, below = 0;
  for (int i = 0; i < n; ++i) {
    double x = 0;
    d.draw(views(params), rng, &x);
    REQUIRE(x >= lower);
    REQUIRE(x <= upper);
    const double u = pit(x);
    sum += u;
    below += u < 0.25;
  }
  CHECK(std::fabs(sum / n - 0.5) < 4 * std::sqrt(1.0 / 12 / n));
  CHECK(std::fabs(below / n - 0.25) < 4 * std::sqrt(0.25 * 0.75 / n));
}

}  // namespace

TEST_CASE("quantiles invert the distribution function in the tail where it is small") {
  const std::vector<quantile_row> rows = {
      {"Normal", {scalar(1), scalar(2)}, {-60, -3, 0, 1, 4, 60}},
      {"Exponential", {scalar(3)}, {1e-300, 1e-9, 0.1, 2, 1000}},
      {"Weibull", {scalar(1.5), scalar(2)}, {1e-200, 0.5, 2, 9, 80}},
      {"Weibull", {scalar(5), scalar(1)}, {1e-50, 0.3, 40}},  // log P(X > 40) = -40^5
      {"Gamma", {scalar(2.5), scalar(1.5)}, {1e-6, 0.5, 2, 40, 400}},
      {"StudentT", {scalar(3), scalar(0), scalar(1)}, {-1e4, -2, 0.5, 3, 1e5}},
      {"Beta", {scalar(2), scalar(3)}, {1e-6, 0.3, 0.9, 1 - 1e-9}},
  };
  for (const auto& r : rows) {
    const auto& d = dist(r.name);
    const auto p = views(r.params);
    for (double x : r.xs) {
      INFO(r.name, " at ", x);
      const double lower = d.log_cdf(p, x), upper = d.log_ccdf(p, x);
      if (lower < std::log(0.5)) CHECK(d.quantile(p, lower, false) == doctest::Approx(x).epsilon(1e-9));
      if (upper < std::log(0.5)) CHECK(d.quantile(p, upper, true) == doctest::Approx(x).epsilon(1e-9));
    }
  }
  // Against Boost.Math's quantiles.
  for (double q : {1e-10, 0.025, 0.5, 0.975}) {
    INFO("q = ", q);
    CHECK(dist("Normal").quantile(views({scalar(1), scalar(2)}), std::log(q), false) ==
          doctest::Approx(bm::quantile(bm::normal_distribution<>(1, 2), q)).epsilon(1e-10));
    CHECK(dist("Gamma").quantile(views({scalar(2.5), scalar(1.5)}), std::log(q), true) ==
          doctest::Approx(bm::quantile(bm::complement(bm::gamma_distribution<>(2.5, 1 / 1.5), q))).epsilon(1e-10));
    CHECK(dist("Weibull").quantile(views({scalar(1.5), scalar(2)}), std::log(q), false) ==
          doctest::Approx(bm::quantile(bm::weibull_distribution<>(1.5, 2), q)).epsilon(1e-12));
  }
}

TEST_CASE("quantiles of discrete distributions are the least count whose distribution function reaches p") {
  const std::vector<tensor> params = {scalar(3.5)};
  const auto p = views(params);
  const bm::poisson_distribution<> b(3.5);
  for (double q : {1e-6, 0.01, 0.3, 0.5, 0.9, 0.999}) {
    double k = 0;
    while (bm::cdf(b, k) < q) ++k;
    INFO("q = ", q);
    CHECK(dist("Poisson").quantile(p, std::log(q), false) == k);
    CHECK(dist("Poisson").quantile(p, std::log1p(-q), true) == k);
  }
}

TEST_CASE("censored and truncated draws by inversion, where rejection cannot reach") {
  // Weibull(5, 1) C[40, ]: P(X > 40) = exp(-40^5), far below the least double; given
  // X > 40, exp(-(x^5 - 40^5)) is uniform.
  const auto w = restrict("Weibull", false, true, false);
  check_uniform(*w, {scalar(5), scalar(1), scalar(40)}, 40, INFINITY,
                [](double x) { return std::exp(-std::pow(40.0, 5) * std::expm1(5 * std::log1p((x - 40) / 40))); });
  // Its typical value, where a start begins: the interval's median.
  double typical = 0;
  REQUIRE(w->typical(views({scalar(5), scalar(1), scalar(40)}), &typical));
  CHECK(std::exp(-std::pow(40.0, 5) * std::expm1(5 * std::log1p((typical - 40) / 40))) == doctest::Approx(0.5).epsilon(1e-6));
  // Normal(0, 1) T[, -30]: in the lower tail, F(x) / F(-30).
  const auto n = restrict("Normal", true, false, true);
  check_uniform(*n, {scalar(0), scalar(1), scalar(-30)}, -INFINITY, -30,
                [](double x) { return std::erfc(-x / std::sqrt(2.0)) / std::erfc(30 / std::sqrt(2.0)); });
  // Gamma(2, 1) C[50, 60] (the default quantile, by bisection): (S(50) - S(x)) / (S(50) - S(60)).
  const auto g = restrict("Gamma", false, true, true);
  const auto s = [](double x) { return boost::math::gamma_q(2.0, x); };
  check_uniform(*g, {scalar(2), scalar(1), scalar(50), scalar(60)}, 50, 60, [&](double x) { return (s(50) - s(x)) / (s(50) - s(60)); });
  // Normal(0, 1) C[-1, 1], across the median.
  check_uniform(*restrict("Normal", false, true, true), {scalar(0), scalar(1), scalar(-1), scalar(1)}, -1, 1,
                [](double x) { return (std::erf(x / std::sqrt(2.0)) + std::erf(1 / std::sqrt(2.0))) / (2 * std::erf(1 / std::sqrt(2.0))); });
}

TEST_CASE("a truncated count is drawn by inversion with the interval's probabilities") {
  // Poisson(3) T[12, 14]: P(X >= 12) is 1e-4; each count's share against the exact one.
  const auto d = restrict("Poisson", true, true, true);
  const std::vector<tensor> params = {scalar(3), scalar(12), scalar(14)};
  const bm::poisson_distribution<> b(3);
  const double mass = bm::pdf(b, 12) + bm::pdf(b, 13) + bm::pdf(b, 14);
  ppl::rng rng(12);
  const int n = 6000;
  std::array<double, 3> count{};
  for (int i = 0; i < n; ++i) {
    double x = 0;
    d->draw(views(params), rng, &x);
    REQUIRE(x >= 12);
    REQUIRE(x <= 14);
    count[static_cast<std::size_t>(x - 12)] += 1;
  }
  for (int k = 12; k <= 14; ++k) {
    const double share = bm::pdf(b, k) / mass;
    CHECK(std::fabs(count[static_cast<std::size_t>(k - 12)] / n - share) < 4 * std::sqrt(share * (1 - share) / n));
  }
}

TEST_CASE("a restricted draw without a distribution function falls back to rejection, and says so when it fails") {
  const auto d = restrict("SkewNormal", false, true, false);
  ppl::rng rng(13);
  double x = 0;
  CHECK_THROWS_WITH(d->draw(views({scalar(0), scalar(1), scalar(0), scalar(40)}), rng, &x),
                    doctest::Contains("SkewNormal has no distribution function to draw within it directly"));
}

}  // namespace test_quantile
