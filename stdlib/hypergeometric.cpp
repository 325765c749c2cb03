// Hypergeometric(N, a, b): the number of successes in N draws without replacement from an
// urn of a successes and b failures, as Stan's hypergeometric; values max(0, N - b) ..
// min(a, N). JAGS's dhyper(n1, n2, m1, psi) is the non-central generalisation (psi = 1,
// n1 = a, n2 = b, m1 = N).
//   log p(k) = log C(a, k) + log C(b, N - k) - log C(a + b, N)
#include <algorithm>
#include <boost/random/uniform_01.hpp>

#include "stdlib/checks.hpp"
#include "stdlib/library.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace {

constexpr param_spec hypergeometric_params[] = {
    {"N", scalar_kind::integer, 0}, {"a", scalar_kind::integer, 0}, {"b", scalar_kind::integer, 0}};

double log_choose(double n, double k) { return log_factorial(n) - log_factorial(k) - log_factorial(n - k); }

struct urn {
  double draws, successes, failures;

  double lower() const { return std::max(0.0, draws - failures); }
  double upper() const { return std::min(successes, draws); }
  double log_mass(double k) const {
    return log_choose(successes, k) + log_choose(failures, draws - k) - log_choose(successes + failures, draws);
  }
  // p(k + 1) / p(k) and p(k - 1) / p(k), from the ratios of binomial coefficients.
  double up(double k) const { return (successes - k) * (draws - k) / ((k + 1) * (failures - draws + k + 1)); }
  double down(double k) const { return k * (failures - draws + k) / ((successes - k + 1) * (draws - k + 1)); }
};

urn urn_of(std::span<const view> p) { return {p[0][0], p[1][0], p[2][0]}; }

class hypergeometric final : public scalar_distribution {
 public:
  std::string_view name() const override { return "Hypergeometric"; }
  std::span<const param_spec> params() const override { return hypergeometric_params; }
  scalar_kind value_kind() const override { return scalar_kind::integer; }

  void check(std::span<const view> p) const override {
    check_count(name(), "number of draws N", p[0][0]);
    check_count(name(), "successes a", p[1][0]);
    check_count(name(), "failures b", p[2][0]);
    if (p[0][0] > p[1][0] + p[2][0])
      parameter_fail(name(), "number of draws N", p[0][0], "at most a + b = " + format_number(p[1][0] + p[2][0]));
  }

  bool support_moves() const override { return true; }
  support value_support(std::span<const view> p) const override {
    const urn u = urn_of(p);
    return {support_kind::integer_interval, u.lower(), u.upper()};
  }

  // Every term involves the parameters, which may be unknown: nothing to drop. Integers
  // have no gradients.
  double log_density(std::span<const view> p, view x, bool, const gradient_out*) const override {
    const urn u = urn_of(p);
    const double k = x[0];
    if (!(k >= u.lower() && k <= u.upper()) || k != std::floor(k)) return -INFINITY;
    return u.log_mass(k);
  }

  // Inversion of the distribution function taken in the order mode, mode + 1, mode - 1,
  // mode + 2, ... (Kemp's search from the mode): any fixed order of the support gives an
  // exact draw, and this one needs about a standard deviation of steps.
  void draw(std::span<const view> p, ppl::rng& rng, double* out) const override {
    const urn balls = urn_of(p);
    const double lower = balls.lower(), upper = balls.upper();
    const double mode = std::clamp(
        std::floor((balls.draws + 1) * (balls.successes + 1) / (balls.successes + balls.failures + 2)), lower, upper);
    const double p_mode = std::exp(balls.log_mass(mode));
    double u = boost::random::uniform_01<double>()(rng) - p_mode, hi = mode, lo = mode, p_hi = p_mode, p_lo = p_mode;
    out[0] = mode;
    while (u > 0 && (hi < upper || lo > lower)) {
      if (hi < upper) {
        p_hi *= balls.up(hi++);
        if ((u -= p_hi) <= 0) out[0] = hi;
      }
      if (u > 0 && lo > lower) {
        p_lo *= balls.down(lo--);
        if ((u -= p_lo) <= 0) out[0] = lo;
      }
    }
    // Rounding can leave u just above 0 after the whole support: the draw stays the mode.
  }
};

}  // namespace

std::unique_ptr<distribution> make_hypergeometric() { return std::make_unique<hypergeometric>(); }

}  // namespace ppl::stdlib
