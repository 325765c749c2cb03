// LKJCorr(K, eta): a K x K correlation matrix Omega (symmetric positive-definite, unit
// diagonal), Stan's lkj_corr (stdlib/lkj_base.hpp has the normalising constant):
//   log p(Omega) = log c_K(eta) + (eta - 1) log det Omega.
// eta = 1 is uniform over correlation matrices; larger eta concentrates them about the
// identity, smaller eta away from it.
#include "stdlib/library.hpp"
#include "stdlib/lkj_base.hpp"
#include "stdlib/spd_matrix.hpp"

namespace ppl::stdlib {

namespace {

class lkj_corr final : public lkj_base {
 public:
  std::string_view name() const override { return "LKJCorr"; }
  support value_support(std::span<const view>) const override { return {support_kind::correlation}; }

  // Symmetric positive-definite K x K with a unit diagonal (within the tolerance).
  bool in_support(std::span<const view> p, view x) const override {
    const index_t k = size(p);
    if (!is_positive_definite(x, k)) return false;
    for (index_t i = 0; i < k; ++i)
      if (std::fabs(x.at(i, i) - 1) > tolerance) return false;
    return true;
  }

  // Gradients, each entry of Omega its own argument as for a Wishart (both triangles are
  // read, through (Omega + Omega') / 2): d/dOmega = (eta - 1) Omega^-1, d/deta =
  // d log c_K / deta + log det Omega. -inf where the density is not defined (not finite,
  // symmetric and positive definite); the unit diagonal is in_support's to check, against
  // which observed values are held when the data are bound, while an unknown's values
  // come from its transform, so that the gradient is the formula's in every entry.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const index_t k = size(p);
    if (!is_positive_definite(x, k)) return -INFINITY;
    const double eta = p[1][0];
    const Eigen::LLT<Eigen::MatrixXd> llt(symmetric_part(x));
    const double log_det = log_determinant(llt);
    double d_normaliser = 0;
    const double lp = log_normaliser(k, eta, g && g->params[1] ? &d_normaliser : nullptr) + (eta - 1) * log_det;
    if (g && g->value && eta != 1) add_matrix(g->value, (eta - 1) * llt.solve(Eigen::MatrixXd::Identity(k, k)));
    if (g && g->params[1]) g->params[1][0] += d_normaliser + log_det;
    return lp;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const index_t k = size(p);
    correlation_transform::to_constrained(draw_coordinates(k, p[1][0], rng).data(), static_cast<std::size_t>(k), out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_lkj_corr() { return std::make_unique<lkj_corr>(); }

}  // namespace ppl::stdlib
