#pragma once
// Shared checks for the distribution tests (test_<name>.cpp; discrete_checks.hpp adds the
// discrete ones): tables of log densities and of invalid parameters, finite-difference
// gradients, and chi-square goodness of fit of draw() against Boost.Math quantiles.
// Tolerances: chi-square statistics must stay below the 0.999 quantile of their reference
// distribution (fixed seeds, so a failure is a bug, not bad luck); gradients must agree
// with central differences to 1e-5 relative.
#include <doctest/doctest.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "stdlib/registry.hpp"

namespace ppl::testing {

using ppl::index_t;
using ppl::shape;
using ppl::tensor;
using ppl::view;

inline const stdlib::distribution& dist(const char* name) {
  const auto* d = stdlib::library().find_distribution(name);
  REQUIRE(d != nullptr);
  return *d;
}

inline tensor scalar(double x) { return tensor::scalar(x); }
inline tensor vec(std::vector<double> v) {
  tensor t(shape::vector(static_cast<index_t>(v.size())));
  t.data = std::move(v);
  return t;
}
inline tensor mat(index_t r, index_t c, std::vector<double> v) {
  tensor t(shape::matrix(r, c));
  t.data = std::move(v);
  return t;
}

inline std::vector<view> views(const std::vector<tensor>& ts) {
  std::vector<view> out;
  for (const auto& t : ts) out.push_back(t.as_view());
  return out;
}

inline double log_density(const stdlib::distribution& d, const std::vector<tensor>& params, const tensor& x,
                          bool with_constants = true) {
  return d.log_density(views(params), x.as_view(), with_constants);
}

// A distribution of a real value of rank `value_rank` whose parameters are real and have
// these names and ranks, in order.
inline void check_real_signature(const stdlib::distribution& d, const std::vector<std::pair<std::string, int>>& params,
                                 int value_rank) {
  INFO(d.name());
  REQUIRE(d.params().size() == params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    CHECK(d.params()[i].name == params[i].first);
    CHECK(d.params()[i].rank == params[i].second);
    CHECK(d.params()[i].kind == stdlib::scalar_kind::real);
  }
  CHECK(d.value_kind() == stdlib::scalar_kind::real);
  CHECK(d.value_rank() == value_rank);
}

// value_support is the interval [lower, upper] (bounds may be infinite).
inline void check_interval_support(const stdlib::distribution& d, const std::vector<tensor>& params, double lower,
                                   double upper) {
  const auto s = d.value_support(views(params));
  INFO(d.name());
  CHECK(s.kind == stdlib::support_kind::real_interval);
  CHECK(s.lower == lower);
  CHECK(s.upper == upper);
}

// log p(x | params) with constants; `dropped` is what with_constants = false leaves out.
// An infinite `expected` (a value outside the support, or an unbounded density at its
// edge) must come back exactly, with or without constants.
struct density_case {
  std::vector<tensor> params;
  tensor x;
  double expected;
  double dropped = 0;
};

inline void check_log_densities(const stdlib::distribution& d, const std::vector<density_case>& cases) {
  for (const auto& c : cases) {
    INFO(d.name(), " at x[0] = ", c.x.data[0], " with first parameter ", c.params.empty() ? 0.0 : c.params[0].data[0]);
    const double full = log_density(d, c.params, c.x, true), bare = log_density(d, c.params, c.x, false);
    if (std::isinf(c.expected)) {
      CHECK(full == c.expected);
      CHECK(bare == c.expected);
    } else {
      CHECK(full == doctest::Approx(c.expected).epsilon(1e-10));
      CHECK(bare == doctest::Approx(c.expected - c.dropped).epsilon(1e-10));
    }
  }
}

// Parameters that check() must refuse, with a substring of the message.
struct invalid_case {
  std::vector<tensor> params;
  std::string message;
};

inline void check_invalid(const stdlib::distribution& d, const std::vector<invalid_case>& cases) {
  for (const auto& c : cases) {
    INFO(d.name(), ": expecting \"", c.message, "\"");
    CHECK_THROWS_WITH_AS(d.check(views(c.params)), doctest::Contains(c.message.c_str()), stdlib::parameter_error);
  }
}

// Compares every gradient slot (value and real parameters) with central differences.
inline void check_gradients(const stdlib::distribution& d, std::vector<tensor> params, tensor x, bool value_is_real = true) {
  std::vector<std::vector<double>> grads(params.size());
  std::vector<double> dx(static_cast<std::size_t>(x.size()), 0.0);
  stdlib::gradient_out g;
  if (value_is_real) g.value = dx.data();
  for (std::size_t i = 0; i < params.size(); ++i) {
    grads[i].assign(static_cast<std::size_t>(params[i].size()), 0.0);
    if (d.params()[i].kind == stdlib::scalar_kind::real) g.params[i] = grads[i].data();
  }
  d.log_density(views(params), x.as_view(), true, &g);
  auto numeric = [&](double& slot) {
    double h = 1e-6 * std::max(1.0, std::fabs(slot)), saved = slot;
    slot = saved + h;
    double up = log_density(d, params, x);
    slot = saved - h;
    double down = log_density(d, params, x);
    slot = saved;
    return (up - down) / (2 * h);
  };
  if (value_is_real)
    for (index_t k = 0; k < x.size(); ++k) {
      INFO(d.name(), " d/dx[", k, "]");
      CHECK(dx[static_cast<std::size_t>(k)] == doctest::Approx(numeric(x.data[static_cast<std::size_t>(k)])).epsilon(1e-5));
    }
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (!g.params[i]) continue;
    for (index_t k = 0; k < params[i].size(); ++k) {
      INFO(d.name(), " d/d", d.params()[i].name, "[", k, "]");
      CHECK(grads[i][static_cast<std::size_t>(k)] ==
            doctest::Approx(numeric(params[i].data[static_cast<std::size_t>(k)])).epsilon(1e-5));
    }
  }
}

