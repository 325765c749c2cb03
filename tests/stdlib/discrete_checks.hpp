#pragma once
// Checks shared by the tests of the discrete distributions (test_bernoulli.cpp, ...), on
// top of distribution_checks.hpp (tables of log densities and of invalid parameters,
// gradients, reproducible draws): chi-square tests of draw() against an exact pmf, and the
// rule that integer values and parameters never receive gradients.
#include <boost/math/distributions/chi_squared.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/stdlib/distribution_checks.hpp"

namespace ppl::testing {

// Log masses are log densities with respect to counting measure; `dropped` holds the
// terms in the integer value and integer parameters only.
using mass_case = density_case;

inline void check_log_masses(const stdlib::distribution& d, const std::vector<mass_case>& cases) {
  check_log_densities(d, cases);
}

// Integer values and integer parameters (Binomial's n) have no derivative: log_density
// must leave their slots alone even when a caller passes them.
inline void check_no_integer_gradients(const stdlib::distribution& d, const std::vector<tensor>& params,
                                       const tensor& x) {
  std::vector<double> value_slot(static_cast<std::size_t>(x.size()), 0.0);
  std::vector<std::vector<double>> param_slots(params.size());
  stdlib::gradient_out g;
  g.value = value_slot.data();
  for (std::size_t i = 0; i < params.size(); ++i) {
    param_slots[i].assign(static_cast<std::size_t>(params[i].size()), 0.0);
    g.params[i] = param_slots[i].data();
  }
  d.log_density(views(params), x.as_view(), true, &g);
  for (double v : value_slot) CHECK(v == 0);
  for (std::size_t i = 0; i < params.size(); ++i)
    if (d.params()[i].kind == stdlib::scalar_kind::integer)
      for (double v : param_slots[i]) CHECK(v == 0);
}

// Pearson's statistic after pooling cells, in order, until each expects at least 5; a
// small remainder joins the last pooled cell. Returns {statistic, number of pooled cells}.
inline std::pair<double, int> pooled_chi_square(const std::vector<double>& observed,
                                                const std::vector<double>& expected) {
  std::vector<double> pooled_e, pooled_o;
  double e = 0, o = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    e += expected[i], o += observed[i];
    if (e >= 5) pooled_e.push_back(e), pooled_o.push_back(o), e = o = 0;
  }
  if (pooled_e.empty()) pooled_e.push_back(0), pooled_o.push_back(0);
  pooled_e.back() += e, pooled_o.back() += o;
  double stat = 0;
  for (std::size_t i = 0; i < pooled_e.size(); ++i)
    if (pooled_e[i] > 0) stat += (pooled_o[i] - pooled_e[i]) * (pooled_o[i] - pooled_e[i]) / pooled_e[i];
  return {stat, static_cast<int>(pooled_e.size())};
}

// Chi-square goodness of fit of n draws against exact cell probabilities. `cell_of` maps a
// draw to a cell in [0, probs.size()) or to -1, the complement (probability 1 - sum).
// Every draw must lie in the support. Fixed seed: the 0.999 quantile of chi-square fails
// a correct sampler for one seed in a thousand, and then on every run, never at random.
inline void check_draws_cells(const stdlib::distribution& d, const std::vector<tensor>& params,
                              const std::vector<double>& probs, const std::function<long(const double*)>& cell_of,
                              int n = 20000, unsigned seed = 2024) {
  ppl::rng rng(seed);
  tensor out(d.value_rank() == 0 ? shape::scalar() : d.value_shape_at(views(params)));
  std::vector<double> observed(probs.size() + 1, 0.0), expected(probs.size() + 1, 0.0);
  double inside = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) inside += expected[i] = n * probs[i];
  expected.back() = std::max(0.0, n - inside);
  for (int i = 0; i < n; ++i) {
    d.draw(views(params), rng, out.data.data());
    REQUIRE(d.in_support(views(params), out.as_view()));
    const long c = cell_of(out.data.data());
    observed[c < 0 ? probs.size() : static_cast<std::size_t>(c)] += 1;
  }
  const auto [stat, cells] = pooled_chi_square(observed, expected);
  INFO(d.name(), ": chi-square ", stat, " over ", cells, " cells");
  if (cells < 2)
    CHECK(stat == 0);  // one cell: a degenerate distribution, every draw in it
  else
    CHECK(stat < chi_square_limit(cells - 1));
}

// The same for a scalar count, with cells k = lo..hi and the rest of the support pooled.
inline void check_draws_pmf(const stdlib::distribution& d, const std::vector<tensor>& params,
                            const std::function<double(long)>& pmf, long lo, long hi, int n = 20000,
                            unsigned seed = 2024) {
  std::vector<double> probs;
  for (long k = lo; k <= hi; ++k) probs.push_back(pmf(k));
  auto cell = [lo, hi](const double* x) {
    const auto k = static_cast<long>(*x);
    return k < lo || k > hi ? -1L : k - lo;
  };
  check_draws_cells(d, params, probs, cell, n, seed);
}

// Every one of n draws equals `value` (degenerate parameters: p = 0, lambda = 0, ...).
inline void check_draws_constant(const stdlib::distribution& d, const std::vector<tensor>& params, double value,
                                 int n = 1000) {
  ppl::rng rng(7);
  double x = 0;
  int off = 0;
  for (int i = 0; i < n; ++i) {
    d.draw(views(params), rng, &x);
    off += x != value;
  }
  INFO(d.name(), ": draws other than ", value);
  CHECK(off == 0);
}

}  // namespace ppl::testing
