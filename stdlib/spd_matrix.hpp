#pragma once
// Symmetric positive-definite matrices as parameters and values (MultiNormal's Sigma,
// MultiNormalPrec's Omega, Wishart's and InverseWishart's S and their values): the checks,
// whose messages name the distribution and the entry ("Wishart: scale matrix S[2, 1] is
// nan; it must be finite"), the factor read from both triangles, and log Gamma_p.
#include <Eigen/Dense>
#include <boost/math/special_functions/digamma.hpp>
#include <numbers>
#include <span>
#include <string>

#include "stdlib/checks.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

using row_matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// "Sigma[2, 1]", 1-based as in the language; built only for a message.
inline std::string matrix_entry(std::string_view what, index_t i, index_t j) {
  return std::string(what) + "[" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + "]";
}

// (M + M') / 2 of a square view: a density of it, and hence its gradient, treats M[i, j]
// and M[j, i] alike (they are equal once checked).
inline Eigen::MatrixXd symmetric_part(const view& m) {
  const row_matrix s = Eigen::Map<const row_matrix>(m.data, m.rows(), m.cols());
  return 0.5 * (s + s.transpose());
}

inline Eigen::LLT<Eigen::MatrixXd> spd_factor(const view& m) { return Eigen::LLT<Eigen::MatrixXd>(symmetric_part(m)); }

// log det M from its factor.
inline double log_determinant(const Eigen::LLT<Eigen::MatrixXd>& llt) {
  return 2 * llt.matrixLLT().diagonal().array().log().sum();
}

// Finite entries, M[i, j] equal to M[j, i] within a relative 1e-8, positive definite.
// `what` names the argument with its role ("covariance Sigma"); its last word is the name
// entries are shown with (Sigma[2, 1]).
inline void check_positive_definite(std::string_view dist, std::string_view what, const view& m) {
  const std::string_view name = what.substr(what.rfind(' ') + 1);
  for (index_t i = 0; i < m.rows(); ++i)
    for (index_t j = 0; j <= i; ++j) {
      const double a = m.at(i, j), b = m.at(j, i);
      if (!std::isfinite(a)) check_finite(dist, matrix_entry(what, i, j), a);
      if (!std::isfinite(b)) check_finite(dist, matrix_entry(what, j, i), b);
      if (std::fabs(a - b) > 1e-8 * (std::fabs(a) + std::fabs(b)))
        throw parameter_error(std::string(dist) + ": " + std::string(what) + " is not symmetric: " + matrix_entry(name, i, j) +
                              " is " + format_number(a) + " but " + matrix_entry(name, j, i) + " is " + format_number(b));
    }
  if (spd_factor(m).info() != Eigen::Success)
    throw parameter_error(std::string(dist) + ": " + std::string(what) + " is not positive definite");
}

// A square matrix parameter (the shapes alone): "Wishart: scale matrix S is 2 x 3; it must be square".
inline void check_square(std::string_view dist, std::string_view what, const shape& s) {
  if (s[0] != s[1])
    throw parameter_error(std::string(dist) + ": " + std::string(what) + " is " + std::to_string(s[0]) + " x " +
                          std::to_string(s[1]) + "; it must be square");
}

// A mean vector mu and a K x K matrix (MultiNormal's Sigma, MultiNormalPrec's Omega): the
// value's shape, or "MultiNormal: mu has size 3 but Sigma is 2 x 2; it must be 3 x 3".
inline shape mean_and_matrix_shape(std::string_view dist, std::string_view matrix, std::span<const shape> p) {
  if (p[1][0] != p[0][0] || p[1][1] != p[0][0]) {
    const std::string k = std::to_string(p[0][0]);
    throw parameter_error(std::string(dist) + ": mu has size " + k + " but " + std::string(matrix) + " is " + std::to_string(p[1][0]) +
                          " x " + std::to_string(p[1][1]) + "; it must be " + k + " x " + k);
  }
  return p[0];
}

inline void check_mean(std::string_view dist, const view& mu) {
  for (index_t i = 0; i < mu.size(); ++i)
    if (!std::isfinite(mu[i])) check_finite(dist, "mean mu[" + std::to_string(i + 1) + "]", mu[i]);
}

// Whether x is a finite, symmetric, positive-definite k x k matrix (a support's test).
inline bool is_positive_definite(view x, index_t k) {
  if (x.shape.rank != 2 || x.rows() != k || x.cols() != k) return false;
  try {
    check_positive_definite("", "x", x);
  } catch (const parameter_error&) {
    return false;
  }
  return true;
}

// log Gamma_p(a) = p (p - 1) / 4 log pi + sum_(j = 1..p) log Gamma(a + (1 - j) / 2), the
// multivariate gamma function of the Wishart's normalising constant; and its derivative in a.
inline double log_multi_gamma(index_t p, double a) {
  double out = 0.25 * static_cast<double>(p * (p - 1)) * std::log(std::numbers::pi);
  for (index_t j = 0; j < p; ++j) out += log_gamma(a - 0.5 * static_cast<double>(j));
  return out;
}
inline double multi_digamma(index_t p, double a) {
  double out = 0;
  for (index_t j = 0; j < p; ++j) out += boost::math::digamma(a - 0.5 * static_cast<double>(j));
  return out;
}

// Adds a symmetric K x K gradient into a row-major slot.
inline void add_matrix(double* slot, const Eigen::MatrixXd& d) {
  const auto k = d.rows();
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < k; ++j) slot[i * k + j] += d(i, j);
}

}  // namespace ppl::stdlib
