// DirichletMultinomial(n, alpha): masses from Boost.Math's tgamma by hand, and for two
// categories against BetaBinomial; draws against the exact joint pmf over every count
// vector.
#include <boost/math/special_functions/gamma.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_dirichlet_multinomial {

using namespace ppl::testing;

namespace {

double pmf(const std::vector<double>& alpha, const std::vector<double>& x) {
  using boost::math::tgamma;
  double n = 0, total = 0, p = 1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    n += x[i], total += alpha[i];
    p *= tgamma(x[i] + alpha[i]) / (tgamma(alpha[i]) * tgamma(x[i] + 1));
  }
  return p * tgamma(n + 1) * tgamma(total) / tgamma(n + total);
}

double log_coefficient(const std::vector<double>& x) {
  double n = 0, lp = 0;
  for (double v : x) n += v, lp -= std::lgamma(v + 1);
  return lp + std::lgamma(n + 1);
}

mass_case at(const std::vector<double>& alpha, const std::vector<double>& x) {
  double n = 0;
  for (double v : x) n += v;
  return {{scalar(n), vec(alpha)}, vec(x), std::log(pmf(alpha, x)), log_coefficient(x)};
}

void compositions(long n, std::size_t k, std::vector<double>& prefix, std::vector<std::vector<double>>& out) {
  if (prefix.size() + 1 == k) {
    prefix.push_back(static_cast<double>(n));
    out.push_back(prefix);
    prefix.pop_back();
    return;
  }
  for (long c = 0; c <= n; ++c) {
    prefix.push_back(static_cast<double>(c));
    compositions(n - c, k, prefix, out);
    prefix.pop_back();
  }
}

}  // namespace

TEST_CASE("DirichletMultinomial: log masses, with and without constants") {
  check_log_masses(dist("DirichletMultinomial"), {
                                                     at({1, 2, 3}, {2, 0, 3}), at({0.1, 0.1}, {5, 0}),
                                                     at({0.1, 0.1}, {2, 3}), at({30, 10, 5, 1}, {6, 2, 1, 1}),
                                                     at({2}, {4}),
                                                     {{scalar(5), vec({1, 2, 3})}, vec({2, 0, 2}), -INFINITY},
                                                     {{scalar(5), vec({1, 2, 3})}, vec({2, 4}), -INFINITY},
                                                     {{scalar(5), vec({1, 2, 3})}, vec({2, -1, 4}), -INFINITY},
                                                 });
  // Two categories are BetaBinomial(n, alpha_1, alpha_2) of the first count.
  const double two = log_density(dist("DirichletMultinomial"), {scalar(9), vec({1.5, 0.7})}, vec({4, 5}));
  CHECK(two == doctest::Approx(log_density(dist("BetaBinomial"), {scalar(9), scalar(1.5), scalar(0.7)}, scalar(4))));
}

TEST_CASE("DirichletMultinomial: the support is count vectors of alpha's size summing to n") {
  const auto& d = dist("DirichletMultinomial");
  const std::vector<tensor> params = {scalar(4), vec({1, 1, 1})};
  const auto p = views(params);
  const auto s = d.value_support(p);
  CHECK(s.kind == ppl::stdlib::support_kind::count_vector);
  CHECK(s.upper == 4);
  CHECK(d.support_moves());
  CHECK(d.value_rank() == 1);
  CHECK(d.in_support(p, vec({1, 0, 3}).as_view()));
  CHECK_FALSE(d.in_support(p, vec({1, 0, 2}).as_view()));
  CHECK_FALSE(d.in_support(p, vec({1, 3}).as_view()));
  CHECK_FALSE(d.in_support(p, vec({1.5, 0, 2.5}).as_view()));
  check_invalid(d, {
                       {{scalar(-1), vec({1, 1})}, "DirichletMultinomial: number of trials n is -1"},
                       {{scalar(3), vec({})}, "DirichletMultinomial: concentration alpha is empty"},
                       {{scalar(3), vec({1, 0})}, "DirichletMultinomial: concentration alpha[2] is 0; it must be positive"},
                   });
}

TEST_CASE("DirichletMultinomial: draws follow the joint pmf") {
  for (const auto& [n, alpha] : {std::pair<long, std::vector<double>>{4, {1, 2, 3}}, {6, {0.2, 0.3, 0.1}}, {3, {20, 1}}}) {
    std::vector<std::vector<double>> cells;
    std::vector<double> prefix, probs;
    compositions(n, alpha.size(), prefix, cells);
    for (const auto& x : cells) probs.push_back(pmf(alpha, x));
    auto cell_of = [&](const double* draw) {
      for (std::size_t i = 0; i < cells.size(); ++i)
        if (std::equal(cells[i].begin(), cells[i].end(), draw)) return static_cast<long>(i);
      return -1L;
    };
    INFO("n = ", n, ", K = ", alpha.size());
    check_draws_cells(dist("DirichletMultinomial"), {scalar(static_cast<double>(n)), vec(alpha)}, probs, cell_of);
  }
  check_draws_reproducible(dist("DirichletMultinomial"), {scalar(5), vec({1, 2, 3})}, 3);
}

TEST_CASE("DirichletMultinomial: gradient in alpha matches finite differences") {
  const auto& d = dist("DirichletMultinomial");
  check_gradients(d, {scalar(5), vec({1, 2, 3})}, vec({2, 0, 3}), false);
  check_gradients(d, {scalar(7), vec({0.1, 0.4})}, vec({7, 0}), false);
  check_no_integer_gradients(d, {scalar(5), vec({1, 2, 3})}, vec({2, 0, 3}));
}

}  // namespace test_dirichlet_multinomial
