// BernoulliLogit(alpha): Bernoulli(inv_logit(alpha)) on the log-odds scale, where the
// density stays finite for any finite alpha (inv_logit(40) is 1 in doubles, so
// Bernoulli(inv_logit(40)) gives log 0 for an outcome of 0). The checker writes
// `Bernoulli(inv_logit(e))` as this.
#include <boost/random/bernoulli_distribution.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/link.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec bernoulli_logit_params[] = {{"alpha", scalar_kind::real, 0}};

class bernoulli_logit final : public scalar_distribution {
 public:
  std::string_view name() const override { return "BernoulliLogit"; }
  std::span<const param_spec> params() const override { return bernoulli_logit_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override { check_not_nan(name(), "log-odds alpha", p[0][0]); }

  support value_support(std::span<const view>) const override { return {support_kind::integer_interval, 0, 1}; }

  // log p(1) = log inv_logit(alpha), log p(0) = log inv_logit(-alpha); d/dalpha = k - inv_logit(alpha).
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double a = p[0][0], k = x[0];
    if (k != 0 && k != 1) return -INFINITY;
    if (g && g->params[0]) g->params[0][0] += k - inv_logit(a);
    return log_inv_logit(k == 1 ? a : -a);
  }

  // A plate's rows at once: one exp and one log1p a row (logit_parts), where log_density
  // takes two exps and a log1p; the same values bit for bit.
  double log_density_rows(const rows_params& r, std::size_t, const double* x, double*, index_t rows, bool check) const override {
    const index_t sa = r.step[0];
    double* da = r.dp[0];
    double total = 0;
    for (index_t i = 0; i < rows; ++i) {
      const double a = r.p[0][i * sa], k = x[i];
      if (check && std::isnan(a)) return -INFINITY;
      if (k != 0 && k != 1) return -INFINITY;
      const logit_parts l(a);
      if (da) da[i * sa] += k - l.p;
      total += k == 1 ? l.log_p : l.log_q;
    }
    return total;
  }

  double log_density_sum(std::span<const view> p, const double* values, index_t n) const override {
    double ones = 0, zeros = 0;
    if (!count_binary(values, n, ones, zeros)) return -INFINITY;
    const double a = p[0][0];
    return (ones > 0 ? ones * log_inv_logit(a) : 0) + (zeros > 0 ? zeros * log_inv_logit(-a) : 0);
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::bernoulli_distribution<double>(inv_logit(p[0][0]))(rng) ? 1.0 : 0.0;
  }
};

}  // namespace

std::unique_ptr<distribution> make_bernoulli_logit() { return std::make_unique<bernoulli_logit>(); }

}  // namespace ppl::stdlib