// A symmetric matrix value (Wishart's) cannot move one entry alone: compares d/dX[i, j] +
// d/dX[j, i] with central differences moving both (each diagonal entry alone), then the
// parameters' slots as check_gradients does.
inline void check_symmetric_value_gradient(const stdlib::distribution& d, const std::vector<tensor>& params, tensor x) {
  std::vector<double> dx(static_cast<std::size_t>(x.size()), 0.0);
  stdlib::gradient_out g;
  g.value = dx.data();
  d.log_density(views(params), x.as_view(), true, &g);
  const index_t k = x.shape[0];
  for (index_t i = 0; i < k; ++i)
    for (index_t j = 0; j <= i; ++j) {
      const auto a = static_cast<std::size_t>(i * k + j), b = static_cast<std::size_t>(j * k + i);
      const double h = 1e-6 * std::max(1.0, std::fabs(x.data[a])), saved = x.data[a];
      x.data[a] = x.data[b] = saved + h;
      const double up = log_density(d, params, x);
      x.data[a] = x.data[b] = saved - h;
      const double down = log_density(d, params, x);
      x.data[a] = x.data[b] = saved;
      INFO(d.name(), " d/dX[", i, ", ", j, "] (with its mirror)");
      CHECK((a == b ? dx[a] : dx[a] + dx[b]) == doctest::Approx((up - down) / (2 * h)).epsilon(1e-5));
    }
  check_gradients(d, params, x, false);
}

// The mean of n draws of a K x K matrix, each entry within 4 standard errors of
// expected(i, j), given the entry's variance(i, j); every draw in the support.
inline void check_matrix_draw_means(const stdlib::distribution& d, const std::vector<tensor>& params, index_t k, int n, unsigned seed,
                                    const std::function<double(index_t, index_t)>& expected,
                                    const std::function<double(index_t, index_t)>& variance) {
  ppl::rng rng(seed);
  tensor w = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
  std::vector<double> sum(static_cast<std::size_t>(k * k), 0.0);
  for (int draw = 0; draw < n; ++draw) {
    d.draw(views(params), rng, w.data.data());
    REQUIRE(d.in_support(views(params), w.as_view()));
    for (std::size_t e = 0; e < sum.size(); ++e) sum[e] += w.data[e];
  }
  for (index_t i = 0; i < k; ++i)
    for (index_t j = 0; j < k; ++j) {
      INFO(d.name(), " mean of W[", i, ", ", j, "]");
      CHECK(std::fabs(sum[static_cast<std::size_t>(i * k + j)] / n - expected(i, j)) < 4 * std::sqrt(variance(i, j) / n));
    }
}

