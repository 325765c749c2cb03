// Categorical(p): an integer in 1..K with probabilities p (a simplex of size K).
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
  void check(std::span<const view> p) const override { check_simplex(name(), "probabilities p", p[0]); }
  support value_support(std::span<const view> p) const override {
    return {support_kind::integer_interval, 1, static_cast<double>(p[0].size())};
  }
  double log_density(std::span<const view> p, view x, bool, const gradient_out* g) const override {
    double k = x[0];
    if (k < 1 || k > static_cast<double>(p[0].size()) || k != std::floor(k)) return -INFINITY;
    auto i = static_cast<index_t>(k) - 1;
    if (g && g->params[0]) g->params[0][i] += 1 / p[0][i];
    return std::log(p[0][i]);
  }
  void draw(std::span<const view> p, runtime::rng& rng, double* out) const override {
    double u = boost::random::uniform_01<double>()(rng), acc = 0;
    index_t k = p[0].size();
    for (index_t i = 0; i < k; ++i) {
      acc += p[0][i];
      if (u < acc) {
        out[0] = static_cast<double>(i + 1);
        return;
      }
    }
    out[0] = static_cast<double>(k);  // rounding left u above the last partial sum
  }
};

}  // namespace

std::unique_ptr<distribution> make_categorical() { return std::make_unique<categorical>(); }

}  // namespace ppl::stdlib
