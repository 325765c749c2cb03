// Multinomial(n, p): counts of n draws from Categorical(p).
#include <boost/random/binomial_distribution.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec multinomial_params[] = {{"n", scalar_kind::integer, 0}, {"p", scalar_kind::real, 1}};

class multinomial final : public distribution {
 public:
  std::string_view name() const override { return "Multinomial"; }
  std::span<const param_spec> params() const override { return multinomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return p[1]; }
  void check(std::span<const view> p) const override {
    check_count(name(), "number of trials n", p[0][0]);
    check_simplex(name(), "probabilities p", p[1]);
  }
  support value_support(std::span<const view> p) const override { return {support_kind::count_vector, 0, p[0][0]}; }
  bool in_support(std::span<const view> p, view x) const override {
    double total = 0;
    for (double v : x) {
      if (v < 0 || v != std::floor(v)) return false;
      total += v;
    }
    return total == p[0][0];
  }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    if (!in_support(p, x)) return -INFINITY;
    double lp = with_constants ? std::lgamma(p[0][0] + 1) : 0;
    for (index_t i = 0; i < x.size(); ++i) {
      if (x[i] > 0) lp += x[i] * std::log(p[1][i]);
      if (with_constants) lp -= std::lgamma(x[i] + 1);
      if (g && g->params[1] && x[i] > 0) g->params[1][i] += x[i] / p[1][i];
    }
    return lp;
  }
  // Sequential conditional binomials: count i ~ Binomial(remaining, p_i / remaining mass).
  void draw(std::span<const view> p, runtime::rng& rng, double* out) const override {
    auto remaining = static_cast<long long>(p[0][0]);
    double mass = 1;
    for (index_t i = 0; i < p[1].size(); ++i) {
      double q = mass > 0 ? std::min(1.0, std::max(0.0, p[1][i] / mass)) : 0;
      long long c = i + 1 == p[1].size() ? remaining : boost::random::binomial_distribution<long long, double>(remaining, q)(rng);
      out[i] = static_cast<double>(c);
      remaining -= c;
      mass -= p[1][i];
    }
  }
};

}  // namespace

std::unique_ptr<distribution> make_multinomial() { return std::make_unique<multinomial>(); }

}  // namespace ppl::stdlib