inline double chi_square_limit(double degrees) {
  return boost::math::quantile(boost::math::chi_squared(degrees), 0.999);
}

// A simplex value has no derivative along (1, ..., 1), which leaves the simplex: compares
// the differences d/dx[i] - d/dx[last] with central differences along e_i - e_last.
inline void check_simplex_gradient(const stdlib::distribution& d, const std::vector<tensor>& params, tensor x) {
  std::vector<double> dx(static_cast<std::size_t>(x.size()), 0.0);
  stdlib::gradient_out g;
  g.value = dx.data();
  d.log_density(views(params), x.as_view(), true, &g);
  const std::size_t last = dx.size() - 1;
  for (std::size_t i = 0; i < last; ++i) {
    const double h = 1e-6 * std::min(x.data[i], x.data[last]), xi = x.data[i], xl = x.data[last];
    x.data[i] = xi + h, x.data[last] = xl - h;
    const double up = log_density(d, params, x);
    x.data[i] = xi - h, x.data[last] = xl + h;
    const double down = log_density(d, params, x);
    x.data[i] = xi, x.data[last] = xl;
    INFO(d.name(), " d/dx[", i, "] - d/dx[", last, "]");
    CHECK(dx[i] - dx[last] == doctest::Approx((up - down) / (2 * h)).epsilon(1e-5));
  }
}

// Bins a scalar statistic of n draws (a component, a sum of components, ...) into `bins`
// equiprobable bins of the statistic's quantile function; every draw must lie in the
// support.
inline void check_statistic_draws(const stdlib::distribution& d, const std::vector<tensor>& params,
                                  const std::function<double(const double*)>& statistic,
                                  const std::function<double(double)>& quantile, int n = 20000, int bins = 20,
                                  unsigned seed = 42) {
  ppl::rng rng(seed);
  std::vector<double> edges;
  for (int b = 1; b < bins; ++b) edges.push_back(quantile(static_cast<double>(b) / bins));
  std::vector<int> counts(static_cast<std::size_t>(bins), 0);
  tensor out(d.value_rank() == 0 ? shape::scalar() : d.value_shape_at(views(params)));
  for (int i = 0; i < n; ++i) {
    d.draw(views(params), rng, out.data.data());
    REQUIRE(d.in_support(views(params), out.as_view()));
    const double x = statistic(out.data.data());
    counts[static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin())]++;
  }
  double expected = static_cast<double>(n) / bins, stat = 0;
  for (int c : counts) stat += (c - expected) * (c - expected) / expected;
  INFO(d.name(), ": chi-square ", stat);
  CHECK(stat < chi_square_limit(bins - 1));
}

// The same for component `component` of each draw (0 for a scalar).
inline void check_draws_continuous(const stdlib::distribution& d, const std::vector<tensor>& params,
                                   const std::function<double(double)>& quantile, std::size_t component = 0,
                                   int n = 20000, int bins = 20, unsigned seed = 42) {
  check_statistic_draws(d, params, [component](const double* x) { return x[component]; }, quantile, n, bins, seed);
}

// The same seed gives the same draws.
inline void check_draws_reproducible(const stdlib::distribution& d, const std::vector<tensor>& params,
                                     index_t size = 1) {
  auto run = [&] {
    ppl::rng rng(99);
    std::vector<double> xs(static_cast<std::size_t>(50 * size));
    for (int i = 0; i < 50; ++i) d.draw(views(params), rng, xs.data() + i * size);
    return xs;
  };
  CHECK(run() == run());
}

}  // namespace ppl::testing
