// Wishart(nu, S): densities against closed forms (K = 1: a Boost.Math Gamma(nu/2, scale 2s);
// K = 2: worked by hand with Gamma_2(a) = sqrt(pi) Gamma(a) Gamma(a - 1/2)); draws against
// E[W] = nu S and the chi-square laws of a'Wa / a'Sa; gradients against finite
// differences; invalid parameters with their messages.
#include <Eigen/Dense>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <numbers>

#include "tests/stdlib/spd_matrices.hpp"

namespace test_wishart {

using namespace ppl::testing;
namespace bm = boost::math;

namespace {

// The K = 2 density written out: det and inverse of 2 x 2 matrices by hand.
double wishart_2x2(double nu, const tensor& s, const tensor& w) {
  const double ds = s.data[0] * s.data[3] - s.data[1] * s.data[2], dw = w.data[0] * w.data[3] - w.data[1] * w.data[2];
  const double trace = (s.data[3] * w.data[0] - s.data[1] * w.data[2] - s.data[2] * w.data[1] + s.data[0] * w.data[3]) / ds;
  const double log_gamma_2 = 0.5 * std::log(std::numbers::pi) + std::lgamma(nu / 2) + std::lgamma(nu / 2 - 0.5);
  return 0.5 * (nu - 3) * std::log(dw) - 0.5 * trace - nu * std::log(2.0) - 0.5 * nu * std::log(ds) - log_gamma_2;
}

}  // namespace

TEST_CASE("Wishart: log densities against closed forms") {
  const auto& d = dist("Wishart");
  const double one = std::log(bm::pdf(bm::gamma_distribution<double>(2.5, 2 * 1.7), 3.1));  // nu = 5, s = 1.7
  const tensor w2 = mat(2, 2, {3.0, -0.4, -0.4, 1.5}), w2b = mat(2, 2, {10.0, 4.0, 4.0, 6.0});
  check_log_densities(d, {
                             {{scalar(5), mat(1, 1, {1.7})}, mat(1, 1, {3.1}), one},
                             {{scalar(4), spd_2}, w2, wishart_2x2(4, spd_2, w2)},
                             {{scalar(7.5), spd_2}, w2b, wishart_2x2(7.5, spd_2, w2b)},
                             {{scalar(1.5), spd_2}, w2, wishart_2x2(1.5, spd_2, w2)},  // nu between K - 1 and K + 1
                             {{scalar(4), spd_2}, mat(2, 2, {1.0, 2.0, 2.0, 1.0}), -INFINITY},  // not positive definite
                             {{scalar(4), spd_2}, mat(2, 2, {1.0, 0.2, 0.3, 1.0}), -INFINITY},  // not symmetric
                             {{scalar(4), spd_2}, mat(2, 2, {1.0, NAN, NAN, 1.0}), -INFINITY},
                         });
  // Values computed in R (base R's det, solve and lgamma, the density of the header
  // comment of stdlib/wishart.cpp written out independently).
  CHECK(wishart_2x2(4, spd_2, w2) == doctest::Approx(-5.45523649324285).epsilon(1e-12));
  CHECK(log_density(d, {scalar(5.5), spd_3}, spd_3b) == doctest::Approx(-13.84207345095094).epsilon(1e-12));
}

TEST_CASE("Wishart: shapes, support and invalid parameters") {
  const auto& d = dist("Wishart");
  check_real_signature(d, {{"nu", 0}, {"S", 2}}, 2);
  CHECK(d.value_support(views({scalar(4), spd_2})).kind == ppl::stdlib::support_kind::covariance);
  CHECK(d.value_shape(std::vector<shape>{shape::scalar(), shape::matrix(3, 3)}) == shape::matrix(3, 3));
  CHECK_THROWS_WITH_AS(d.value_shape(std::vector<shape>{shape::scalar(), shape::matrix(2, 3)}),
                       "Wishart: scale matrix S is 2 x 3; it must be square", ppl::stdlib::parameter_error);
  CHECK(d.in_support(views({scalar(4), spd_2}), spd_2.as_view()));
  CHECK_FALSE(d.in_support(views({scalar(4), spd_2}), mat(2, 2, {1, 2, 2, 1}).as_view()));
  CHECK_FALSE(d.in_support(views({scalar(4), spd_2}), spd_3.as_view()));  // the wrong size
  check_invalid(d, {
                       {{scalar(1), spd_2}, "Wishart: degrees of freedom nu is 1; it must be finite and greater than K - 1 = 1 (S is 2 x 2)"},
                       {{scalar(2), spd_3}, "Wishart: degrees of freedom nu is 2; it must be finite and greater than K - 1 = 2"},
                       {{scalar(INFINITY), spd_2}, "Wishart: degrees of freedom nu is inf"},
                       {{scalar(NAN), spd_2}, "Wishart: degrees of freedom nu is nan"},
                       {{scalar(4), mat(2, 2, {1, 2, 2, 1})}, "Wishart: scale matrix S is not positive definite"},
                       {{scalar(4), mat(2, 2, {1, 0.5, 0.4, 1})}, "Wishart: scale matrix S is not symmetric: S[2, 1] is 0.4 but S[1, 2] is 0.5"},
                       {{scalar(4), mat(2, 2, {1, 0, 0, NAN})}, "Wishart: scale matrix S[2, 2] is nan; it must be finite"},
                   });
}

TEST_CASE("Wishart: draws have mean nu S, and a'Wa / a'Sa ~ ChiSquare(nu)") {
  const auto& d = dist("Wishart");
  const double nu = 6.5;
  // Var(W_ij) = nu (S_ij^2 + S_ii S_jj).
  auto at = [](index_t i, index_t j) { return spd_3.data[static_cast<std::size_t>(i * 3 + j)]; };
  check_matrix_draw_means(d, {scalar(nu), spd_3}, 3, 20000, 11, [&](index_t i, index_t j) { return nu * at(i, j); },
                          [&](index_t i, index_t j) { return nu * (at(i, j) * at(i, j) + at(i, i) * at(j, j)); });
  const bm::chi_squared law(nu);
  for (const std::vector<double>& a : {std::vector<double>{1, 0, 0}, {0.5, -1, 2}}) {
    const Eigen::Map<const Eigen::Vector3d> av(a.data());
    const double asa = av.dot(Eigen::Map<const Eigen::Matrix3d>(spd_3.data.data()) * av);
    check_statistic_draws(d, {scalar(nu), spd_3}, [&](const double* x) { return av.dot(Eigen::Map<const Eigen::Matrix3d>(x) * av) / asa; },
                          [&](double p) { return bm::quantile(law, p); }, 20000, 20, 12);
  }
  check_draws_reproducible(d, {scalar(nu), spd_3}, 9);
}

TEST_CASE("Wishart: gradients in W, nu and S match finite differences") {
  const auto& d = dist("Wishart");
  check_symmetric_value_gradient(d, {scalar(4), spd_2}, mat(2, 2, {3.0, -0.4, -0.4, 1.5}));
  check_symmetric_value_gradient(d, {scalar(5.5), spd_3}, spd_3b);
  check_symmetric_value_gradient(d, {scalar(3), mat(1, 1, {0.7})}, mat(1, 1, {2.2}));
}

}  // namespace test_wishart
