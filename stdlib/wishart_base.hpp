#pragma once
// What Wishart(nu, S) and InverseWishart(nu, S) share (stdlib/wishart.cpp,
// stdlib/inverse_wishart.cpp): a symmetric positive-definite K x K value, degrees of freedom
// nu > K - 1, a scale matrix S of the same size, and Bartlett's factor for draws.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>

#include "stdlib/gamma_draw.hpp"
#include "stdlib/spd_matrix.hpp"

namespace ppl::stdlib {

class wishart_base : public distribution {
 public:
  std::span<const param_spec> params() const override { return params_; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  int value_rank() const override { return 2; }
  shape value_shape(std::span<const shape> p) const override {
    check_square(name(), "scale matrix S", p[1]);
    return p[1];
  }
  void check(std::span<const view> p) const override {
    value_shape(std::array<shape, 2>{p[0].shape, p[1].shape});
    const double k = static_cast<double>(p[1].rows());
    if (!(p[0][0] > k - 1) || std::isinf(p[0][0]))
      parameter_fail(name(), "degrees of freedom nu", p[0][0], "finite and greater than K - 1 = " + format_number(k - 1) + " (S is " +
                                                                 std::to_string(p[1].rows()) + " x " + std::to_string(p[1].rows()) + ")");
    check_positive_definite(name(), "scale matrix S", p[1]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::covariance}; }
  bool in_support(std::span<const view> p, view x) const override { return is_positive_definite(x, p[1].rows()); }

 protected:
  // Bartlett (1933): with A lower triangular, A_ii^2 ~ ChiSquare(nu - i) (i from 0) and
  // A_ij ~ Normal(0, 1) below the diagonal, L A A' L' ~ Wishart(nu, L L').
  static Eigen::MatrixXd bartlett(double nu, index_t k, ppl::rng& rng) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(k, k);
    boost::random::normal_distribution<double> normal;
    for (index_t i = 0; i < k; ++i) {
      a(i, i) = std::sqrt(2 * std::exp(log_gamma_draw(0.5 * (nu - static_cast<double>(i)), rng)));
      for (index_t j = 0; j < i; ++j) a(i, j) = normal(rng);
    }
    return a;
  }
  // Writes B B' to out, exactly symmetric.
  static void write_product(const Eigen::MatrixXd& b, double* out) {
    const Eigen::MatrixXd m = b * b.transpose();
    const auto k = m.rows();
    for (Eigen::Index i = 0; i < k; ++i)
      for (Eigen::Index j = 0; j <= i; ++j) out[i * k + j] = out[j * k + i] = m(i, j);
  }
  // What both densities read: nu, K, the factors of W and S with their log determinants,
  // and the part of the normalising constant they share, -nu K/2 log 2 - log Gamma_K(nu/2),
  // with its derivative in nu.
  struct reading {
    double nu = 0, k = 0;
    Eigen::LLT<Eigen::MatrixXd> w, s;
    double log_det_w = 0, log_det_s = 0, log_normaliser = 0, d_log_normaliser = 0;
    Eigen::MatrixXd identity;
  };
  // False when W is not a finite symmetric positive-definite K x K matrix (off the support).
  static bool read(std::span<const view> p, view x, reading& r) {
    const index_t k = p[1].rows();
    if (!is_positive_definite(x, k)) return false;
    r.nu = p[0][0];
    r.k = static_cast<double>(k);
    r.w.compute(symmetric_part(x));
    r.s.compute(symmetric_part(p[1]));
    r.log_det_w = log_determinant(r.w);
    r.log_det_s = log_determinant(r.s);
    r.log_normaliser = -0.5 * r.nu * r.k * std::log(2.0) - log_multi_gamma(k, 0.5 * r.nu);
    r.d_log_normaliser = -0.5 * r.k * std::log(2.0) - 0.5 * multi_digamma(k, 0.5 * r.nu);
    r.identity = Eigen::MatrixXd::Identity(k, k);
    return true;
  }

 private:
  static constexpr param_spec params_[] = {{"nu", scalar_kind::real, 0}, {"S", scalar_kind::real, 2}};
};

}  // namespace ppl::stdlib
