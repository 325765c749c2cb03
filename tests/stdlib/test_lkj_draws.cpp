// LKJCorr(K, eta) and LKJCorrCholesky(K, eta): gradients against finite differences,
// shapes, supports and invalid parameters, and draws, whose off-diagonal entries must have
// the marginal 2 Beta(eta - 1 + K/2, eta - 1 + K/2) - 1 (moments within 4 standard
// errors, and chi-square), every draw in the support. Seeds fixed. Densities:
// test_lkj.cpp.
#include <boost/math/distributions/beta.hpp>

#include "tests/stdlib/lkj_values.hpp"

namespace test_lkj_draws {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// An off-diagonal entry r = 2 B - 1 with B ~ Beta(b, b): E r^2 = 1 / (2b + 1) and
// E r^4 = 3 / ((2b + 1)(2b + 3)); under LKJ(K, eta), b = eta - 1 + K/2.
double second_moment(double b) { return 1 / (2 * b + 1); }
double fourth_moment(double b) { return 3 / ((2 * b + 1) * (2 * b + 3)); }

// n draws: every one in the support, and each off-diagonal entry of Omega (read by
// `omega` from a draw) with mean 0 and E r^2 of the Beta marginal, within 4 standard errors.
void check_marginal_moments(const char* name, index_t k, double eta, int n, unsigned seed,
                            const std::function<Eigen::MatrixXd(const tensor&)>& omega) {
  const auto& d = dist(name);
  const std::vector<tensor> params = {scalar(static_cast<double>(k)), scalar(eta)};
  const double b = eta - 1 + 0.5 * static_cast<double>(k), m2 = second_moment(b), m4 = fourth_moment(b);
  ppl::rng rng(seed);
  tensor x = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(k, k), sum2 = sum;
  for (int i = 0; i < n; ++i) {
    d.draw(views(params), rng, x.data.data());
    REQUIRE(d.in_support(views(params), x.as_view()));
    const Eigen::MatrixXd o = omega(x);
    sum += o;
    sum2 += o.cwiseProduct(o);
  }
  for (index_t i = 1; i < k; ++i)
    for (index_t j = 0; j < i; ++j) {
      const double mean = sum(i, j) / n, mean2 = sum2(i, j) / n;
      INFO(std::string(name), "(", k, ", ", eta, "): Omega[", i, ", ", j, "] mean ", mean, ", mean square ", mean2, " (exact ", m2, ")");
      CHECK(std::fabs(mean) < 4 * std::sqrt(m2 / n));
      CHECK(std::fabs(mean2 - m2) < 4 * std::sqrt((m4 - m2 * m2) / n));
    }
}

}  // namespace

TEST_CASE("LKJCorr and LKJCorrCholesky: gradients in the value and eta match finite differences") {
  const auto& chol = dist("LKJCorrCholesky");
  const auto& corr = dist("LKJCorr");
  for (const double eta : {0.6, 1.0, 2.5}) {
    check_gradients(chol, {scalar(3), scalar(eta)}, factor_of(y3, 3));
    check_gradients(chol, {scalar(5), scalar(eta)}, factor_of(y5, 5));
    check_symmetric_value_gradient(corr, {scalar(3), scalar(eta)}, correlation_of(y3, 3));
    check_symmetric_value_gradient(corr, {scalar(4), scalar(eta)}, correlation_of(y4, 4));
  }
  check_gradients(chol, {scalar(2), scalar(1.5)}, factor_of({-0.3}, 2));
  check_symmetric_value_gradient(corr, {scalar(2), scalar(0.3)}, corr2(0.95));
}

