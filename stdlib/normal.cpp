// Normal(mu, sigma): sigma is the standard deviation, as in Stan.
#include <boost/random/normal_distribution.hpp>
#include <numbers>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec normal_params[] = {{"mu", scalar_kind::real, 0}, {"sigma", scalar_kind::real, 0}};

class normal final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Normal"; }
  std::span<const param_spec> params() const override { return normal_params; }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  void check(std::span<const view> p) const override {
    check_finite(name(), "location mu", p[0][0]);
    check_positive(name(), "scale sigma", p[1][0]);
  }
  support value_support(std::span<const view>) const override { return {}; }
  double log_density(std::span<const view> p, view x, bool with_constants, const gradient_out* g) const override {
    double mu = p[0][0], sigma = p[1][0], z = (x[0] - mu) / sigma;
    if (!std::isfinite(x[0])) return -INFINITY;
    double lp = -0.5 * z * z - std::log(sigma);
    if (with_constants) lp -= 0.5 * std::log(2 * std::numbers::pi);
    add_location_scale_gradient(g, z, -z, sigma, 0, 1);
    return lp;
  }
  // A typical value to start from: the mean.
  bool typical(std::span<const view> p, double* out) const override {
    out[0] = p[0][0];
    return true;
  }

  void draw(std::span<const view> p, runtime::rng& rng, double* out) const override {
    out[0] = boost::random::normal_distribution<double>(p[0][0], p[1][0])(rng);
  }
};

}  // namespace

std::unique_ptr<distribution> make_normal() { return std::make_unique<normal>(); }

}  // namespace ppl::stdlib
