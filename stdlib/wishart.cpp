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
    reading r;
    if (!read(p, x, r)) return -INFINITY;
    const Eigen::MatrixXd s_inv_w = r.s.solve(symmetric_part(x));
    const double lp = 0.5 * (r.nu - r.k - 1) * r.log_det_w - 0.5 * s_inv_w.trace() - 0.5 * r.nu * r.log_det_s + r.log_normaliser;
    if (g) {
      const Eigen::MatrixXd s_inv = r.s.solve(r.identity);
      if (g->value) add_matrix(g->value, 0.5 * ((r.nu - r.k - 1) * r.w.solve(r.identity) - s_inv));
      if (g->params[0]) g->params[0][0] += 0.5 * (r.log_det_w - r.log_det_s) + r.d_log_normaliser;
      if (g->params[1]) add_matrix(g->params[1], 0.5 * (s_inv_w * s_inv - r.nu * s_inv));
    }
    return lp;
  }
  // The mean, nu S.
  bool typical(std::span<const view> p, double* out) const override {
    for (index_t i = 0; i < p[1].size(); ++i) out[i] = p[0][0] * p[1][i];
    return true;
  }
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const auto llt = spd_factor(p[1]);
    write_product(llt.matrixL() * bartlett(p[0][0], p[1].rows(), rng), out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_wishart() { return std::make_unique<wishart>(); }

}  // namespace ppl::stdlib
