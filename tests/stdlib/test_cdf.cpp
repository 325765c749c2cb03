// Distribution functions (log_cdf, log_ccdf) of the continuous distributions against
// Boost.Math's cdf and cdf(complement(...)), far tails included; tolerances in
// cdf_checks.hpp.
#include <boost/math/distributions.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <numbers>

#include "tests/stdlib/cdf_checks.hpp"

namespace test_cdf {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

template <class B>
cdf_reference boost_reference(const B& b) {
  return {[b](double x) { return bm::cdf(b, x); }, [b](double x) { return bm::cdf(bm::complement(b, x)); }};
}

// Values outside the support, for distributions on a half-line or an interval: Boost
// refuses them as arguments.
template <class B>
cdf_reference clamped_reference(const B& b, double lower, double upper) {
  return {[b, lower, upper](double x) { return x <= lower ? 0.0 : x >= upper ? 1.0 : bm::cdf(b, x); },
          [b, lower, upper](double x) { return x <= lower ? 1.0 : x >= upper ? 0.0 : bm::cdf(bm::complement(b, x)); }};
}

}  // namespace

TEST_CASE("log cdf and log ccdf of the location-scale distributions") {
  check_cdf_values(dist("Normal"), {1, 2}, boost_reference(bm::normal_distribution<>(1, 2)),
                   {-70, -59, -20, -3, 0.5, 1, 1.3, 4, 21, 50, 70});
  // Boost's Student's t is the implementation's own; this holds the wiring and location-scale.
  check_cdf_values(dist("StudentT"), {3.5, -1, 0.5},
                   {[](double x) { return bm::cdf(bm::students_t_distribution<>(3.5), (x + 1) / 0.5); },
                    [](double x) { return bm::cdf(bm::complement(bm::students_t_distribution<>(3.5), (x + 1) / 0.5)); }},
                   {-1e8, -300, -4, -1, -0.9, 2, 60, 1e9});
  check_cdf_values(dist("Cauchy"), {2, 3}, boost_reference(bm::cauchy_distribution<>(2, 3)), {-1e12, -1e4, -3, 1.9, 2, 2.1, 50, 1e15});
  check_cdf_values(dist("Logistic"), {-1, 0.7}, boost_reference(bm::logistic_distribution<>(-1, 0.7)),
                   {-400, -30, -2, -1, 0, 3, 30, 400});
  check_cdf_values(dist("DoubleExponential"), {0.5, 1.5}, boost_reference(bm::laplace_distribution<>(0.5, 1.5)),
                   {-900, -40, -1, 0.4999, 0.5, 0.6, 40, 900});
  check_cdf_values(dist("Gumbel"), {1, 2}, boost_reference(bm::extreme_value_distribution<>(1, 2)),
                   {-9, -5, -1, 0, 1, 4, 30, 80, 1300});
}

TEST_CASE("log cdf and log ccdf of the distributions on a half-line") {
  const double inf = INFINITY;
  check_cdf_values(dist("LogNormal"), {0.3, 0.8}, clamped_reference(bm::lognormal_distribution<>(0.3, 0.8), 0, inf),
                   {-1, 0, 1e-20, 1e-3, 0.5, 1.35, 3, 1e5, 1e20});
  check_cdf_values(dist("Exponential"), {2.5}, clamped_reference(bm::exponential_distribution<>(2.5), 0, inf),
                   {-1, 0, 1e-300, 1e-12, 0.1, 1, 20, 250});
  check_cdf_values(dist("Gamma"), {2.5, 3}, clamped_reference(bm::gamma_distribution<>(2.5, 1.0 / 3), 0, inf),
                   {-1, 0, 1e-100, 1e-5, 0.3, 0.8, 5, 100, 200});
  check_cdf_values(dist("Gamma"), {0.05, 0.2}, clamped_reference(bm::gamma_distribution<>(0.05, 5), 0, inf),
                   {1e-200, 1e-10, 0.01, 1, 30, 500});
  check_cdf_values(dist("Gamma"), {400, 2}, clamped_reference(bm::gamma_distribution<>(400, 0.5), 0, inf), {100, 180, 200, 230, 400});
  check_cdf_values(dist("InverseGamma"), {3, 2}, clamped_reference(bm::inverse_gamma_distribution<>(3, 2), 0, inf),
                   {-1, 0, 0.005, 0.1, 0.7, 1, 5, 1e4, 1e50});
  check_cdf_values(dist("Weibull"), {1.5, 2}, clamped_reference(bm::weibull_distribution<>(1.5, 2), 0, inf),
                   {-1, 0, 1e-100, 1e-8, 0.5, 1.7, 3, 20, 100});
  check_cdf_values(dist("Pareto"), {1.5, 2.5}, clamped_reference(bm::pareto_distribution<>(1.5, 2.5), 1.5, inf),
                   {0, 1.5, 1.5 + 1e-13, 1.6, 3, 1e10, 1e100});
  check_cdf_values(dist("ChiSquare"), {4}, clamped_reference(bm::chi_squared_distribution<>(4), 0, inf),
                   {-1, 0, 1e-150, 1e-3, 1, 3.36, 12, 300, 1300});
  check_cdf_values(dist("HalfNormal"), {2},
                   {[](double x) { return x <= 0 ? 0.0 : bm::erf(x / 2 / std::numbers::sqrt2); },
                    [](double x) { return x <= 0 ? 1.0 : bm::erfc(x / 2 / std::numbers::sqrt2); }},
                   {-1, 0, 1e-200, 1e-8, 0.5, 1.9, 2.1, 10, 70});
  check_cdf_values(dist("InverseChiSquare"), {5}, clamped_reference(bm::inverse_chi_squared_distribution<>(5), 0, inf),
                   {-1, 0, 0.002, 0.05, 0.3, 2, 1e3, 1e60});
  // Boost's scale is s^2: InverseGamma(nu / 2, nu s^2 / 2).
  check_cdf_values(dist("ScaledInverseChiSquare"), {4, 1.5},
                   clamped_reference(bm::inverse_chi_squared_distribution<>(4, 2.25), 0, inf), {-1, 0, 0.01, 0.5, 2, 30, 1e70});
  // 2 F_t(z) - 1 and 2 (1 - F_t(z)), where the first keeps its digits (z not small).
  check_cdf_values(dist("HalfStudentT"), {3, 2},
                   {[](double x) { return x <= 0 ? 0.0 : 2 * bm::cdf(bm::students_t_distribution<>(3), x / 2) - 1; },
                    [](double x) { return x <= 0 ? 1.0 : 2 * bm::cdf(bm::complement(bm::students_t_distribution<>(3), x / 2)); }},
                   {-1, 0, 1.5, 2, 5, 1e4, 1e90}, 1e-9);
  // 2 atan(z) / pi and its complement 2 atan(1 / z) / pi, by definition.
  check_cdf_values(dist("HalfCauchy"), {3},
                   {[](double x) { return x <= 0 ? 0.0 : 2 * std::atan(x / 3) / std::numbers::pi; },
                    [](double x) { return x <= 0 ? 1.0 : 2 * std::atan(3 / x) / std::numbers::pi; }},
                   {-1, 0, 1e-100, 0.01, 2, 3, 4, 1e6, 1e200});
}

