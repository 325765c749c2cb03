// Multivariate normal priors on a vector v:
//   - Normal children whose mean is linear in v (dot(v, x[n]) + c): the posterior is
//     Gaussian with precision P0 + sum c c' / s^2 and mean its inverse times
//     P0 m + sum c (y - c0) / s^2 (Bayesian linear regression; a user's feature vector in
//     matrix factorisation).
//   - MultiNormal or MultiNormalPrec children whose mean is v (the mean of a population of
//     vectors): precision P0 + sum P_i, mean its inverse times P0 m + sum P_i x_i, with P_i
//     the child's precision.
// P0 is the prior's precision: MultiNormal(m, S) gives S^-1, MultiNormalPrec(m, P0) gives it.
// Statistics per block: b (K numbers) then P (K x K, row-major); the children's log
// density in v is v' b - v' P v / 2.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>

#include "samplers/conjugate.hpp"

namespace ppl::samplers {

namespace {

using matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Adds w c c' to P and w c y to b.
void add_linear(const double* c, double y, double w, runtime::index_t k, double* stats) {
  for (runtime::index_t i = 0; i < k; ++i) {
    stats[i] += c[i] * y * w;
    for (runtime::index_t j = 0; j < k; ++j) stats[k + i * k + j] += c[i] * c[j] * w;
  }
}

// Draws from N(Q^-1 (P0 m + b), Q^-1), Q = P0 + P.
template <bool precision>
void draw_gaussian(std::span<const runtime::view> prior, const double* stats, runtime::rng& rng, double* out, runtime::index_t k) {
  Eigen::Map<const Eigen::VectorXd> m(prior[0].data, k), b(stats, k);
  Eigen::Map<const matrix> s(prior[1].data, k, k), p(stats + k, k, k);
  const Eigen::MatrixXd prior_precision =
      precision ? Eigen::MatrixXd(s) : Eigen::MatrixXd(Eigen::MatrixXd(s).llt().solve(Eigen::MatrixXd::Identity(k, k)));
  Eigen::LLT<Eigen::MatrixXd> llt(prior_precision + Eigen::MatrixXd(p));
  Eigen::VectorXd mean = llt.solve(prior_precision * m + b);
  // mean + L^-T z, where L L' is the posterior precision.
  Eigen::VectorXd z(k);
  boost::random::normal_distribution<double> normal;
  for (runtime::index_t i = 0; i < k; ++i) z[i] = normal(rng);
  Eigen::Map<Eigen::VectorXd>(out, k) = mean + llt.matrixU().solve(z);
}

double gaussian_kernel(const double* stats, const double* v, runtime::index_t k) {
  Eigen::Map<const Eigen::VectorXd> x(v, k), b(stats, k);
  Eigen::Map<const matrix> p(stats + k, k, k);
  return x.dot(b) - 0.5 * x.dot(p * x);
}

// Normal children linear in v. x: the residual y - c0; args: the coefficients c and s.
void accumulate_normal(std::size_t, runtime::view x, std::span<const runtime::view> args, double* stats) {
  add_linear(args[0].data, x[0], 1 / (args[1][0] * args[1][0]), args[0].size(), stats);
}

// MultiNormal (which 0: a covariance) or MultiNormalPrec (which 1: a precision) children
// whose mean is v: b += P x, P += P.
void accumulate_vectors(std::size_t which, runtime::view x, std::span<const runtime::view> args, double* stats) {
  const runtime::index_t k = x.size();
  Eigen::Map<const matrix> given(args[1].data, k, k);
  const Eigen::MatrixXd p = which == 1 ? Eigen::MatrixXd(given) : Eigen::MatrixXd(Eigen::MatrixXd(given).llt().solve(Eigen::MatrixXd::Identity(k, k)));
  Eigen::Map<Eigen::VectorXd>(stats, k) += p * Eigen::Map<const Eigen::VectorXd>(x.data, k);
  Eigen::Map<matrix>(stats + k, k, k) += p;
}

}  // namespace

conjugate_pair multi_normal_normal_pair() {
  return {"multi_normal_normal", "MultiNormal", {{"Normal", 0, link::linear}}, -1, accumulate_normal, draw_gaussian<false>, gaussian_kernel};
}

conjugate_pair multi_normal_prec_normal_pair() {
  return {"multi_normal_prec_normal", "MultiNormalPrec", {{"Normal", 0, link::linear}}, -1, accumulate_normal, draw_gaussian<true>, gaussian_kernel};
}

conjugate_pair multi_normal_mean_pair() {
  return {"multi_normal_mean", "MultiNormal", {{"MultiNormal", 0}, {"MultiNormalPrec", 0}}, -1, accumulate_vectors, draw_gaussian<false>,
          gaussian_kernel};
}

conjugate_pair multi_normal_prec_mean_pair() {
  return {"multi_normal_prec_mean", "MultiNormalPrec", {{"MultiNormal", 0}, {"MultiNormalPrec", 0}}, -1, accumulate_vectors,
          draw_gaussian<true>, gaussian_kernel};
}

}  // namespace ppl::samplers
