// Categorical(p): an integer in 1..K (1-based, as indices are) with probabilities p, a
// simplex of size K.
#include <boost/random/uniform_01.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec categorical_params[] = {{"p", scalar_kind::real, 1}};

class categorical final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Categorical"; }
  std::span<const param_spec> params() const override { return categorical_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override { check_simplex(name(), "p", p[0]); }

  support value_support(std::span<const view> p) const override {
    return {support_kind::integer_interval, 1, static_cast<double>(p[0].size())};
  }

  // No constants to drop: the mass is p_k itself.
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    const double k = x[0];
    if (!(k >= 1 && k <= static_cast<double>(p[0].size())) || k != std::floor(k)) return -INFINITY;
    const auto i = static_cast<index_t>(k) - 1;
    if (g && g->params[0]) g->params[0][i] += 1 / p[0][i];
    return std::log(p[0][i]);
  }

  // Inversion: the first category whose cumulative probability exceeds a uniform draw.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const double u = boost::random::uniform_01<double>()(rng);
    double cumulative = 0;
    index_t last_possible = 0;
    for (index_t i = 0; i < p[0].size(); ++i) {
      if (p[0][i] <= 0) continue;
      cumulative += p[0][i];
      last_possible = i;
      if (u < cumulative) break;
    }
    // When rounding leaves the total just below u, the draw is the last category that
    // can occur, never one of probability zero.
    out[0] = static_cast<double>(last_possible + 1);
  }
};

}  // namespace

std::unique_ptr<distribution> make_categorical() { return std::make_unique<categorical>(); }

}  // namespace ppl::stdlib
