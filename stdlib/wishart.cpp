// Wishart(nu, S): a K x K symmetric positive-definite matrix with nu degrees of freedom and
// scale S, Stan's parametrisation (mean nu S):
//   log p(W) = (nu - K - 1)/2 log det W - tr(S^-1 W)/2 - nu K/2 log 2 - nu/2 log det S - log Gamma_K(nu/2).
// BUGS's dwish(R, k) on a precision is Wishart(k, inverse(R)).
#include "stdlib/library.hpp"
#include "stdlib/wishart_base.hpp"

namespace ppl::stdlib {

namespace {

class wishart final : public wishart_base {
 public:
  std::string_view name() const override { return "Wishart"; }

  // Gradients: d/dW = ((nu - K - 1) W^-1 - S^-1) / 2, d/dS = (S^-1 W S^-1 - nu S^-1) / 2,
  // d/dnu = (log det W - K log 2 - log det S - sum_j digamma(nu/2 - j/2)) / 2.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double nu = p[0][0];
    const index_t k = p[1].rows();
    Eigen::LLT<Eigen::MatrixXd> w_llt;
    if (!read_value(x, k, w_llt)) return -INFINITY;
    const auto s_llt = spd_factor(p[1]);
    const Eigen::MatrixXd w = symmetric_part(x), s_inv_w = s_llt.solve(w);
    const double log_det_w = log_determinant(w_llt), log_det_s = log_determinant(s_llt), kd = static_cast<double>(k);
    const double lp = 0.5 * (nu - kd - 1) * log_det_w - 0.5 * s_inv_w.trace() - 0.5 * nu * kd * std::log(2.0) - 0.5 * nu * log_det_s -
                      log_multi_gamma(k, 0.5 * nu);
    if (g) {
      const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(k, k), s_inv = s_llt.solve(id);
      if (g->value) add_matrix(g->value, 0.5 * ((nu - kd - 1) * w_llt.solve(id) - s_inv));
      if (g->params[0]) g->params[0][0] += 0.5 * (log_det_w - kd * std::log(2.0) - log_det_s - multi_digamma(k, 0.5 * nu));
      if (g->params[1]) add_matrix(g->params[1], 0.5 * (s_inv_w * s_inv - nu * s_inv));
    }
    return lp;
  }
  // The mean, nu S.
  bool typical(std::span<const view> p, double* out) const override {
    for (index_t i = 0; i < p[1].size(); ++i) out[i] = p[0][0] * p[1][i];
    return true;
  }
  void draw(std::span<const view> p, runtime::rng& rng, double* out) const override {
    const auto llt = spd_factor(p[1]);
    write_product(llt.matrixL() * bartlett(p[0][0], p[1].rows(), rng), out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_wishart() { return std::make_unique<wishart>(); }

}  // namespace ppl::stdlib
