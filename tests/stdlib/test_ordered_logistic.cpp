// OrderedLogistic(eta, c) against differences of inv_logit computed directly, and in the far
// tails against the limit the stable form must reach where those differences round to 0.
#include "tests/stdlib/discrete_checks.hpp"

namespace test_ordered_logistic {

using namespace ppl::testing;

namespace {

double inv_logit(double x) { return 1 / (1 + std::exp(-x)); }

// P(k) for k = 1..K, cutpoints c[1..K-1].
double pmf(double eta, const std::vector<double>& c, long k) {
  const auto K = static_cast<long>(c.size()) + 1;
  const double above = k == 1 ? 1.0 : inv_logit(eta - c[static_cast<std::size_t>(k - 2)]);
  const double below = k == K ? 0.0 : inv_logit(eta - c[static_cast<std::size_t>(k - 1)]);
  return above - below;
}

// No constants.
mass_case at(double eta, const std::vector<double>& c, double k) {
  return {{scalar(eta), vec(c)}, scalar(k), std::log(pmf(eta, c, static_cast<long>(k)))};
}

}  // namespace

TEST_CASE("OrderedLogistic: log masses, with and without constants") {
  const std::vector<double> c = {-1.5, 0.2, 2.0};
  check_log_masses(dist("OrderedLogistic"), {
                                                at(0.3, c, 1), at(0.3, c, 2), at(0.3, c, 3), at(0.3, c, 4),
                                                at(-4, c, 4), at(5, c, 1), at(0, {0.0}, 1), at(0, {0.0}, 2),
                                                at(1, {0.99, 1.01}, 2),  // a narrow middle category
                                                {{scalar(0.3), vec(c)}, scalar(0), -INFINITY},
                                                {{scalar(0.3), vec(c)}, scalar(5), -INFINITY},
                                                {{scalar(0.3), vec(c)}, scalar(2.5), -INFINITY},
                                            });
  // Far out, 1 - inv_logit(50) rounds to 0; the mass of category 1 is e^-50 (1 + ...).
  const auto& d = dist("OrderedLogistic");
  CHECK(log_density(d, {scalar(50), vec(c)}, scalar(1)) == doctest::Approx(-51.5 - std::log1p(std::exp(-51.5))));
  // A middle category between two cutpoints far below eta: e^-(eta - c[3]) - e^-(eta - c[2]), nearly.
  const double lp = log_density(d, {scalar(60), vec(c)}, scalar(3));
  CHECK(lp == doctest::Approx(std::log(std::exp(-58.0) - std::exp(-59.8))).epsilon(1e-9));
}

TEST_CASE("OrderedLogistic: support and invalid parameters") {
  const auto& d = dist("OrderedLogistic");
  const auto s = d.value_support(views({scalar(0), vec({-1, 0, 1})}));
  CHECK(s.kind == ppl::stdlib::support_kind::integer_interval);
  CHECK(s.lower == 1);
  CHECK(s.upper == 4);
  CHECK(d.value_kind() == ppl::stdlib::scalar_kind::integer);
  CHECK(d.params()[1].rank == 1);
  check_invalid(d, {
                       {{scalar(NAN), vec({0})}, "OrderedLogistic: linear predictor eta is nan; it must be finite"},
                       {{scalar(0), vec({})}, "OrderedLogistic: cutpoints c are empty"},
                       {{scalar(0), vec({0, 1, 1})},
                        "OrderedLogistic: cutpoints c must increase, but cutpoint c[3] is 1 after cutpoint c[2] = 1"},
                       {{scalar(0), vec({0, -1})}, "cutpoint c[2] is -1 after cutpoint c[1] = 0"},
                       {{scalar(0), vec({0, INFINITY})}, "OrderedLogistic: cutpoint c[2] is inf; it must be finite"},
                   });
}

TEST_CASE("OrderedLogistic: draws follow the pmf") {
  const auto& d = dist("OrderedLogistic");
  for (double eta : {0.3, -2.0, 4.0}) {
    const std::vector<double> c = {-1.5, 0.2, 2.0, 2.5};
    INFO("eta = ", eta);
    check_draws_pmf(d, {scalar(eta), vec(c)}, [&](long k) { return pmf(eta, c, k); }, 1, 5);
  }
  check_draws_reproducible(d, {scalar(0.3), vec({-1, 1})});
}

TEST_CASE("OrderedLogistic: gradients in eta and the cutpoints match finite differences") {
  const auto& d = dist("OrderedLogistic");
  const std::vector<double> c = {-1.5, 0.2, 2.0};
  for (double k : {1.0, 2.0, 3.0, 4.0}) check_gradients(d, {scalar(0.3), vec(c)}, scalar(k), false);
  check_gradients(d, {scalar(30), vec(c)}, scalar(2), false);
  check_gradients(d, {scalar(1), vec({0.9, 1.1})}, scalar(2), false);
  check_no_integer_gradients(d, {scalar(0.3), vec(c)}, scalar(2));
}

}  // namespace test_ordered_logistic
