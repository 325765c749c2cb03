// BinomialLogit(n, alpha): Binomial(n, inv_logit(alpha)) on the log-odds scale, finite for
// any finite alpha. The checker writes `Binomial(n, inv_logit(e))` as this.
#include <boost/random/binomial_distribution.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/link.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec binomial_logit_params[] = {{"n", scalar_kind::integer, 0}, {"alpha", scalar_kind::real, 0}};

class binomial_logit final : public scalar_distribution {
 public:
  std::string_view name() const override { return "BinomialLogit"; }
  std::span<const param_spec> params() const override { return binomial_logit_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_count(name(), "number of trials n", p[0][0]);
    check_not_nan(name(), "log-odds alpha", p[1][0]);
  }

  bool support_moves() const override { return true; }
  bool support_reads(std::size_t param) const override { return param == 0; }  // n
  support value_support(std::span<const view> p) const override { return {support_kind::integer_interval, 0, p[0][0]}; }

  // k log inv_logit(alpha) + (n - k) log inv_logit(-alpha); d/dalpha = k - n inv_logit(alpha).
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    const double n = p[0][0], a = p[1][0], k = x[0];
    if (!in_support(n, k)) return -INFINITY;
    double lp = (k > 0 ? k * log_inv_logit(a) : 0) + (n - k > 0 ? (n - k) * log_inv_logit(-a) : 0);
    if (with_constants) lp += log_factorial(n) - log_factorial(k) - log_factorial(n - k);
    if (g && g->params[1]) g->params[1][0] += k - n * inv_logit(a);
    return lp;
  }

  // A plate's rows at once: one exp and one log1p a row (logit_parts) serve both logarithms
  // and the derivative, where log_density takes three exps and two log1ps; the same values
  // bit for bit.
  double log_density_rows(const rows_params& r, std::size_t, const double* x, double*, index_t rows, bool check) const override {
    const index_t sn = r.step[0], sa = r.step[1];
    double* da = r.dp[1];
    double total = 0;
    for (index_t i = 0; i < rows; ++i) {
      const double n = r.p[0][i * sn], a = r.p[1][i * sa], k = x[i];
      if (check && (!valid_count(n) || std::isnan(a))) return -INFINITY;
      if (!in_support(n, k)) return -INFINITY;
      const logit_parts l(a);
      double lp = (k > 0 ? k * l.log_p : 0) + (n - k > 0 ? (n - k) * l.log_q : 0);
      lp += log_factorial(n) - log_factorial(k) - log_factorial(n - k);
      if (da) da[i * sa] += k - n * l.p;
      total += lp;
    }
    return total;
  }
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const auto n = static_cast<long long>(p[0][0]);
    out[0] = static_cast<double>(boost::random::binomial_distribution<long long, double>(n, inv_logit(p[1][0]))(rng));
  }

 private:
  // k successes of n trials: a whole number in [0, n].
  static bool in_support(double n, double k) { return k >= 0 && k <= n && k == std::floor(k); }
};

}  // namespace

std::unique_ptr<distribution> make_binomial_logit() { return std::make_unique<binomial_logit>(); }

}  // namespace ppl::stdlib
