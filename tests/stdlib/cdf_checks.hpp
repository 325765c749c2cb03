#pragma once
// Checks of distribution functions (distribution::log_cdf, log_ccdf): both tails against a
// reference at a table of points, the two tails summing to one, and their gradients in the
// value and the real parameters against central differences.
//
// Tolerances: each tail's logarithm to 1e-10 relative unless a case says otherwise (the
// references are Boost.Math's cdf and cdf(complement(...)), accurate to a few ulps, and
// the logarithm's relative error is at most the probability's); a tail the reference
// underflows (below 1e-300) need only be below it. Tails sum to one to 1e-12. Gradients to 1e-5
// relative as distribution_checks.hpp's, 1e-4 where the implementation itself takes a
// central difference (shapes of incomplete gamma and beta functions).
#include <cmath>
#include <functional>
#include <vector>

#include "tests/stdlib/distribution_checks.hpp"

namespace ppl::testing {

// |a - b| <= tol |b|, or both the same infinity.
inline bool close_relative(double a, double b, double tol) {
  if (std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tol * std::fabs(b) || a == b;
}

struct cdf_reference {
  std::function<double(double)> cdf, ccdf;
};

inline void check_cdf_values(const stdlib::distribution& d, const std::vector<double>& params, const cdf_reference& ref,
                             const std::vector<double>& xs, double tol = 1e-10) {
  std::vector<tensor> ps;
  for (double p : params) ps.push_back(scalar(p));
  const auto v = views(ps);
  REQUIRE(d.has_cdf());
  for (double x : xs) {
    const double lcdf = d.log_cdf(v, x), lccdf = d.log_ccdf(v, x);
    const double f = ref.cdf(x), q = ref.ccdf(x);
    // Each logarithm from the reference's smaller tail: log F = log1p(-Q) where Q is small.
    const double log_f = f > 0.5 ? std::log1p(-q) : std::log(f), log_q = q > 0.5 ? std::log1p(-f) : std::log(q);
    INFO(d.name(), " with first parameter ", params[0], " at x = ", x, ": log cdf ", lcdf, " vs ", log_f,
         ", log ccdf ", lccdf, " vs ", log_q);
    // A tail the reference underflows need only be as small.
    if (f > 1e-300 || (f == 0 && std::isinf(lcdf))) CHECK(close_relative(lcdf, log_f, tol));
    else CHECK(lcdf < std::log(1e-300));
    if (q > 1e-300 || (q == 0 && std::isinf(lccdf))) CHECK(close_relative(lccdf, log_q, tol));
    else CHECK(lccdf < std::log(1e-300));
    // log(F + (1 - F)) = 0
    const double m = std::max(lcdf, lccdf);
    CHECK(std::fabs(m + std::log(std::exp(lcdf - m) + std::exp(lccdf - m))) < 1e-12);
  }
}

// d/dx (for a real value) and d/d(real parameter) of both tails against central differences.
inline void check_cdf_gradients(const stdlib::distribution& d, std::vector<double> params, double x, double tol = 1e-5) {
  const bool real_value = d.value_kind() == stdlib::scalar_kind::real;
  for (int tail = 0; tail < 2; ++tail) {
    std::vector<tensor> ps;
    for (double p : params) ps.push_back(scalar(p));
    auto eval = [&](const std::vector<tensor>& at, double y, const stdlib::gradient_out* g) {
      return tail == 0 ? d.log_cdf(views(at), y, g) : d.log_ccdf(views(at), y, g);
    };
    double dx = 0;
    std::vector<double> dp(params.size(), 0.0);
    stdlib::gradient_out g;
    g.value = &dx;
    for (std::size_t i = 0; i < params.size(); ++i) g.params[i] = &dp[i];
    eval(ps, x, &g);
    auto numeric = [&](double& slot) {
      const double h = 1e-6 * std::max(1.0, std::fabs(slot)), saved = slot;
      slot = saved + h;
      const double up = eval(ps, x, nullptr);
      slot = saved - h;
      const double down = eval(ps, x, nullptr);
      slot = saved;
      return (up - down) / (2 * h);
    };
    INFO(d.name(), (tail == 0 ? " log cdf" : " log ccdf"), " at x = ", x, " with first parameter ", params[0]);
    if (real_value) {
      INFO("d/dx");
      CHECK(dx == doctest::Approx(numeric(x)).epsilon(tol));
    } else {
      CHECK(dx == 0);
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      INFO("d/d", d.params()[i].name);
      if (d.params()[i].kind == stdlib::scalar_kind::integer) {
        CHECK(dp[i] == 0);
        CHECK(!d.cdf_differentiable(i));
      } else {
        CHECK(d.cdf_differentiable(i));
        CHECK(dp[i] == doctest::Approx(numeric(ps[i].data[0])).epsilon(tol));
      }
    }
  }
}

}  // namespace ppl::testing
