// MultiNormal(mu, Sigma): a real vector with mean mu and covariance Sigma.
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/library.hpp"
#include "stdlib/spd_matrix.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec multi_normal_params[] = {{"mu", scalar_kind::real, 1}, {"Sigma", scalar_kind::real, 2}};

class multi_normal final : public distribution {
 public:
  std::string_view name() const override { return "MultiNormal"; }
  std::span<const param_spec> params() const override { return multi_normal_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return mean_and_matrix_shape(name(), "Sigma", p); }
  void check(std::span<const view> p) const override {
    value_shape(std::array<shape, 2>{p[0].shape, p[1].shape});
    check_mean(name(), p[0]);
    check_positive_definite(name(), "covariance Sigma", p[1]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_vector}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    for (double v : x)
      if (!std::isfinite(v)) return -INFINITY;
    index_t k = p[0].size();
    auto llt = spd_factor(p[1]);
    Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(x.data, k) - Eigen::Map<const Eigen::VectorXd>(p[0].data, k);
    Eigen::VectorXd w = llt.matrixL().solve(r);
    double log_det = 0;
    for (index_t i = 0; i < k; ++i) log_det += std::log(llt.matrixL()(i, i));
    double lp = -0.5 * w.squaredNorm() - log_det;
    if (with_constants) lp -= 0.5 * static_cast<double>(k) * std::log(2 * std::numbers::pi);
    if (g) {
      Eigen::VectorXd sr = llt.solve(r);  // Sigma^-1 (x - mu)
      for (index_t i = 0; i < k; ++i) {
        if (g->value) g->value[i] -= sr[i];
        if (g->params[0]) g->params[0][i] += sr[i];
      }
      if (g->params[1]) {
        Eigen::MatrixXd inv = llt.solve(Eigen::MatrixXd::Identity(k, k));
        Eigen::MatrixXd d = 0.5 * (sr * sr.transpose() - inv);
        for (index_t i = 0; i < k; ++i)
          for (index_t j = 0; j < k; ++j) g->params[1][i * k + j] += d(i, j);
      }
    }
    return lp;
  }
  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    for (index_t i = 0; i < p[0].size(); ++i) out[i] = p[0][i];
    return true;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    index_t k = p[0].size();
    auto llt = spd_factor(p[1]);
    Eigen::VectorXd z(k);
    boost::random::normal_distribution<double> normal;
    for (index_t i = 0; i < k; ++i) z[i] = normal(rng);
    Eigen::Map<Eigen::VectorXd>(out, k) = Eigen::Map<const Eigen::VectorXd>(p[0].data, k) + llt.matrixL() * z;
  }
};

}  // namespace

std::unique_ptr<distribution> make_multi_normal() { return std::make_unique<multi_normal>(); }

}  // namespace ppl::stdlib
