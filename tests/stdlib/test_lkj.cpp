// LKJCorr(K, eta) and LKJCorrCholesky(K, eta) (stdlib/lkj_corr.cpp,
// stdlib/lkj_corr_cholesky.cpp, the constant in stdlib/lkj_base.hpp): their densities,
// checked without the derivation they share:
// - K = 2 against Boost.Math's Beta(eta, eta) on (Omega_12 + 1) / 2;
// - the normaliser for K = 3 in closed form (integrating det^(eta - 1) directly, below),
//   at eta = 1 the volume of the correlation matrices, which brute-force Monte Carlo over
//   the cube finds too for K = 3 and 4; for K = 4 and 5 at other eta by Monte Carlo over
//   the partial correlations through the transform's Jacobian
//   (stdlib/correlation_transform.hpp, itself held to finite differences in
//   test_block_transforms.cpp);
// - the Cholesky form against LKJCorr plus the Jacobian of L -> L L', whose determinant is
//   taken by finite differences.
// Gradients, supports and draws: test_lkj_draws.cpp. Seeds fixed.
#include <boost/math/distributions/beta.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <numbers>

#include "tests/stdlib/lkj_values.hpp"

namespace test_lkj {

using namespace ppl::testing;
namespace bm = boost::math;
using ppl::stdlib::correlation_transform;

namespace {

// log |det| of the map from the entries of a correlation factor L below its diagonal (the
// diagonal following, sqrt(1 - the row's other squares)) to those of L L' below theirs,
// by central differences at L.
double finite_difference_log_jacobian(const Eigen::MatrixXd& l) {
  const Eigen::Index k = l.rows(), dim = k * (k - 1) / 2;
  auto lower_of_product = [k](const std::vector<double>& below) {
    Eigen::MatrixXd f = Eigen::MatrixXd::Zero(k, k);
    std::size_t at = 0;
    for (Eigen::Index i = 0; i < k; ++i) {
      double rest = 1;
      for (Eigen::Index j = 0; j < i; ++j, ++at) rest -= (f(i, j) = below[at]) * below[at];
      f(i, i) = std::sqrt(rest);
    }
    const Eigen::MatrixXd p = f * f.transpose();
    std::vector<double> out;
    for (Eigen::Index i = 0; i < k; ++i)
      for (Eigen::Index j = 0; j < i; ++j) out.push_back(p(i, j));
    return out;
  };
  std::vector<double> below;
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < i; ++j) below.push_back(l(i, j));
  Eigen::MatrixXd numeric(dim, dim);
  for (Eigen::Index c = 0; c < dim; ++c) {
    auto up = below, down = below;
    up[static_cast<std::size_t>(c)] += 1e-6, down[static_cast<std::size_t>(c)] -= 1e-6;
    const auto fu = lower_of_product(up), fd = lower_of_product(down);
    for (Eigen::Index r = 0; r < dim; ++r) numeric(r, c) = (fu[static_cast<std::size_t>(r)] - fd[static_cast<std::size_t>(r)]) / 2e-6;
  }
  return std::log(std::fabs(numeric.determinant()));
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
  ppl::rng rng(5);
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
    ppl::rng rng(7);
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
  // triangular by blocks: prod_i prod_(j < i) L_jj = prod_j L_jj^(K - j). Checked by the
  // finite-difference determinant of that map too.
  const auto& chol = dist("LKJCorrCholesky");
  const auto& corr = dist("LKJCorr");
  for (const auto& [k, y] : {std::pair<index_t, std::vector<double>>{2, {0.7}}, {3, y3}, {4, y4}, {5, y5}}) {
    const tensor l = factor_of(y, k);
    const Eigen::MatrixXd lm = as_matrix(l), om = lm * lm.transpose();
    double jacobian = 0;
    for (index_t i = 0; i < k; ++i) jacobian += static_cast<double>(k - 1 - i) * std::log(lm(i, i));
    INFO("K ", k);
    CHECK(finite_difference_log_jacobian(lm) == doctest::Approx(jacobian).epsilon(1e-6));
    tensor omega = mat(k, k, std::vector<double>(om.data(), om.data() + k * k));
    for (const double eta : {0.6, 1.0, 3.5}) {
      INFO("eta ", eta);
      const std::vector<tensor> params = {scalar(static_cast<double>(k)), scalar(eta)};
      CHECK(log_density(chol, params, l) == doctest::Approx(log_density(corr, params, omega) + jacobian).epsilon(1e-11));
    }
  }
}

}  // namespace test_lkj
