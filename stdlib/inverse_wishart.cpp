// InverseWishart(nu, S): a K x K symmetric positive-definite matrix whose inverse is
// Wishart(nu, S^-1), Stan's inv_wishart (mean S / (nu - K - 1) where nu > K + 1):
//   log p(W) = nu/2 log det S - nu K/2 log 2 - log Gamma_K(nu/2) - (nu + K + 1)/2 log det W - tr(S W^-1)/2.
#include "stdlib/library.hpp"
#include "stdlib/wishart_base.hpp"

namespace ppl::stdlib {

namespace {

class inverse_wishart final : public wishart_base {
 public:
  std::string_view name() const override { return "InverseWishart"; }

  // Gradients: d/dW = (W^-1 S W^-1 - (nu + K + 1) W^-1) / 2, d/dS = (nu S^-1 - W^-1) / 2,
  // d/dnu = (log det S - K log 2 - sum_j digamma(nu/2 - j/2) - log det W) / 2.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    reading r;
    if (!read(p, x, r)) return -INFINITY;
    const Eigen::MatrixXd w_inv_s = r.w.solve(symmetric_part(p[1]));
    const double lp = 0.5 * r.nu * r.log_det_s - 0.5 * (r.nu + r.k + 1) * r.log_det_w - 0.5 * w_inv_s.trace() + r.log_normaliser;
    if (g) {
      const Eigen::MatrixXd w_inv = r.w.solve(r.identity);
      if (g->value) add_matrix(g->value, 0.5 * (w_inv_s * w_inv - (r.nu + r.k + 1) * w_inv));
      if (g->params[0]) g->params[0][0] += 0.5 * (r.log_det_s - r.log_det_w) + r.d_log_normaliser;
      if (g->params[1]) add_matrix(g->params[1], 0.5 * (r.nu * r.s.solve(r.identity) - w_inv));
    }
    return lp;
  }
  // The mean S / (nu - K - 1) where it is finite, else the mode S / (nu + K + 1).
  bool typical(std::span<const view> p, double* out) const override {
    const double nu = p[0][0], k = static_cast<double>(p[1].rows());
    const double divisor = nu > k + 1 ? nu - k - 1 : nu + k + 1;
    for (index_t i = 0; i < p[1].size(); ++i) out[i] = p[1][i] / divisor;
    return true;
  }
  // W = X^-1 for X ~ Wishart(nu, S^-1) = L'^-1 A A' L^-1 (S = L L', A Bartlett's factor):
  // W = B B' with B = L A'^-1.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const auto llt = spd_factor(p[1]);
    const Eigen::MatrixXd a = bartlett(p[0][0], p[1].rows(), rng);
    const Eigen::MatrixXd l = llt.matrixL();
    write_product(a.transpose().triangularView<Eigen::Upper>().solve<Eigen::OnTheRight>(l), out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_inverse_wishart() { return std::make_unique<inverse_wishart>(); }

}  // namespace ppl::stdlib
