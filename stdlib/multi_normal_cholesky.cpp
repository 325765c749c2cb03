// MultiNormalCholesky(mu, L): a real vector with mean mu and covariance L L', given by
// its lower Cholesky factor L (Stan's multi_normal_cholesky; only L's lower triangle is
// read):
//   log p(x) = -|L^-1 (x - mu)|^2 / 2 - sum_i log L_ii - K/2 log(2 pi).
// Beside LKJCorrCholesky it takes a covariance's factor as Stan models build it,
// diag_pre_multiply(tau, L_Omega), with no factorisation at each evaluation.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/library.hpp"
#include "stdlib/spd_matrix.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec multi_normal_cholesky_params[] = {{"mu", scalar_kind::real, 1}, {"L", scalar_kind::real, 2}};

// L's lower triangle, as a column-major matrix for Eigen's triangular solves.
Eigen::MatrixXd lower_factor(const view& l) {
  return Eigen::Map<const row_matrix>(l.data, l.rows(), l.cols()).triangularView<Eigen::Lower>();
}

class multi_normal_cholesky final : public distribution {
 public:
  std::string_view name() const override { return "MultiNormalCholesky"; }
  std::span<const param_spec> params() const override { return multi_normal_cholesky_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return mean_and_matrix_shape(name(), "L", p); }
  // The lower triangle finite and the diagonal positive; the upper triangle is not read.
  void check(std::span<const view> p) const override {
    value_shape(std::array<shape, 2>{p[0].shape, p[1].shape});
    check_mean(name(), p[0]);
    const view& l = p[1];
    for (index_t i = 0; i < l.rows(); ++i) {
      for (index_t j = 0; j < i; ++j)
        if (!std::isfinite(l.at(i, j))) check_finite(name(), matrix_entry("Cholesky factor L", i, j), l.at(i, j));
      if (!(l.at(i, i) > 0) || std::isinf(l.at(i, i))) check_positive(name(), matrix_entry("Cholesky factor L", i, i), l.at(i, i));
    }
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_vector}; }

  // With w = L^-1 (x - mu) and u = L^-T w = Sigma^-1 (x - mu): d/dx = -u, d/dmu = u, and
  // d/dL_ij = u_i w_j on the lower triangle, less 1 / L_ii on the diagonal.
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    for (double v : x)
      if (!std::isfinite(v)) return -INFINITY;
    const index_t k = p[0].size();
    const Eigen::MatrixXd l = lower_factor(p[1]);
    const Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(x.data, k) - Eigen::Map<const Eigen::VectorXd>(p[0].data, k);
    const Eigen::VectorXd w = l.triangularView<Eigen::Lower>().solve(r);
    double lp = -0.5 * w.squaredNorm() - l.diagonal().array().log().sum();
    if (with_constants) lp -= 0.5 * static_cast<double>(k) * std::log(2 * std::numbers::pi);
    if (!g) return lp;
    const Eigen::VectorXd u = l.transpose().triangularView<Eigen::Upper>().solve(w);
    for (index_t i = 0; i < k; ++i) {
      if (g->value) g->value[i] -= u[i];
      if (g->params[0]) g->params[0][i] += u[i];
      if (g->params[1])
        for (index_t j = 0; j <= i; ++j) g->params[1][i * k + j] += u[i] * w[j] - (i == j ? 1 / l(i, i) : 0.0);
    }
    return lp;
  }
  // The mean.
  bool typical(std::span<const view> p, double* out) const override {
    for (index_t i = 0; i < p[0].size(); ++i) out[i] = p[0][i];
    return true;
  }
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const index_t k = p[0].size();
    Eigen::VectorXd z(k);
    boost::random::normal_distribution<double> normal;
    for (index_t i = 0; i < k; ++i) z[i] = normal(rng);
    Eigen::Map<Eigen::VectorXd>(out, k) = Eigen::Map<const Eigen::VectorXd>(p[0].data, k) + lower_factor(p[1]) * z;
  }
};

}  // namespace

std::unique_ptr<distribution> make_multi_normal_cholesky() { return std::make_unique<multi_normal_cholesky>(); }

}  // namespace ppl::stdlib
