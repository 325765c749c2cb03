#pragma once
// What LKJCorr(K, eta) and LKJCorrCholesky(K, eta) share (stdlib/lkj_corr.cpp,
// stdlib/lkj_corr_cholesky.cpp): the size K, the shape eta > 0, the normalising constant
// with its derivative in eta, and draws.
//
// Lewandowski, Kurowicka & Joe (2009), "Generating random correlation matrices based on
// vines and extended onion method", J. Multivariate Anal. 100(9), 1989-2001: a K x K
// correlation matrix Omega has density c_K(eta) det(Omega)^(eta - 1). Its partial
// correlations on the C-vine, z_ij for i > j the correlation of variables i and j given
// variables 0..j-1 (numbered from 0), determine it (they are the z of
// stdlib/correlation_transform.hpp); det Omega = prod (1 - z_ij^2), and the map from them
// to Omega has Jacobian prod (1 - z_ij^2)^((K - 2 - j) / 2) (the paper's section 2 and
// 3.2). Under the LKJ density they are therefore independent, each with density
// proportional to (1 - z^2)^(b_j - 1), b_j = eta + (K - 2 - j) / 2: z_ij = 2 B - 1 with
// B ~ Beta(b_j, b_j). The integral of (1 - z^2)^(b - 1) over (-1, 1) is
// 2^(2b - 1) B(b, b), and level j holds K - 1 - j of them, so
//   log c_K(eta) = -sum_(j = 0..K-2) (K - 1 - j) [(2 b_j - 1) log 2 + log B(b_j, b_j)].
// (K = 2: Omega_12 = 2 B - 1 with B ~ Beta(eta, eta). By exchangeability every
// off-diagonal entry has the marginal of level 0, 2 Beta(b_0, b_0) - 1, b_0 = eta - 1 + K/2.)
//
// K is a parameter, where Stan reads it from the declaration (cholesky_factor_corr[K]):
// ppl takes a value's shape from its distribution's parameters, so K must be data.
#include <Eigen/Dense>
#include <boost/math/special_functions/digamma.hpp>
#include <numbers>
#include <vector>

#include "stdlib/checks.hpp"
#include "stdlib/correlation_transform.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

class lkj_base : public distribution {
 public:
  std::span<const param_spec> params() const override { return params_; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  int value_rank() const override { return 2; }
  // The shapes alone cannot say how large the value is; the graph asks value_shape_at.
  shape value_shape(std::span<const shape>) const override {
    throw std::logic_error(std::string(name()) + "'s shape reads the value of K: ask value_shape_at");
  }
  shape value_shape_at(std::span<const view> p) const override {
    const index_t k = size(p);
    return shape::matrix(k, k);
  }
  void check(std::span<const view> p) const override {
    size(p);
    check_positive(name(), "shape eta", p[1][0]);
  }
  // The identity: the mean of Omega (each off-diagonal entry's law is symmetric about 0),
  // its mode for eta > 1, and where the unconstrained coordinates are 0; for the Cholesky
  // factor, the factor of that mean.
  bool typical(std::span<const view> p, double* out) const override {
    const index_t k = size(p);
    for (index_t i = 0; i < k; ++i)
      for (index_t j = 0; j < k; ++j) out[i * k + j] = i == j ? 1.0 : 0.0;
    return true;
  }

 protected:
  // K, a positive integer; at most 2^28, so that K^2 elements cannot overflow (the graph
  // refuses more than 2^28 of them anyway).
  index_t size(std::span<const view> p) const {
    const double k = p[0][0];
    if (!(k >= 1) || k != std::floor(k) || k > 0x1p28) parameter_fail(name(), "size K", k, "a positive integer, at most 2^28");
    return static_cast<index_t>(k);
  }

  // log c_K(eta) of the header, and its derivative in eta (d/db log B(b, b) = 2 digamma(b)
  // - 2 digamma(2b)).
  static double log_normaliser(index_t k, double eta, double* d_eta) {
    double out = 0, d = 0;
    for (index_t j = 0; j + 1 < k; ++j) {
      const double b = eta + 0.5 * static_cast<double>(k - 2 - j), n = static_cast<double>(k - 1 - j);
      out -= n * ((2 * b - 1) * std::numbers::ln2 + 2 * log_gamma(b) - log_gamma(2 * b));
      if (d_eta) d -= n * 2 * (std::numbers::ln2 + boost::math::digamma(b) - boost::math::digamma(2 * b));
    }
    if (d_eta) *d_eta = d;
    return out;
  }

  // The unconstrained coordinates of a draw: each partial correlation 2 B - 1 with
  // B = G1 / (G1 + G2) ~ Beta(b, b) is tanh((log G1 - log G2) / 2) for G1, G2 independent
  // Gamma(b, 1), so y = (log G1 - log G2) / 2, computed from the logarithms (no
  // cancellation where b is large, no underflow where it is small).
  static std::vector<double> draw_coordinates(index_t k, double eta, ppl::rng& rng) {
    std::vector<double> y;
    y.reserve(cholesky_corr_transform::dimension(static_cast<std::size_t>(k)));
    for (index_t i = 1; i < k; ++i)
      for (index_t j = 0; j < i; ++j) {
        const double b = eta + 0.5 * static_cast<double>(k - 2 - j);
        const double g1 = log_gamma_draw(b, rng);  // in this order, whatever the compiler's
        y.push_back(0.5 * (g1 - log_gamma_draw(b, rng)));
      }
    return y;
  }

  // Whether x is k x k with finite entries.
  static bool finite_square(view x, index_t k) {
    if (x.shape.rank != 2 || x.rows() != k || x.cols() != k) return false;
    for (double v : x)
      if (!std::isfinite(v)) return false;
    return true;
  }

  // Stan's tolerance for a unit vector and a unit diagonal (CONSTRAINT_TOLERANCE): room for
  // the rounding of values read as text.
  static constexpr double tolerance = 1e-8;

 private:
  static constexpr param_spec params_[] = {{"K", scalar_kind::integer, 0, true}, {"eta", scalar_kind::real, 0}};
};

}  // namespace ppl::stdlib
