// MultiNormalPrec(mu, Omega): a real vector with mean mu and precision (inverse covariance)
// Omega, Stan's multi_normal_prec and BUGS's dmnorm(mu, Omega):
//   log p(x) = -K/2 log(2 pi) + 1/2 log det Omega - 1/2 (x - mu)' Omega (x - mu).
#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/library.hpp"
#include "stdlib/spd_matrix.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec multi_normal_prec_params[] = {{"mu", scalar_kind::real, 1}, {"Omega", scalar_kind::real, 2}};

class multi_normal_prec final : public distribution {
 public:
  std::string_view name() const override { return "MultiNormalPrec"; }
  std::span<const param_spec> params() const override { return multi_normal_prec_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return mean_and_matrix_shape(name(), "Omega", p); }
  void check(std::span<const view> p) const override {
    value_shape(std::array<shape, 2>{p[0].shape, p[1].shape});
    check_mean(name(), p[0]);
    check_positive_definite(name(), "precision Omega", p[1]);
  }
  support value_support(std::span<const view>) const override { return {support_kind::real_vector}; }

  // Gradients: d/dx = -Omega r and d/dmu = Omega r with r = x - mu; d/dOmega = (Omega^-1 - r r') / 2.
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    for (double v : x)
      if (!std::isfinite(v)) return -INFINITY;
    const index_t k = p[0].size();
    const Eigen::MatrixXd omega = symmetric_part(p[1]);
    const Eigen::LLT<Eigen::MatrixXd> llt(omega);
    const Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(x.data, k) - Eigen::Map<const Eigen::VectorXd>(p[0].data, k);
    const Eigen::VectorXd omega_r = omega * r;
    double lp = 0.5 * log_determinant(llt) - 0.5 * r.dot(omega_r);
    if (with_constants) lp -= 0.5 * static_cast<double>(k) * std::log(2 * std::numbers::pi);
    if (g) {
      for (index_t i = 0; i < k; ++i) {
        if (g->value) g->value[i] -= omega_r[i];
        if (g->params[0]) g->params[0][i] += omega_r[i];
      }
      if (g->params[1]) add_matrix(g->params[1], 0.5 * (llt.solve(Eigen::MatrixXd::Identity(k, k)) - r * r.transpose()));
    }
    return lp;
  }
  bool typical(std::span<const view> p, double* out) const override {
    for (index_t i = 0; i < p[0].size(); ++i) out[i] = p[0][i];
    return true;
  }
  // x = mu + L'^-1 z with Omega = L L': its covariance is L'^-1 L^-1 = Omega^-1.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const index_t k = p[0].size();
    const auto llt = spd_factor(p[1]);
    Eigen::VectorXd z(k);
    boost::random::normal_distribution<double> normal;
    for (index_t i = 0; i < k; ++i) z[i] = normal(rng);
    Eigen::Map<Eigen::VectorXd>(out, k) = Eigen::Map<const Eigen::VectorXd>(p[0].data, k) + llt.matrixU().solve(z);
  }
};

}  // namespace

std::unique_ptr<distribution> make_multi_normal_prec() { return std::make_unique<multi_normal_prec>(); }

}  // namespace ppl::stdlib