TEST_CASE("LKJCorr and LKJCorrCholesky: shapes, supports and invalid parameters") {
  const auto& chol = dist("LKJCorrCholesky");
  const auto& corr = dist("LKJCorr");
  const std::vector<tensor> p3 = {scalar(3), scalar(2)};
  for (const auto* d : {&chol, &corr}) {
    INFO(d->name());
    CHECK(d->params()[0].kind == ppl::stdlib::scalar_kind::integer);
    CHECK(d->params()[0].sizes_value);
    CHECK(d->params()[1].kind == ppl::stdlib::scalar_kind::real);
    CHECK(d->value_rank() == 2);
    CHECK(d->value_shape_at(views(p3)) == shape::matrix(3, 3));
    const std::string n(d->name());
    check_invalid(*d, {
                          {{scalar(3), scalar(-1)}, n + ": shape eta is -1; it must be positive and finite"},
                          {{scalar(3), scalar(0)}, n + ": shape eta is 0"},
                          {{scalar(3), scalar(INFINITY)}, n + ": shape eta is inf"},
                          {{scalar(3), scalar(NAN)}, n + ": shape eta is nan"},
                          {{scalar(0), scalar(2)}, n + ": size K is 0; it must be a positive integer, at most 2^28"},
                          {{scalar(-2), scalar(2)}, n + ": size K is -2"},
                      });
    CHECK_THROWS_WITH_AS(d->value_shape_at(views({scalar(0), scalar(2)})), doctest::Contains("size K is 0"),
                         ppl::stdlib::parameter_error);
    d->check(views(p3));
    d->check(views({scalar(1), scalar(0.1)}));  // K = 1: the matrix [1]
  }
  CHECK(chol.value_support(views(p3)).kind == ppl::stdlib::support_kind::cholesky_corr);
  CHECK(corr.value_support(views(p3)).kind == ppl::stdlib::support_kind::correlation);

  const tensor l = factor_of(y3, 3), omega = correlation_of(y3, 3);
  CHECK(chol.in_support(views(p3), l.as_view()));
  CHECK(corr.in_support(views(p3), omega.as_view()));
  CHECK_FALSE(chol.in_support(views(p3), omega.as_view()));  // not triangular
  CHECK_FALSE(corr.in_support(views(p3), l.as_view()));      // not symmetric
  CHECK_FALSE(chol.in_support(views({scalar(2), scalar(2)}), l.as_view()));  // the wrong size
  CHECK_FALSE(corr.in_support(views({scalar(4), scalar(2)}), omega.as_view()));
  auto moved = [](tensor t, std::size_t at, double by) {
    t.data[at] += by;
    return t;
  };
  CHECK(chol.in_support(views(p3), moved(l, 4, 1e-10).as_view()));        // rounding of values read as text
  CHECK_FALSE(chol.in_support(views(p3), moved(l, 3, 1e-4).as_view()));   // row 2 no longer of unit length
  CHECK_FALSE(chol.in_support(views(p3), moved(l, 1, 1e-4).as_view()));   // above the diagonal
  CHECK_FALSE(chol.in_support(views(p3), mat(2, 2, {1, 0, 0, -1}).as_view()));
  CHECK_FALSE(chol.in_support(views({scalar(2), scalar(2)}), mat(2, 2, {1, 0, 0, -1}).as_view()));  // a negative diagonal
  CHECK(corr.in_support(views(p3), moved(omega, 0, 1e-10).as_view()));
  CHECK_FALSE(corr.in_support(views(p3), moved(omega, 0, 1e-4).as_view()));  // diagonal not 1
  CHECK_FALSE(corr.in_support(views({scalar(2), scalar(2)}), corr2(1.2).as_view()));  // not positive definite
  CHECK_FALSE(corr.in_support(views({scalar(2), scalar(2)}), corr2(NAN).as_view()));
  // log_density: -inf where the formula is not defined.
  CHECK(log_density(corr, {scalar(2), scalar(2)}, corr2(1.2)) == -INFINITY);
  CHECK(log_density(corr, {scalar(2), scalar(2)}, mat(2, 2, {1, 0.3, 0.2, 1})) == -INFINITY);  // not symmetric
  CHECK(log_density(chol, {scalar(2), scalar(2)}, mat(2, 2, {1, 0, 1, 0})) == -INFINITY);
  CHECK(log_density(chol, {scalar(2), scalar(2)}, mat(2, 2, {1, 0, NAN, 1})) == -INFINITY);
  // K = 1: the one value [1], density 1.
  CHECK(log_density(chol, {scalar(1), scalar(3)}, mat(1, 1, {1})) == 0);
  CHECK(log_density(corr, {scalar(1), scalar(3)}, mat(1, 1, {1})) == 0);
}

TEST_CASE("LKJCorr and LKJCorrCholesky: draws' off-diagonal entries are 2 Beta(eta - 1 + K/2, eta - 1 + K/2) - 1") {
  auto self = [](const tensor& x) { return as_matrix(x); };
  check_marginal_moments("LKJCorr", 2, 0.7, 20000, 21, self);
  check_marginal_moments("LKJCorr", 3, 1.5, 20000, 22, self);
  check_marginal_moments("LKJCorr", 5, 0.8, 20000, 23, self);
  check_marginal_moments("LKJCorrCholesky", 3, 2.0, 20000, 24, product_of);
  check_marginal_moments("LKJCorrCholesky", 4, 6.0, 20000, 25, product_of);
  // The whole marginal, binned at the Beta's quantiles: an entry of the first column (a
  // partial correlation drawn directly) and one further in (built from two levels).
  for (const auto& [k, eta] : {std::pair<index_t, double>{3, 1.5}, {4, 0.6}}) {
    const double b = eta - 1 + 0.5 * static_cast<double>(k);
    const bm::beta_distribution<double> law(b, b);
    auto quantile = [&](double p) { return 2 * bm::quantile(law, p) - 1; };
    const std::vector<tensor> params = {scalar(static_cast<double>(k)), scalar(eta)};
    const auto last = static_cast<std::size_t>(k * k - 2);  // Omega[K, K - 1]
    check_statistic_draws(dist("LKJCorr"), params, [](const double* x) { return x[1]; }, quantile, 20000, 20, 31);
    check_statistic_draws(dist("LKJCorr"), params, [last](const double* x) { return x[last]; }, quantile, 20000, 20, 32);
    check_statistic_draws(
        dist("LKJCorrCholesky"), params,
        [k](const double* x) {
          double r = 0;  // (L L')[K, K - 1]
          for (index_t j = 0; j < k; ++j) r += x[(k - 1) * k + j] * x[(k - 2) * k + j];
          return r;
        },
        quantile, 20000, 20, 33);
  }
  check_draws_reproducible(dist("LKJCorr"), {scalar(3), scalar(2)}, 9);
  check_draws_reproducible(dist("LKJCorrCholesky"), {scalar(3), scalar(2)}, 9);
}

}  // namespace test_lkj_draws