TEST_CASE("log cdf and log ccdf of the distributions on an interval") {
  check_cdf_values(dist("Beta"), {2, 3}, clamped_reference(bm::beta_distribution<>(2, 3), 0, 1),
                   {-0.5, 0, 1e-150, 1e-6, 0.3, 0.5, 0.9, 1 - 1e-9, 1, 2});
  check_cdf_values(dist("Beta"), {0.3, 40}, clamped_reference(bm::beta_distribution<>(0.3, 40), 0, 1),
                   {1e-250, 1e-5, 0.01, 0.2, 0.6});
  check_cdf_values(dist("Uniform"), {-1, 3}, clamped_reference(bm::uniform_distribution<>(-1, 3), -1, 3),
                   {-5, -1, -1 + 1e-12, 0, 2.5, 3 - 1e-12, 3, 4});
}

TEST_CASE("log cdf and log ccdf at infinite and missing values") {
  const auto& d = dist("Normal");
  const std::vector<tensor> ps = {scalar(0), scalar(1)};
  CHECK(d.log_cdf(views(ps), INFINITY) == 0);
  CHECK(d.log_ccdf(views(ps), INFINITY) == -INFINITY);
  CHECK(d.log_cdf(views(ps), -INFINITY) == -INFINITY);
  CHECK(d.log_ccdf(views(ps), -INFINITY) == 0);
  CHECK(std::isnan(d.log_cdf(views(ps), NAN)));
  // Without a distribution function: NaN, and has_cdf() says so.
  const auto& v = dist("VonMises");
  CHECK(!v.has_cdf());
  CHECK(std::isnan(v.log_cdf(views(ps), 0.5)));
  CHECK(!v.cdf_differentiable(0));
}

TEST_CASE("gradients of log cdf and log ccdf match finite differences") {
  for (double x : {-3.0, 0.2, 2.5}) {
    check_cdf_gradients(dist("Normal"), {0.3, 1.2}, x);
    check_cdf_gradients(dist("Cauchy"), {0.3, 1.2}, x);
    check_cdf_gradients(dist("Logistic"), {0.3, 1.2}, x);
    check_cdf_gradients(dist("DoubleExponential"), {0.3, 1.2}, x);
    check_cdf_gradients(dist("Gumbel"), {0.3, 1.2}, x);
    check_cdf_gradients(dist("StudentT"), {4.5, 0.3, 1.2}, x, 1e-4);
  }
  check_cdf_gradients(dist("Normal"), {0, 1}, -30);
  check_cdf_gradients(dist("Normal"), {0, 1}, 30);
  for (double x : {0.05, 0.9, 4.0}) {
    check_cdf_gradients(dist("LogNormal"), {0.1, 0.7}, x);
    check_cdf_gradients(dist("Exponential"), {1.3}, x);
    check_cdf_gradients(dist("Gamma"), {2.5, 1.5}, x, 1e-4);
    check_cdf_gradients(dist("InverseGamma"), {2.5, 1.5}, x, 1e-4);
    check_cdf_gradients(dist("Weibull"), {1.7, 1.1}, x);
    check_cdf_gradients(dist("ChiSquare"), {3.5}, x, 1e-4);
    check_cdf_gradients(dist("HalfNormal"), {1.4}, x);
    check_cdf_gradients(dist("HalfCauchy"), {1.4}, x);
    check_cdf_gradients(dist("Pareto"), {0.02, 2.2}, x);
    check_cdf_gradients(dist("Uniform"), {0.01, 4.5}, x);
    check_cdf_gradients(dist("InverseChiSquare"), {3.5}, x, 1e-4);
    check_cdf_gradients(dist("ScaledInverseChiSquare"), {3.5, 0.8}, x, 1e-4);
    check_cdf_gradients(dist("HalfStudentT"), {3.5, 0.8}, x, 1e-4);
  }
  for (double x : {0.02, 0.4, 0.97}) check_cdf_gradients(dist("Beta"), {2.5, 1.5}, x, 1e-4);
}

}  // namespace test_cdf
