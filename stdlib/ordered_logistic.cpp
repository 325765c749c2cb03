// OrderedLogistic(eta, c): an ordered category 1..K from the latent eta + Logistic(0, 1) cut
// at the increasing cutpoints c (K - 1 of them), as Stan's ordered_logistic:
//   P(1) = 1 - inv_logit(eta - c[1]),  P(k) = inv_logit(eta - c[k-1]) - inv_logit(eta - c[k]),
//   P(K) = inv_logit(eta - c[K-1]).
// Cutpoints given as data or computed (a cumulative_sum of positive steps) need nothing
// more; cutpoints as unknowns need an ordered support, which the samplers do not have yet.
#include <boost/random/uniform_01.hpp>
#include <string>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/link.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec ordered_logistic_params[] = {{"eta", scalar_kind::real, 0}, {"c", scalar_kind::real, 1}};

std::string cutpoint(index_t i) { return "cutpoint c[" + std::to_string(i + 1) + "]"; }

// Adds d/d eta and d/d c to the gradient's slots.
void add_gradient(const gradient_out* g, index_t i, double d_eta, double d_c) {
  if (!g) return;
  if (g->params[0]) g->params[0][0] += d_eta;
  if (g->params[1]) g->params[1][i] += d_c;
}

class ordered_logistic final : public scalar_distribution {
 public:
  std::string_view name() const override { return "OrderedLogistic"; }
  std::span<const param_spec> params() const override { return ordered_logistic_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_finite(name(), "linear predictor eta", p[0][0]);
    const view& c = p[1];
    if (c.size() == 0) throw parameter_error("OrderedLogistic: cutpoints c are empty; there must be at least one");
    for (index_t i = 0; i < c.size(); ++i) {
      if (!std::isfinite(c[i])) check_finite(name(), cutpoint(i), c[i]);
      if (i > 0 && !(c[i] > c[i - 1]))
        throw parameter_error("OrderedLogistic: cutpoints c must increase, but " + cutpoint(i) + " is " +
                              format_number(c[i]) + " after " + cutpoint(i - 1) + " = " + format_number(c[i - 1]));
    }
  }

  support value_support(std::span<const view> p) const override {
    return {support_kind::integer_interval, 1, static_cast<double>(p[1].size() + 1)};
  }

  // No constants. The middle categories use log(inv_logit(a) - inv_logit(b)) =
  // log inv_logit(a) + log(1 - e^(b - a)) + log inv_logit(-b), a = eta - c[k-1] > b = eta - c[k],
  // which stays finite where the difference of the two probabilities would round to 0.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double eta = p[0][0], k = x[0];
    const view& c = p[1];
    const auto categories = static_cast<double>(c.size() + 1);
    if (!(k >= 1 && k <= categories) || k != std::floor(k)) return -INFINITY;
    const auto i = static_cast<index_t>(k) - 1;  // the category's upper cutpoint, c[i]
    if (i == 0) {
      add_gradient(g, 0, -inv_logit(eta - c[0]), inv_logit(eta - c[0]));
      return log_inv_logit(c[0] - eta);
    }
    const index_t last = c.size() - 1;
    if (i == c.size()) {
      add_gradient(g, last, inv_logit(c[last] - eta), -inv_logit(c[last] - eta));
      return log_inv_logit(eta - c[last]);
    }
    const double a = eta - c[i - 1], b = eta - c[i], gap = 1 / std::expm1(a - b);
    const double d_a = inv_logit(-a) + gap, d_b = -inv_logit(b) - gap;
    add_gradient(g, i - 1, d_a, -d_a);
    add_gradient(g, i, d_b, -d_b);
    return log_inv_logit(a) + log1m_exp(b - a) + log_inv_logit(-b);
  }

  // The latent variable itself: eta plus a standard logistic draw, and its category is one
  // more than the number of cutpoints below it.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    double u = 0;
    while (u == 0) u = boost::random::uniform_01<double>()(rng);
    const double latent = p[0][0] + std::log(u) - std::log1p(-u);
    double k = 1;
    for (double cut : p[1]) k += cut < latent;
    out[0] = k;
  }
};

}  // namespace

std::unique_ptr<distribution> make_ordered_logistic() { return std::make_unique<ordered_logistic>(); }

}  // namespace ppl::stdlib
