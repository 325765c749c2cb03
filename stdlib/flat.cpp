// Flat(): density 1 on the reals; and the half-line and interval versions a bounded `param`
// gets.
#include "stdlib/flat.hpp"

#include <cmath>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

enum class side { none, below, above, between };

constexpr param_spec lower_param[] = {{"lower", scalar_kind::real, 0}};
constexpr param_spec upper_param[] = {{"upper", scalar_kind::real, 0}};
constexpr param_spec both_params[] = {{"lower", scalar_kind::real, 0}, {"upper", scalar_kind::real, 0}};

class flat final : public scalar_distribution {
 public:
  explicit flat(side bounded) : bounded_(bounded) {}
  std::string_view name() const override { return "Flat"; }
  std::span<const param_spec> params() const override {
    if (bounded_ == side::below) return lower_param;
    if (bounded_ == side::above) return upper_param;
    if (bounded_ == side::between) return both_params;
    return {};
  }
  scalar_kind value_kind() const override { return scalar_kind::real; }
  // Bounds that read unknowns (Stan's real<lower=0, upper=1 - alpha1>) move with them.
  bool support_moves() const override { return bounded_ != side::none; }
  void check(std::span<const view> p) const override {
    if (bounded_ == side::between) {
      check_finite(name(), "lower bound", p[0][0]);
      check_finite(name(), "upper bound", p[1][0]);
      if (!(p[0][0] < p[1][0]))
        throw parameter_error("Flat: the lower bound " + format_number(p[0][0]) + " is not below the upper bound " + format_number(p[1][0]));
    } else if (bounded_ != side::none) {
      check_finite(name(), bounded_ == side::below ? "lower bound" : "upper bound", p[0][0]);
    }
  }
  support value_support(std::span<const view> p) const override {
    if (bounded_ == side::below) return {support_kind::real_interval, p[0][0], INFINITY};
    if (bounded_ == side::above) return {support_kind::real_interval, -INFINITY, p[0][0]};
    if (bounded_ == side::between) return {support_kind::real_interval, p[0][0], p[1][0]};
    return {};
  }
  double log_density(std::span<const view> p, view x, bool, const gradient_out*) const override {
    const support s = value_support(p);
    return x[0] > s.lower && x[0] < s.upper ? 0.0 : -INFINITY;
  }
  // A start one unit inside the bound: 0 on the log scale the samplers move a bounded one on;
  // between two bounds, the middle (0 on the logit scale).
  bool typical(std::span<const view> p, double* out) const override {
    if (bounded_ == side::between) {
      out[0] = 0.5 * (p[0][0] + p[1][0]);
      return true;
    }
    out[0] = bounded_ == side::below ? p[0][0] + 1 : bounded_ == side::above ? p[0][0] - 1 : 0;
    return true;
  }
  void draw(std::span<const view>, ppl::rng&, double*) const override {
    throw parameter_error("Flat: an improper prior has no draws; give the variable a proper prior with `~`");
  }

 private:
  side bounded_;
};

}  // namespace

std::unique_ptr<distribution> make_flat() { return std::make_unique<flat>(side::none); }

const distribution& flat_bounded_below() {
  static const flat d(side::below);
  return d;
}

const distribution& flat_bounded_above() {
  static const flat d(side::above);
  return d;
}

const distribution& flat_between() {
  static const flat d(side::between);
  return d;
}

bool improper(const distribution& d) { return dynamic_cast<const flat*>(&d) != nullptr; }

}  // namespace ppl::stdlib
