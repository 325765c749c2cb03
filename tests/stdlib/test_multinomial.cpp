// Multinomial(n, p): masses from factorials by hand and, for two categories, against
// Boost.Math's binomial; draws against the exact joint pmf over every count vector.
#include <boost/math/distributions/binomial.hpp>

#include "tests/stdlib/discrete_checks.hpp"

namespace test_multinomial {

using namespace ppl::testing;

namespace {

double log_coefficient(const std::vector<double>& x) {
  double n = 0, lp = 0;
  for (double v : x) n += v, lp -= std::lgamma(v + 1);
  return lp + std::lgamma(n + 1);
}

double log_pmf(const std::vector<double>& p, const std::vector<double>& x) {
  double lp = log_coefficient(x);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] > 0) lp += x[i] * std::log(p[i]);
  return lp;
}

mass_case at(const std::vector<double>& p, const std::vector<double>& x) {
  double n = 0;
  for (double v : x) n += v;
  return {{scalar(n), vec(p)}, vec(x), log_pmf(p, x), log_coefficient(x)};
}

// Every vector of k non-negative counts summing to n, in lexicographic order.
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

// Chi-square of the draws over all count vectors of Multinomial(n, p).
void check_joint_draws(long n, const std::vector<double>& p) {
  std::vector<std::vector<double>> cells;
  std::vector<double> prefix;
  compositions(n, p.size(), prefix, cells);
  std::vector<double> probs;
  for (const auto& x : cells) probs.push_back(std::exp(log_pmf(p, x)));
  auto cell_of = [&](const double* draw) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (std::equal(cells[i].begin(), cells[i].end(), draw)) return static_cast<long>(i);
    return -1L;
  };
  INFO("n = ", n, ", K = ", p.size());
  check_draws_cells(dist("Multinomial"), {scalar(static_cast<double>(n)), vec(p)}, probs, cell_of);
}

}  // namespace

TEST_CASE("Multinomial: log masses, with and without constants") {
  check_log_masses(dist("Multinomial"), {
                                            at({0.2, 0.3, 0.5}, {1, 2, 3}),
                                            at({0.2, 0.3, 0.5}, {6, 0, 0}),
                                            at({0.5, 0.0, 0.5}, {2, 0, 1}),
                                            at({0.25, 0.25, 0.25, 0.25}, {0, 0, 0, 0}),
                                            at({1.0}, {7}),
                                        });
  CHECK(at({0.2, 0.3, 0.5}, {1, 2, 3}).expected == doctest::Approx(std::log(60 * 0.2 * 0.09 * 0.125)));
  // With two categories the first count is Binomial(n, p_1).
  const boost::math::binomial_distribution<> binomial(9, 0.35);
  for (double k : {0.0, 4.0, 9.0})
    CHECK(log_density(dist("Multinomial"), {scalar(9), vec({0.35, 0.65})}, vec({k, 9 - k})) ==
          doctest::Approx(std::log(boost::math::pdf(binomial, k))));
}

TEST_CASE("Multinomial: the support is count vectors of p's size summing to n") {
  const auto& d = dist("Multinomial");
  const std::vector<tensor> params = {scalar(6), vec({0.2, 0.3, 0.5})};
  const auto s = d.value_support(views(params));
  CHECK(s.kind == ppl::stdlib::support_kind::count_vector);
  CHECK(s.upper == 6);
  CHECK(d.value_rank() == 1);
  CHECK(d.value_shape(std::vector<shape>{shape::scalar(), shape::vector(3)}) == shape::vector(3));
  CHECK(d.in_support(views(params), vec({1, 2, 3}).as_view()));
  const std::vector<tensor> outside = {vec({1, 1, 1}), vec({-1, 4, 3}),   vec({1.5, 1.5, 3}),
                                       vec({3, 3}),    vec({1, 2, 3, 0}), vec({NAN, 3, 3})};
  for (const auto& x : outside) {
    INFO("x = ", x.data[0], ", size ", x.size());
    CHECK_FALSE(d.in_support(views(params), x.as_view()));
    CHECK(log_density(d, params, x) == -INFINITY);
  }
  CHECK(log_density(d, {scalar(3), vec({0.5, 0.0, 0.5})}, vec({1, 1, 1})) == -INFINITY);
}

TEST_CASE("Multinomial: invalid parameters") {
  const auto& d = dist("Multinomial");
  check_invalid(d, {
                       {{scalar(-1), vec({0.5, 0.5})}, "Multinomial: number of trials n is -1"},
                       {{scalar(2.5), vec({0.5, 0.5})}, "Multinomial: number of trials n is 2.5"},
                       {{scalar(6), vec({0.5, 0.6, 0.1})}, "Multinomial: p does not sum to 1 (sum 1.2)"},
                       {{scalar(6), vec({1.5, -0.5})}, "Multinomial: p has an entry -0.5"},
                       {{scalar(6), vec({})}, "Multinomial: p is empty"},
                   });
}

TEST_CASE("Multinomial: draws follow the joint pmf") {
  check_joint_draws(5, {0.2, 0.3, 0.5});
  check_joint_draws(4, {0.1, 0.4, 0.2, 0.3});
  check_joint_draws(6, {0.3, 0.0, 0.7});  // a zero category always counts 0
  check_joint_draws(3, {1.0});
  check_joint_draws(0, {0.5, 0.5});
  check_draws_reproducible(dist("Multinomial"), {scalar(20), vec({0.2, 0.3, 0.5})}, 3);
}

TEST_CASE("Multinomial: gradient in p matches finite differences") {
  const auto& d = dist("Multinomial");
  check_gradients(d, {scalar(6), vec({0.2, 0.3, 0.5})}, vec({1, 2, 3}), false);
  check_gradients(d, {scalar(6), vec({0.2, 0.3, 0.5})}, vec({0, 6, 0}), false);
  check_no_integer_gradients(d, {scalar(6), vec({0.2, 0.3, 0.5})}, vec({1, 2, 3}));
}

}  // namespace test_multinomial
