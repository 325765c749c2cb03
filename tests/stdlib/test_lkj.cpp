// LKJCorr(K, eta) and LKJCorrCholesky(K, eta) (stdlib/lkj_corr.cpp,
// stdlib/lkj_corr_cholesky.cpp, the constant in stdlib/lkj_base.hpp), checked without
// the derivation they share:
// - K = 2 against Boost.Math's Beta(eta, eta) on (Omega_12 + 1) / 2;
// - the normaliser for K = 3 in closed form (integrating det^(eta - 1) directly, below),
//   at eta = 1 the volume of the correlation matrices, which brute-force Monte Carlo over
//   the cube finds too for K = 3 and 4; for K = 4 and 5 at other eta by Monte Carlo over
//   the partial correlations through the transform's Jacobian
//   (stdlib/correlation_transform.hpp, itself held to finite differences in
//   test_block_transforms.cpp);
// - the Cholesky form against LKJCorr plus the Jacobian of L -> L L', whose determinant is
//   taken by finite differences;
// - gradients against finite differences; draws' off-diagonal marginals against
//   2 Beta(eta - 1 + K/2, eta - 1 + K/2) - 1 (moments within 4 standard errors, and
//   chi-square), every draw in the support. Seeds fixed.
#include <Eigen/Dense>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <numbers>

#include "stdlib/correlation_transform.hpp"
#include "tests/stdlib/distribution_checks.hpp"

using namespace ppl::testing;
namespace bm = boost::math;
using ppl::stdlib::cholesky_corr_transform;
using ppl::stdlib::correlation_transform;

namespace {

tensor corr2(double r) { return mat(2, 2, {1, r, r, 1}); }

// The Cholesky factor and the correlation matrix of unconstrained coordinates y.
tensor factor_of(const std::vector<double>& y, index_t k) {
  tensor l = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
  cholesky_corr_transform::to_constrained(y.data(), static_cast<std::size_t>(k), l.data.data());
  return l;
}
tensor correlation_of(const std::vector<double>& y, index_t k) {
  tensor m = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
  correlation_transform::to_constrained(y.data(), static_cast<std::size_t>(k), m.data.data());
  return m;
}

const std::vector<double> y3 = {0.4, -0.9, 0.6}, y4 = {0.2, -0.6, 1.1, 0.4, -0.3, 0.9};
const std::vector<double> y5 = {0.2, -0.6, 1.1, 0.4, -0.3, 0.9, -1.4, 0.05, 0.6, -0.2};

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
  ppl::runtime::rng rng(seed);
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

Eigen::MatrixXd as_matrix(const tensor& x) {
  const auto k = x.shape[0];
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(x.data.data(), k, k);
}
Eigen::MatrixXd product_of(const tensor& l) {
  const Eigen::MatrixXd m = as_matrix(l);
  return m * m.transpose();
}

}  // namespace

TEST_CASE("LKJCorr: K = 2, (Omega_12 + 1) / 2 ~ Beta(eta, eta), so p(r) is the Beta density at (r + 1) / 2 over 2") {
  const auto& d = dist("LKJCorr");
  for (const double eta : {0.5, 1.0, 2.5, 7.0})
    for (const double r : {-0.9, -0.3, 0.0, 0.45, 0.8}) {
      INFO("eta ", eta, ", r ", r);
      const double beta = std::log(bm::pdf(bm::beta_distribution<double>(eta, eta), (r + 1) / 2) / 2);
      CHECK(log_density(d, {scalar(2), scalar(eta)}, corr2(r)) == doctest::Approx(beta).epsilon(1e-12));
    }
}

