// Dirichlet(alpha): a simplex of alpha's size. A concentration of 0 is allowed, as JAGS
// allows it: that component is 0 with probability one, and the others follow the
// Dirichlet of their own concentrations (at least one must be positive). Such a simplex is
// drawn by its prior or its conjugate update; a sampler on the unconstrained scale, whose
// components are all positive, finds no point of its support.
#include <boost/math/special_functions/digamma.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec dirichlet_params[] = {{"alpha", scalar_kind::real, 1}};

class dirichlet final : public distribution {
 public:
  std::string_view name() const override { return "Dirichlet"; }
  std::span<const param_spec> params() const override { return dirichlet_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return p[0]; }
  void check(std::span<const view> p) const override {
    const view& alpha = p[0];
    if (alpha.size() == 0) throw parameter_error("Dirichlet: concentration alpha is empty");
    bool positive = false;
    for (index_t i = 0; i < alpha.size(); ++i) {
      if (!(alpha[i] >= 0) || std::isinf(alpha[i]))  // the message is built only on failure
        throw parameter_error("Dirichlet: concentration alpha[" + std::to_string(i + 1) + "] is " + format_number(alpha[i]) +
                              "; it must be non-negative and finite (0: that component is 0)");
      positive = positive || alpha[i] > 0;
    }
    if (!positive) throw parameter_error("Dirichlet: every concentration is 0; at least one must be positive");
  }
  support value_support(std::span<const view>) const override { return {support_kind::simplex}; }
  // As many non-negative entries as alpha has, summing to one within 1e-8: room for the
  // rounding of values read as text; 0 where the concentration is 0. log_density is -inf
  // everywhere else.
  bool in_support(std::span<const view> p, view x) const override {
    if (x.size() != p[0].size()) return false;
    double sum = 0;
    for (index_t i = 0; i < x.size(); ++i) {
      if (!(x[i] >= 0) || (p[0][i] == 0 && x[i] != 0)) return false;
      sum += x[i];
    }
    return std::fabs(sum - 1) <= 1e-8;
  }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    if (!in_support(p, x)) return -INFINITY;
    const view& alpha = p[0];
    double total = 0, lp = 0;
    for (index_t i = 0; i < alpha.size(); ++i) {
      if (alpha[i] == 0) continue;  // a component fixed at 0 adds nothing
      total += alpha[i];
      lp += xlogy(alpha[i] - 1, x[i]) - log_gamma(alpha[i]);
    }
    lp += log_gamma(total);
    if (g) {
      using boost::math::digamma;
      double dt = g->params[0] ? digamma(total) : 0;
      for (index_t i = 0; i < alpha.size(); ++i) {
        if (alpha[i] == 0) continue;
        if (g->value) g->value[i] += xdivy(alpha[i] - 1, x[i]);
        if (g->params[0]) g->params[0][i] += dt - digamma(alpha[i]) + std::log(x[i]);
      }
    }
    return lp;
  }
  // Normalised gammas, drawn in log space (see gamma_draw.hpp) so that the small
  // concentrations of topic models (0.01) do not underflow to zero.
  // A typical value to start from: the mean, alpha / sum(alpha).
  bool typical(std::span<const view> p, double* out) const override {
    double sum = 0;
    for (index_t i = 0; i < p[0].size(); ++i) sum += p[0][i];
    for (index_t i = 0; i < p[0].size(); ++i) out[i] = p[0][i] / sum;
    return true;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const view& alpha = p[0];
    double max_log = -INFINITY;
    for (index_t i = 0; i < alpha.size(); ++i)
      max_log = std::max(max_log, out[i] = alpha[i] > 0 ? log_gamma_draw(alpha[i], rng) : -INFINITY);
    double sum = 0;
    for (index_t i = 0; i < alpha.size(); ++i) sum += out[i] = std::exp(out[i] - max_log);
    for (index_t i = 0; i < alpha.size(); ++i) out[i] /= sum;
  }
};

}  // namespace

std::unique_ptr<distribution> make_dirichlet() { return std::make_unique<dirichlet>(); }

}  // namespace ppl::stdlib
