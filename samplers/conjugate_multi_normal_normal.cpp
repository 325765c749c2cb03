// Multivariate normal priors on a vector v:
//   - Normal children whose mean is linear in v (dot(v, x[n]) + c): the posterior is
//     Gaussian with precision P0 + sum c c' / s^2 and mean its inverse times
//     P0 m + sum c (y - c0) / s^2 (Bayesian linear regression; a user's feature vector in
//     matrix factorisation).
//   - MultiNormal or MultiNormalPrec children whose mean is v (the mean of a population of
//     vectors): precision P0 + sum P_i, mean its inverse times P0 m + sum P_i x_i, with P_i
//     the child's precision.
// P0 is the prior's precision: MultiNormal(m, S) gives S^-1, MultiNormalPrec(m, P0) gives it.
// Statistics per block: b (K numbers) then P (K x K, row-major, its lower triangle read);
// the children's log density in v is v' b - v' P v / 2.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>

#include "samplers/conjugate.hpp"

namespace ppl::samplers {

namespace {

using matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Adds w c y to b and w c c' to P's lower triangle (row i, columns j <= i), the only part
// read: the draw and the kernel see P through selfadjointView<Lower>. Half the work of the
// whole matrix, in runs the compiler vectorises: the loop a rating costs in matrix
// factorisation.
inline __attribute__((always_inline)) void add_linear_rows(const double* c, double y, double w, ppl::index_t k, double* stats) {
  double* p = stats + k;
  for (ppl::index_t i = 0; i < k; ++i) {
    const double cw = c[i] * w;
    stats[i] += cw * y;
    double* row = p + i * k;
    for (ppl::index_t j = 0; j <= i; ++j) row[j] += cw * c[j];
  }
}

// The same with the size known at compile time, its loops unrolled.
template <ppl::index_t K>
void add_linear_fixed(const double* c, double y, double w, double* stats) {
  add_linear_rows(c, y, w, K, stats);
}

void add_linear(const double* c, double y, double w, ppl::index_t k, double* stats) {
  switch (k) {
    case 2: return add_linear_fixed<2>(c, y, w, stats);
    case 3: return add_linear_fixed<3>(c, y, w, stats);
    case 4: return add_linear_fixed<4>(c, y, w, stats);
    case 5: return add_linear_fixed<5>(c, y, w, stats);
    case 8: return add_linear_fixed<8>(c, y, w, stats);
    case 10: return add_linear_fixed<10>(c, y, w, stats);
    case 16: return add_linear_fixed<16>(c, y, w, stats);
    case 20: return add_linear_fixed<20>(c, y, w, stats);
    default: return add_linear_rows(c, y, w, k, stats);
  }
}

// MultiNormalPrec(m, P)'s log density in v, up to terms free of it: -(v - m)' P (v - m) / 2.
double precision_prior_kernel(std::span<const ppl::view> prior, const double* v, ppl::index_t k) {
  double quadratic = 0;
  for (ppl::index_t i = 0; i < k; ++i) {
    const double ri = v[i] - prior[0][i];
    double row = 0;
    for (ppl::index_t j = 0; j < k; ++j) row += prior[1][i * k + j] * (v[j] - prior[0][j]);
    quadratic += ri * row;
  }
  return -0.5 * quadratic;
}

// Draws from N(Q^-1 (P0 m + b), Q^-1), Q = P0 + P. The working matrices are kept per
// thread: a sweep of matrix factorisation draws thousands of small blocks.
template <bool precision>
void draw_gaussian(std::span<const ppl::view> prior, const double* stats, ppl::rng& rng, double* out, ppl::index_t k) {
  thread_local Eigen::MatrixXd prior_precision, q;
  thread_local Eigen::VectorXd mean, z;
  thread_local Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt;
  Eigen::Map<const Eigen::VectorXd> m(prior[0].data, k), b(stats, k);
  Eigen::Map<const matrix> s(prior[1].data, k, k), p(stats + k, k, k);
  if (precision) prior_precision = s;
  else prior_precision = Eigen::MatrixXd(s).llt().solve(Eigen::MatrixXd::Identity(k, k));
  // Only the lower triangle of the sum is read, the part of P that is kept.
  q = prior_precision + p;
  llt.compute(q);
  mean.noalias() = prior_precision * m;
  mean += b;
  llt.solveInPlace(mean);
  // mean + L^-T z, where L L' is the posterior precision.
  z.resize(k);
  boost::random::normal_distribution<double> normal;
  for (ppl::index_t i = 0; i < k; ++i) z[i] = normal(rng);
  llt.matrixU().solveInPlace(z);
  Eigen::Map<Eigen::VectorXd>(out, k) = mean + z;
}

// v' b - v' P v / 2 with P read from its lower triangle.
double gaussian_kernel(const double* stats, const double* v, ppl::index_t k) {
  const double* p = stats + k;
  double linear = 0, quadratic = 0;
  for (ppl::index_t i = 0; i < k; ++i) {
    linear += v[i] * stats[i];
    const double* row = p + i * k;
    double off = 0;
    for (ppl::index_t j = 0; j < i; ++j) off += row[j] * v[j];
    quadratic += v[i] * (2 * off + row[i] * v[i]);
  }
  return linear - 0.5 * quadratic;
}

// Normal children linear in v. x: the residual y - c0; args: the coefficients c and s.
void accumulate_normal(std::size_t, ppl::view x, std::span<const ppl::view> args, double* stats) {
  add_linear(args[0].data, x[0], 1 / (args[1][0] * args[1][0]), args[0].size(), stats);
}

// MultiNormal (which 0: a covariance) or MultiNormalPrec (which 1: a precision) children
// whose mean is v: b += P x, P += P.
void accumulate_vectors(std::size_t which, ppl::view x, std::span<const ppl::view> args, double* stats) {
  const ppl::index_t k = x.size();
  Eigen::Map<const matrix> given(args[1].data, k, k);
  if (which == 1) {
    Eigen::Map<Eigen::VectorXd>(stats, k).noalias() += given * Eigen::Map<const Eigen::VectorXd>(x.data, k);
    Eigen::Map<matrix>(stats + k, k, k) += given;
    return;
  }
  const Eigen::MatrixXd p = Eigen::MatrixXd(given).llt().solve(Eigen::MatrixXd::Identity(k, k));
  Eigen::Map<Eigen::VectorXd>(stats, k) += p * Eigen::Map<const Eigen::VectorXd>(x.data, k);
  Eigen::Map<matrix>(stats + k, k, k) += p;
}

}  // namespace

conjugate_pair multi_normal_normal_pair() {
  return {"multi_normal_normal", "MultiNormal", {{"Normal", 0, link::linear}}, -1, accumulate_normal, draw_gaussian<false>, gaussian_kernel,
          add_linear};
}

conjugate_pair multi_normal_prec_normal_pair() {
  return {"multi_normal_prec_normal", "MultiNormalPrec", {{"Normal", 0, link::linear}}, -1, accumulate_normal, draw_gaussian<true>,
          gaussian_kernel, add_linear, precision_prior_kernel};
}

conjugate_pair multi_normal_mean_pair() {
  return {"multi_normal_mean", "MultiNormal", {{"MultiNormal", 0}, {"MultiNormalPrec", 0}}, -1, accumulate_vectors, draw_gaussian<false>,
          gaussian_kernel};
}

conjugate_pair multi_normal_prec_mean_pair() {
  return {"multi_normal_prec_mean", "MultiNormalPrec", {{"MultiNormal", 0}, {"MultiNormalPrec", 0}}, -1, accumulate_vectors,
          draw_gaussian<true>, gaussian_kernel, nullptr, precision_prior_kernel};
}

}  // namespace ppl::samplers