TEST_CASE("LKJCorr: the normaliser for K = 3 in closed form, and at eta = 1 the volume of the correlation matrices") {
  // For K = 3, det Omega = a^2 - (r23 - r12 r13)^2 with a^2 = (1 - r12^2)(1 - r13^2), so
  // integrating det^(eta - 1) over r23 in r12 r13 +- a gives a^(2 eta - 1) B(1/2, eta),
  // and each of r12, r13 then (1 - r^2)^(eta - 1/2), whose integral is B(1/2, eta + 1/2):
  // 1 / c_3(eta) = B(1/2, eta) B(1/2, eta + 1/2)^2. At the identity det = 1: log p = log c.
  const auto& d = dist("LKJCorr");
  for (const double eta : {0.3, 1.0, 1.7, 4.0, 25.0}) {
    INFO("eta ", eta);
    const double c = -std::log(bm::beta(0.5, eta) * std::pow(bm::beta(0.5, eta + 0.5), 2));
    CHECK(log_density(d, {scalar(3), scalar(eta)}, mat(3, 3, {1, 0, 0, 0, 1, 0, 0, 0, 1})) == doctest::Approx(c).epsilon(1e-12));
  }
  // eta = 1, uniform: c_K is one over the volume of the K x K correlation matrices, 2,
  // pi^2 / 2 and 32 pi^2 / 27 (Joe 2006, J. Multivariate Anal. 97), which the fraction of
  // the cube [-1, 1]^(K (K - 1) / 2) holding positive-definite matrices confirms.
  const double volumes[] = {2, std::numbers::pi * std::numbers::pi / 2, 32 * std::numbers::pi * std::numbers::pi / 27};
  ppl::runtime::rng rng(5);
  boost::random::uniform_real_distribution<double> u(-1, 1);
  for (index_t k = 2; k <= 4; ++k) {
    const double volume = volumes[k - 2];
    tensor identity = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
    for (index_t i = 0; i < k; ++i) identity.data[static_cast<std::size_t>(i * k + i)] = 1;
    CHECK(log_density(d, {scalar(static_cast<double>(k)), scalar(1)}, identity) == doctest::Approx(-std::log(volume)).epsilon(1e-12));
    if (k == 2) continue;  // every r in (-1, 1) will do
    const int n = 400000;
    int inside = 0;
    const double cube = std::pow(2.0, static_cast<double>(k * (k - 1) / 2));
    for (int t = 0; t < n; ++t) {
      Eigen::MatrixXd m = Eigen::MatrixXd::Identity(k, k);
      for (index_t i = 1; i < k; ++i)
        for (index_t j = 0; j < i; ++j) m(i, j) = m(j, i) = u(rng);
      inside += Eigen::LLT<Eigen::MatrixXd>(m).info() == Eigen::Success;
    }
    const double f = static_cast<double>(inside) / n;
    INFO("K ", k, ": fraction ", f);
    CHECK(std::fabs(f * cube - volume) < 4 * cube * std::sqrt(f * (1 - f) / n));
  }
}

TEST_CASE("LKJCorr: the normaliser for K = 4 and 5, by Monte Carlo over uniform partial correlations") {
  // With z = tanh(y) uniform on (-1, 1)^d, the density of z is p(Omega(y)) |dOmega/dy| /
  // prod (1 - z^2), which integrates to 1: 2^d times its mean is 1 within 4 standard
  // errors. |dOmega/dy| is the transform's, checked by finite differences elsewhere.
  const auto& d = dist("LKJCorr");
  for (const auto& [k, eta] : {std::pair<index_t, double>{4, 2.5}, {4, 1.0}, {5, 1.3}}) {
    const auto dim = static_cast<std::size_t>(k * (k - 1) / 2);
    ppl::runtime::rng rng(7);
    boost::random::uniform_real_distribution<double> u(-1, 1);
    const int n = 400000;
    std::vector<double> y(dim);
    tensor omega = mat(k, k, std::vector<double>(static_cast<std::size_t>(k * k)));
    double sum = 0, sum2 = 0;
    for (int t = 0; t < n; ++t) {
      double log_dz = 0;
      for (double& v : y) {
        const double z = u(rng);
        v = std::atanh(z);
        log_dz += std::log1p(-z * z);
      }
      const double log_jacobian = correlation_transform::to_constrained(y.data(), static_cast<std::size_t>(k), omega.data.data());
      const double w = std::exp(log_density(d, {scalar(static_cast<double>(k)), scalar(eta)}, omega) + log_jacobian - log_dz +
                                static_cast<double>(dim) * std::numbers::ln2);
      sum += w;
      sum2 += w * w;
    }
    const double mean = sum / n, se = std::sqrt((sum2 / n - mean * mean) / n);
    INFO("K ", k, ", eta ", eta, ": integral ", mean, " +- ", se);
    CHECK(std::fabs(mean - 1) < 4 * se);
    CHECK(se < 0.01);  // precise enough to see a wrong constant
  }
}

