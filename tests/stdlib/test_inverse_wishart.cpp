// InverseWishart(nu, S): densities against closed forms (K = 1: a Boost.Math inverse
// Gamma(nu/2, scale s/2); K = 2, 3: values computed in R), and against the Wishart through
// the inversion W -> W^-1 (Jacobian |W|^-(K + 1)); draws against E[W] = S / (nu - K - 1)
// and the inverse-Gamma law of each diagonal entry; gradients against finite differences.
#include <Eigen/Dense>
#include <boost/math/distributions/inverse_gamma.hpp>

#include "tests/stdlib/spd_matrices.hpp"

namespace test_inverse_wishart {

using namespace ppl::testing;
namespace bm = boost::math;

TEST_CASE("InverseWishart: log densities against closed forms and the Wishart") {
  const auto& d = dist("InverseWishart");
  const double one = std::log(bm::pdf(bm::inverse_gamma_distribution<double>(2.5, 0.85), 0.6));  // nu = 5, s = 1.7
  check_log_densities(d, {
                             {{scalar(5), mat(1, 1, {1.7})}, mat(1, 1, {0.6}), one},
                             {{scalar(4), spd_2}, mat(2, 2, {3.0, -0.4, -0.4, 1.5}), -8.11888294105196},  // R
                             {{scalar(5.5), spd_3}, spd_3b, -24.57589366966155},                              // R
                             {{scalar(9), spd_3}, spd_3b, -37.51353883602332},                                // R
                             {{scalar(4), spd_2}, mat(2, 2, {1.0, 2.0, 2.0, 1.0}), -INFINITY},
                         });
  // p_IW(W | nu, S) = p_W(W^-1 | nu, S^-1) |W|^-(K + 1).
  const double log_det_w = std::log(Eigen::Map<const Eigen::Matrix3d>(spd_3b.data.data()).determinant());
  CHECK(log_density(d, {scalar(6.5), spd_3}, spd_3b) ==
        doctest::Approx(log_density(dist("Wishart"), {scalar(6.5), inverse(spd_3)}, inverse(spd_3b)) - 4 * log_det_w).epsilon(1e-10));
}

TEST_CASE("InverseWishart: shapes, support and invalid parameters") {
  const auto& d = dist("InverseWishart");
  check_real_signature(d, {{"nu", 0}, {"S", 2}}, 2);
  CHECK(d.value_support(views({scalar(4), spd_2})).kind == ppl::stdlib::support_kind::covariance);
  CHECK_THROWS_WITH_AS(d.value_shape(std::vector<shape>{shape::scalar(), shape::matrix(3, 2)}),
                       "InverseWishart: scale matrix S is 3 x 2; it must be square", ppl::stdlib::parameter_error);
  check_invalid(d, {
                       {{scalar(0.5), spd_2}, "InverseWishart: degrees of freedom nu is 0.5; it must be finite and greater than K - 1 = 1"},
                       {{scalar(4), mat(2, 2, {-1, 0, 0, 1})}, "InverseWishart: scale matrix S is not positive definite"},
                   });
}

TEST_CASE("InverseWishart: draws have mean S / (nu - K - 1); W_ii ~ InverseGamma((nu - K + 1) / 2, S_ii / 2)") {
  const auto& d = dist("InverseWishart");
  const double nu = 9, k = 3;
  // Var(W_ij) = ((nu - K + 1) S_ij^2 + (nu - K - 1) S_ii S_jj) / ((nu - K) (nu - K - 1)^2 (nu - K - 3)).
  auto at = [](index_t i, index_t j) { return spd_3.data[static_cast<std::size_t>(i * 3 + j)]; };
  check_matrix_draw_means(d, {scalar(nu), spd_3}, 3, 40000, 21, [&](index_t i, index_t j) { return at(i, j) / (nu - k - 1); },
                          [&](index_t i, index_t j) {
                            return ((nu - k + 1) * at(i, j) * at(i, j) + (nu - k - 1) * at(i, i) * at(j, j)) /
                                   ((nu - k) * (nu - k - 1) * (nu - k - 1) * (nu - k - 3));
                          });
  for (std::size_t i = 0; i < 3; ++i) {
    const bm::inverse_gamma_distribution<double> law((nu - k + 1) / 2, spd_3.data[i * 4] / 2);
    check_draws_continuous(d, {scalar(nu), spd_3}, [&](double p) { return bm::quantile(law, p); }, i * 4, 20000, 20, 22 + static_cast<unsigned>(i));
  }
  check_draws_reproducible(d, {scalar(nu), spd_3}, 9);
}

TEST_CASE("InverseWishart: gradients in W, nu and S match finite differences") {
  const auto& d = dist("InverseWishart");
  check_symmetric_value_gradient(d, {scalar(4), spd_2}, mat(2, 2, {3.0, -0.4, -0.4, 1.5}));
  check_symmetric_value_gradient(d, {scalar(5.5), spd_3}, spd_3b);
  check_symmetric_value_gradient(d, {scalar(3), mat(1, 1, {0.7})}, mat(1, 1, {2.2}));
}

}  // namespace test_inverse_wishart
