// Multinomial(n, p): the counts of each category in n draws from Categorical(p); a vector
// of p's size summing to n.
#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/multinomial_draw.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec multinomial_params[] = {{"n", scalar_kind::integer, 0}, {"p", scalar_kind::real, 1}};

class multinomial final : public distribution {
 public:
  std::string_view name() const override { return "Multinomial"; }
  std::span<const param_spec> params() const override { return multinomial_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }
  int value_rank() const override { return 1; }
  shape value_shape(std::span<const shape> p) const override { return shape::vector(p[1].size()); }

  void check(std::span<const view> p) const override {
    check_count(name(), "number of trials n", p[0][0]);
    check_simplex(name(), "p", p[1]);
  }

  bool support_moves() const override { return true; }
  bool support_reads(std::size_t param) const override { return param == 0; }  // n
  support value_support(std::span<const view> p) const override { return {support_kind::count_vector, 0, p[0][0]}; }

  bool in_support(std::span<const view> p, view x) const override { return counts_summing_to(x, p[1].size(), p[0][0]); }

  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    if (!in_support(p, x)) return -INFINITY;
    const view& q = p[1];
    // The multinomial coefficient n! / prod x_i! depends only on the integer counts.
    double lp = with_constants ? log_factorial(p[0][0]) : 0;
    for (index_t i = 0; i < x.size(); ++i) {
      if (with_constants) lp -= log_factorial(x[i]);
      if (x[i] == 0) continue;  // 0 log 0 is 0: a category of probability 0 never seen
      lp += x[i] * std::log(q[i]);
      if (g && g->params[1]) g->params[1][i] += x[i] / q[i];
    }
    return lp;
  }

  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    multinomial_draw(p[0][0], p[1], rng, out);
  }
};

}  // namespace

std::unique_ptr<distribution> make_multinomial() { return std::make_unique<multinomial>(); }

}  // namespace ppl::stdlib