TEST_CASE("LKJCorrCholesky: LKJCorr's density at L L' plus log |d(L L')/dL| = sum_i (K - i) log L_ii") {
  // On the factors, L is set by its entries below the diagonal (L_ii = sqrt(1 - the row's
  // other squares)) and Omega by its own: row i of Omega below the diagonal is L_i. times
  // the first i - 1 rows of L (i from 1), a triangular map whose determinant is
  // prod_(j < i) L_jj; rows of Omega read only rows of L up to their own, so the whole is
  // triangular by blocks: prod_i prod_(j < i) L_jj = prod_j L_jj^(K - j). Checked here
  // by the finite-difference determinant of that map too.
  const auto& chol = dist("LKJCorrCholesky");
  const auto& corr = dist("LKJCorr");
  for (const auto& [k, y] : {std::pair<index_t, std::vector<double>>{2, {0.7}}, {3, y3}, {4, y4}, {5, y5}}) {
    const tensor l = factor_of(y, k);
    const Eigen::MatrixXd lm = as_matrix(l), om = lm * lm.transpose();
    double jacobian = 0;
    for (index_t i = 0; i < k; ++i) jacobian += static_cast<double>(k - 1 - i) * std::log(lm(i, i));
    // The determinant of (entries of L below the diagonal) -> (those of L L').
    const auto dim = static_cast<Eigen::Index>(k * (k - 1) / 2);
    auto lower_of_product = [&](std::vector<double> below) {
      Eigen::MatrixXd f = Eigen::MatrixXd::Zero(k, k);
      std::size_t at = 0;
      for (index_t i = 0; i < k; ++i) {
        double rest = 1;
        for (index_t j = 0; j < i; ++j, ++at) rest -= (f(i, j) = below[at]) * below[at];
        f(i, i) = std::sqrt(rest);
      }
      const Eigen::MatrixXd p = f * f.transpose();
      std::vector<double> out;
      for (index_t i = 0; i < k; ++i)
        for (index_t j = 0; j < i; ++j) out.push_back(p(i, j));
      return out;
    };
    std::vector<double> below;
    for (index_t i = 0; i < k; ++i)
      for (index_t j = 0; j < i; ++j) below.push_back(lm(i, j));
    Eigen::MatrixXd numeric(dim, dim);
    for (Eigen::Index c = 0; c < dim; ++c) {
      auto up = below, down = below;
      up[static_cast<std::size_t>(c)] += 1e-6, down[static_cast<std::size_t>(c)] -= 1e-6;
      const auto fu = lower_of_product(up), fd = lower_of_product(down);
      for (Eigen::Index r = 0; r < dim; ++r) numeric(r, c) = (fu[static_cast<std::size_t>(r)] - fd[static_cast<std::size_t>(r)]) / 2e-6;
    }
    INFO("K ", k);
    CHECK(std::log(std::fabs(numeric.determinant())) == doctest::Approx(jacobian).epsilon(1e-6));
    tensor omega = mat(k, k, std::vector<double>(om.data(), om.data() + k * k));
    for (const double eta : {0.6, 1.0, 3.5}) {
      INFO("eta ", eta);
      const std::vector<tensor> params = {scalar(static_cast<double>(k)), scalar(eta)};
      CHECK(log_density(chol, params, l) == doctest::Approx(log_density(corr, params, omega) + jacobian).epsilon(1e-11));
    }
  }
}

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
