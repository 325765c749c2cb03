#pragma once
// Shared checks for the distribution tests: finite-difference gradients, and chi-square
// goodness of fit of draw() against Boost.Math quantiles or an exact pmf. Tolerances:
// chi-square statistics must stay below the 0.999 quantile of their reference
// distribution (fixed seeds, so a failure is a bug, not bad luck); gradients must agree
// with central differences to 1e-5 relative.
#include <doctest/doctest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <functional>
#include <vector>

#include "stdlib/registry.hpp"

namespace ppl::testing {

using runtime::index_t;
using runtime::shape;
using runtime::tensor;
using runtime::view;

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

inline double chi_square_limit(double degrees) {
  return boost::math::quantile(boost::math::chi_squared(degrees), 0.999);
}

// Draws n values of component `component` and bins them into `bins` equiprobable bins of
// the reference quantile function.
inline void check_draws_continuous(const stdlib::distribution& d, const std::vector<tensor>& params,
                                   const std::function<double(double)>& quantile, std::size_t component = 0,
                                   int n = 20000, int bins = 20, unsigned seed = 42) {
  runtime::rng rng(seed);
  std::vector<double> edges;
  for (int b = 1; b < bins; ++b) edges.push_back(quantile(static_cast<double>(b) / bins));
  std::vector<int> counts(static_cast<std::size_t>(bins), 0);
  std::vector<shape> shapes;
  for (const auto& p : params) shapes.push_back(p.shape);
  std::vector<double> out(static_cast<std::size_t>(d.value_rank() == 0 ? 1 : d.value_shape(shapes).size()));
  for (int i = 0; i < n; ++i) {
    d.draw(views(params), rng, out.data());
    double x = out[component];
    counts[static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin())]++;
  }
  double expected = static_cast<double>(n) / bins, stat = 0;
  for (int c : counts) stat += (c - expected) * (c - expected) / expected;
  INFO(d.name(), ": chi-square ", stat);
  CHECK(stat < chi_square_limit(bins - 1));
}

// Chi-square of integer draws against pmf(k) for k in [lo, hi]; cells with expected
// counts below 5 are pooled with their neighbour, and the tails beyond [lo, hi] form one.
inline void check_draws_discrete(const stdlib::distribution& d, const std::vector<tensor>& params,
                                 const std::function<double(long)>& pmf, long lo, long hi, int n = 20000,
                                 unsigned seed = 43) {
  runtime::rng rng(seed);
  std::vector<double> observed(static_cast<std::size_t>(hi - lo + 2), 0.0), expected(observed.size(), 0.0);
  double inside = 0;
  for (long k = lo; k <= hi; ++k) inside += expected[static_cast<std::size_t>(k - lo)] = n * pmf(k);
  expected.back() = n - inside;
  double x;
  for (int i = 0; i < n; ++i) {
    d.draw(views(params), rng, &x);
    auto k = static_cast<long>(x);
    observed[k < lo || k > hi ? observed.size() - 1 : static_cast<std::size_t>(k - lo)] += 1;
  }
  double stat = 0, e = 0, o = 0;
  int cells = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    e += expected[i];
    o += observed[i];
    if (e >= 5 || i + 1 == expected.size()) {
      if (e > 0) stat += (o - e) * (o - e) / e, ++cells;
      e = o = 0;
    }
  }
  INFO(d.name(), ": chi-square ", stat, " over ", cells, " cells");
  CHECK(stat < chi_square_limit(std::max(1, cells - 1)));
}

}  // namespace ppl::testing
