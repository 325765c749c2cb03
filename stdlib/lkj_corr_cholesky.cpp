// LKJCorrCholesky(K, eta): the Cholesky factor L of a K x K correlation matrix (lower
// triangular, positive diagonal, rows of unit length) whose product L L' is LKJCorr(K,
// eta), Stan's lkj_corr_cholesky (stdlib/lkj_base.hpp has the normalising constant):
//   log p(L) = log c_K(eta) + sum_(i = 2..K) (K - i + 2 eta - 2) log L_ii   (i from 1),
// which is LKJCorr's (eta - 1) log det(L L') = 2 (eta - 1) sum_i log L_ii plus the log
// Jacobian of L -> L L' on these factors, sum_i (K - i) log L_ii
// (stdlib/correlation_transform.hpp derives it). L_11 = 1 and adds nothing.
#include "stdlib/library.hpp"
#include "stdlib/lkj_base.hpp"

namespace ppl::stdlib {

namespace {

class lkj_corr_cholesky final : public lkj_base {
 public:
  std::string_view name() const override { return "LKJCorrCholesky"; }
  support value_support(std::span<const view>) const override { return {support_kind::cholesky_corr}; }

  // K x K, zero above the diagonal, a positive diagonal and rows of unit length (within
  // the tolerance).
  bool in_support(std::span<const view> p, view x) const override {
    const index_t k = size(p);
    if (!finite_square(x, k)) return false;
    for (index_t i = 0; i < k; ++i) {
      double length = 0;
      for (index_t j = 0; j <= i; ++j) length += x.at(i, j) * x.at(i, j);
      for (index_t j = i + 1; j < k; ++j)
        if (std::fabs(x.at(i, j)) > tolerance) return false;
      if (!(x.at(i, i) > 0) || std::fabs(length - 1) > tolerance) return false;
    }
    return true;
  }

  // The density reads the diagonal alone, so its gradient in L is (K - i + 2 eta - 2) / L_ii
  // there and 0 elsewhere; d/deta = d log c_K / deta + 2 sum_i log L_ii. It is -inf where it
  // is not defined (a diagonal entry not positive, an entry not finite); the rows' unit
  // length is in_support's to check, against which observed values are held when the data
  // are bound, while an unknown's values come from its transform.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const index_t k = size(p);
    if (!finite_square(x, k)) return -INFINITY;
    const double eta = p[1][0];
    double d_normaliser = 0, sum_log = 0;
    double lp = log_normaliser(k, eta, g && g->params[1] ? &d_normaliser : nullptr);
    for (index_t i = 1; i < k; ++i) {
      const double l = x.at(i, i), power = static_cast<double>(k - 1 - i) + 2 * eta - 2;
      if (!(l > 0)) return -INFINITY;
      lp += power * std::log(l);
      sum_log += std::log(l);
      if (g && g->value) g->value[i * k + i] += power / l;
    }
    if (g && g->params[1]) g->params[1][0] += d_normaliser + 2 * sum_log;
    return lp;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const index_t k = size(p);
    cholesky_corr_transform::to_constrained(draw_coordinates(k, p[1][0], rng).data(), static_cast<std::size_t>(k), out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_lkj_corr_cholesky() { return std::make_unique<lkj_corr_cholesky>(); }

}  // namespace ppl::stdlib
