// Spin(): uniform on {-1, +1}, the site variable of Ising-type models, whose interactions
// come from `factor` statements.
#include <boost/random/bernoulli_distribution.hpp>
#include <numbers>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

class spin final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Spin"; }
  std::span<const param_spec> params() const override { return {}; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view>) const override {}

  support value_support(std::span<const view>) const override { return {support_kind::spin, -1, 1}; }

  // log 1/2 is constant in everything, so it is the one term dropped without constants.
  double log_density(std::span<const view>, view x, bool with_constants, const gradient_out*) const override {
    if (x[0] != 1 && x[0] != -1) return -INFINITY;
    return with_constants ? -std::numbers::ln2 : 0.0;
  }

  void draw(std::span<const view>, ppl::rng& rng, double* out) const override {
    out[0] = boost::random::bernoulli_distribution<double>(0.5)(rng) ? 1.0 : -1.0;
  }
};

}  // namespace

std::unique_ptr<distribution> make_spin() { return std::make_unique<spin>(); }

}  // namespace ppl::stdlib
