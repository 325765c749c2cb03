// Wishart and InverseWishart priors on the precision or covariance of multivariate normal
// children (the Normal-Wishart model of a population of vectors; BPMF's hyperpriors).
//   Wishart(nu, S) on W, children MultiNormalPrec(m_i, W) or MultiNormalPrec(m_i, c_i W)
//   with c_i free of unknowns (a mean's prior scaled by beta0, as in Salakhutdinov & Mnih
//   2008): W | children ~ Wishart(nu + n, (S^-1 + sum c_i r_i r_i')^-1), r_i = x_i - m_i.
//   InverseWishart(nu, S) on C, children MultiNormal(m_i, C) or MultiNormal(m_i, c_i C):
//   C | children ~ InverseWishart(nu + n, S + sum r_i r_i' / c_i).
// Statistics per matrix: A = sum c_i r_i r_i' (or sum r_i r_i' / c_i), K x K row-major,
// then n. The children's log density in W is n/2 log|W| - tr(W A) / 2; in C,
// -n/2 log|C| - tr(C^-1 A) / 2.
#include <Eigen/Dense>
#include <array>

#include "samplers/conjugate.hpp"
#include "stdlib/registry.hpp"

namespace ppl::samplers {

namespace {

using matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// which 0: the matrix itself; which 1: c times it, c passed as the argument.
template <bool inverse>
void accumulate_residual(std::size_t which, ppl::view x, std::span<const ppl::view> args, double* stats) {
  const ppl::index_t k = x.size();
  const double c = which == 0 ? 1.0 : args[1][0], w = inverse ? 1 / c : c;
  for (ppl::index_t i = 0; i < k; ++i) {
    const double ri = w * (x[i] - args[0][i]);
    for (ppl::index_t j = 0; j < k; ++j) stats[i * k + j] += ri * (x[j] - args[0][j]);
  }
  stats[k * k] += 1;
}

ppl::index_t side(ppl::index_t size) {
  ppl::index_t k = 0;
  while (k * k < size) ++k;
  return k;
}

// Draws from the posterior by the prior's own distribution at the updated (nu, S).
template <bool inverse>
void draw_matrix(std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t size) {
  const ppl::index_t k = side(size);
  Eigen::Map<const matrix> s(prior[1].data, k, k), a(stats, k, k);
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(k, k);
  matrix scale = inverse ? matrix(Eigen::MatrixXd(s) + Eigen::MatrixXd(a))
                         : matrix((Eigen::MatrixXd(s).llt().solve(identity) + Eigen::MatrixXd(a)).llt().solve(identity));
  scale = (0.5 * (scale + scale.transpose())).eval();  // exactly symmetric, as the checks require
  const double nu = prior[0][0] + stats[k * k];
  static const stdlib::distribution* wishart = stdlib::library().find_distribution(inverse ? "InverseWishart" : "Wishart");
  const std::array<ppl::view, 2> params = {ppl::view{&nu, ppl::shape::scalar()},
                                               ppl::view{scale.data(), ppl::shape::matrix(k, k)}};
  wishart->draw(params, rng, out);
}

template <bool inverse>
double matrix_kernel(const double* stats, const double* value, ppl::index_t size) {
  const ppl::index_t k = side(size);
  Eigen::Map<const matrix> w(value, k, k), a(stats, k, k);
  Eigen::LLT<Eigen::MatrixXd> llt{Eigen::MatrixXd(w)};
  if (llt.info() != Eigen::Success) return -INFINITY;
  const double log_det = 2 * llt.matrixLLT().diagonal().array().log().sum();
  const double trace = inverse ? llt.solve(Eigen::MatrixXd(a)).trace() : (Eigen::MatrixXd(w) * Eigen::MatrixXd(a)).trace();
  return (inverse ? -0.5 : 0.5) * stats[k * k] * log_det - 0.5 * trace;
}

// The prior's log density in its value alone: Wishart(nu, S) on W, (nu - K - 1)/2 log|W| -
// tr(S^-1 W) / 2; InverseWishart(nu, S) on C, -(nu + K + 1)/2 log|C| - tr(S C^-1) / 2.
template <bool inverse>
double matrix_prior_kernel(std::span<const ppl::view> prior, const double* value, ppl::index_t size) {
  const ppl::index_t k = side(size);
  Eigen::Map<const matrix> w(value, k, k), s(prior[1].data, k, k);
  Eigen::LLT<Eigen::MatrixXd> llt{Eigen::MatrixXd(w)};
  if (llt.info() != Eigen::Success) return -INFINITY;
  const double log_det = 2 * llt.matrixLLT().diagonal().array().log().sum(), nu = prior[0][0];
  if (inverse) return -0.5 * (nu + static_cast<double>(k) + 1) * log_det - 0.5 * llt.solve(Eigen::MatrixXd(s)).trace();
  return 0.5 * (nu - static_cast<double>(k) - 1) * log_det - 0.5 * Eigen::MatrixXd(s).llt().solve(Eigen::MatrixXd(w)).trace();
}

// Coordinate ascent's prior in the statistics' coordinates (inference/cavi_wishart.cpp):
// Wishart(nu, S) adds S^-1 to A and nu to the count, so that the posterior is
// Wishart(total count, total A^-1); InverseWishart(nu, S) adds S itself, its posterior
// InverseWishart(total count, total A).
template <bool inverse>
void matrix_prior_stats(std::span<const ppl::view> prior, double* stats) {
  const ppl::index_t k = side(prior[1].size());
  Eigen::Map<const matrix> s(prior[1].data, k, k);
  const Eigen::MatrixXd added = inverse ? Eigen::MatrixXd(s) : Eigen::MatrixXd(Eigen::MatrixXd(s).llt().solve(Eigen::MatrixXd::Identity(k, k)));
  for (ppl::index_t i = 0; i < k; ++i)
    for (ppl::index_t j = 0; j < k; ++j) stats[i * k + j] += added(i, j);
  stats[k * k] += prior[0][0];
}

}  // namespace

conjugate_pair wishart_precision_pair() {
  conjugate_pair p{"wishart_precision", "Wishart", {{"MultiNormalPrec", 1}, {"MultiNormalPrec", 1, link::scaled}}, -1,
                   accumulate_residual<false>, draw_matrix<false>, matrix_kernel<false>, nullptr, matrix_prior_kernel<false>};
  p.prior_stats = matrix_prior_stats<false>;
  return p;
}

conjugate_pair inverse_wishart_covariance_pair() {
  conjugate_pair p{"inverse_wishart_covariance", "InverseWishart", {{"MultiNormal", 1}, {"MultiNormal", 1, link::scaled}}, -1,
                   accumulate_residual<true>, draw_matrix<true>, matrix_kernel<true>, nullptr, matrix_prior_kernel<true>};
  p.prior_stats = matrix_prior_stats<true>;
  return p;
}

}  // namespace ppl::samplers
