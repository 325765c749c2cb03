// MultiNormal(m, S) prior on a vector v, Normal children whose mean is linear in v
// (dot(v, x[n]) + c): the posterior is Gaussian with precision S^-1 + sum c c' / s^2 and
// mean its inverse times S^-1 m + sum c (y - c0) / s^2 (Bayesian linear regression).
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>

#include "samplers/conjugate.hpp"

namespace ppl::samplers {

conjugate_pair multi_normal_normal_pair() {
  return {"multi_normal_normal",
          "MultiNormal",
          {{"Normal", 0, link::linear}},
          -1,
          // x: the residual y - c0; args: the coefficients c and the scale s.
          [](std::size_t, runtime::view x, std::span<const runtime::view> args, double* stats) {
            runtime::index_t k = args[0].size();
            double w = 1 / (args[1][0] * args[1][0]);
            for (runtime::index_t i = 0; i < k; ++i) {
              stats[i] += args[0][i] * x[0] * w;
              for (runtime::index_t j = 0; j < k; ++j) stats[k + i * k + j] += args[0][i] * args[0][j] * w;
            }
          },
          [](std::span<const runtime::view> prior, const double* stats, runtime::rng& rng, double* out, runtime::index_t k) {
            using matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
            Eigen::Map<const Eigen::VectorXd> m(prior[0].data, k), b(stats, k);
            Eigen::Map<const matrix> s(prior[1].data, k, k), p(stats + k, k, k);
            Eigen::MatrixXd prior_precision = Eigen::MatrixXd(s).llt().solve(Eigen::MatrixXd::Identity(k, k));
            Eigen::LLT<Eigen::MatrixXd> llt(prior_precision + Eigen::MatrixXd(p));
            Eigen::VectorXd mean = llt.solve(prior_precision * m + b);
            // Draw mean + L^-T z, where L L' is the posterior precision.
            Eigen::VectorXd z(k);
            boost::random::normal_distribution<double> normal;
            for (runtime::index_t i = 0; i < k; ++i) z[i] = normal(rng);
            Eigen::Map<Eigen::VectorXd>(out, k) = mean + llt.matrixU().solve(z);
          },
          // exp(v' b - v' P v / 2)
          [](const double* stats, const double* v, runtime::index_t k) {
            using matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
            Eigen::Map<const Eigen::VectorXd> x(v, k), b(stats, k);
            Eigen::Map<const matrix> p(stats + k, k, k);
            return x.dot(b) - 0.5 * x.dot(p * x);
          }};
}

}  // namespace ppl::samplers
