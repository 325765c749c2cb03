// DirichletMultinomial(n, alpha): Multinomial(n, p) with p ~ Dirichlet(alpha) integrated out;
// counts of alpha's size summing to n. Stan's dirichlet_multinomial leaves n implicit in
// the counts (and asks for it in its _rng); here it is an argument, as in Multinomial.
//   log p(x) = log n! - sum log x_i! + log Gamma(A) - log Gamma(n + A)
//              + sum (log Gamma(x_i + alpha_i) - log Gamma(alpha_i)),  A = sum alpha
#include <boost/math/special_functions/digamma.hpp>
#include <string>
#include <vector>

#include "stdlib/checks.hpp"
#include "stdlib/gamma_draw.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/multinomial_draw.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec dirichlet_multinomial_params[] = {{"n", scalar_kind::integer, 0}, {"alpha", scalar_kind::real, 1}};

class dirichlet_multinomial final : public distribution {
 public:
  std::string_view name() const override { return "DirichletMultinomial"; }
  std::span<const param_spec> params() const override { return dirichlet_multinomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return shape::vector(p[1].size()); }

  void check(std::span<const view> p) const override {
    check_count(name(), "number of trials n", p[0][0]);
    const view& alpha = p[1];
    if (alpha.size() == 0) throw parameter_error("DirichletMultinomial: concentration alpha is empty");
    for (index_t i = 0; i < alpha.size(); ++i)
      if (!(alpha[i] > 0) || std::isinf(alpha[i]))  // the message is built only on failure
        check_positive(name(), "concentration alpha[" + std::to_string(i + 1) + "]", alpha[i]);
  }

  bool support_moves() const override { return true; }
  bool support_reads(std::size_t param) const override { return param == 0; }  // n
  support value_support(std::span<const view> p) const override { return {support_kind::count_vector, 0, p[0][0]}; }

  bool in_support(std::span<const view> p, view x) const override { return counts_summing_to(x, p[1].size(), p[0][0]); }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    if (!in_support(p, x)) return -INFINITY;
    const double n = p[0][0];
    const view& alpha = p[1];
    double total = 0, lp = 0;
    for (index_t i = 0; i < x.size(); ++i) {
      total += alpha[i];
      lp += log_gamma(x[i] + alpha[i]) - log_gamma(alpha[i]);
      // The multinomial coefficient depends only on the integer counts.
      if (with_constants) lp -= log_factorial(x[i]);
    }
    lp += log_gamma(total) - log_gamma(n + total) + (with_constants ? log_factorial(n) : 0.0);
    if (g && g->params[1]) {
      using boost::math::digamma;
      const double common = digamma(total) - digamma(n + total);
      // A zero count contributes digamma(alpha) - digamma(alpha) = 0 exactly.
      for (index_t i = 0; i < x.size(); ++i)
        g->params[1][i] += common + (x[i] > 0 ? digamma(x[i] + alpha[i]) - digamma(alpha[i]) : 0.0);
    }
    return lp;
  }

  // The mixture itself: p ~ Dirichlet(alpha), normalised from log gammas so that small
  // concentrations do not underflow (as Dirichlet's draw), then Multinomial(n, p).
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const view& alpha = p[1];
    std::vector<double> q(static_cast<std::size_t>(alpha.size()));
    double max_log = -INFINITY, sum = 0;
    for (std::size_t i = 0; i < q.size(); ++i) max_log = std::max(max_log, q[i] = log_gamma_draw(alpha[static_cast<index_t>(i)], rng));
    for (double& v : q) sum += v = std::exp(v - max_log);
    for (double& v : q) v /= sum;
    multinomial_draw(p[0][0], view{q.data(), alpha.shape}, rng, out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_dirichlet_multinomial() { return std::make_unique<dirichlet_multinomial>(); }

}  // namespace ppl::stdlib
