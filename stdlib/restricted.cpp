#include "stdlib/restricted.hpp"

#include <algorithm>
#include <array>
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "stdlib/checks.hpp"

namespace ppl::stdlib {

namespace {

class restricted final : public distribution {
 public:
  restricted(const distribution& inner, bool truncated, bool has_lower, bool has_upper)
      : inner_(inner), truncated_(truncated), has_lower_(has_lower), has_upper_(has_upper) {
    const auto p = inner.params();
    params_.assign(p.begin(), p.end());
    n_ = params_.size();
    if (has_lower) params_.push_back({"lower", scalar_kind::real, 0});
    if (has_upper) params_.push_back({"upper", scalar_kind::real, 0});
    name_ = std::string(inner.name()) + (truncated ? " T[]" : " C[]");
  }

  std::string_view name() const override { return name_; }
  std::span<const param_spec> params() const override { return params_; }
  scalar_kind value_kind() const override { return inner_.value_kind(); }

  void check(std::span<const view> params) const override {
    inner_.check(params.first(n_));
    const auto [lo, hi] = bounds(params);
    for (double b : {lo, hi})
      if (std::isnan(b)) throw parameter_error(std::string(inner_.name()) + ": a bound of " + restriction() + " is NaN");
    if (lo > hi)
      throw parameter_error(std::string(inner_.name()) + ": the lower bound " + format_number(lo) + " of " + restriction() +
                            " is above the upper bound " + format_number(hi));
  }

  support value_support(std::span<const view> params) const override {
    support s = inner_.value_support(params.first(n_));
    auto [lo, hi] = bounds(params);
    if (s.kind == support_kind::integer_interval) lo = std::ceil(lo), hi = std::floor(hi);
    s.lower = std::max(s.lower, lo);
    s.upper = std::min(s.upper, hi);
    return s;
  }
  bool support_moves() const override { return true; }
  bool support_reads(std::size_t param) const override { return param >= n_ || inner_.support_reads(param); }

  double log_density(std::span<const view> params, view x, bool with_constants, const gradient_out* grad) const override {
    const auto [lo, hi] = bounds(params);
    const double v = x[0];
    if (!(v >= lo && v <= hi)) return -std::numeric_limits<double>::infinity();
    const double lp = inner_.log_density(params.first(n_), x, with_constants, grad);
    return truncated_ ? lp - log_mass(params, grad) : lp;
  }

  // D's typical value where it lies in the interval; else the interval's median, found by
  // inversion where D has a distribution function (a censoring time far in D's tail: its
  // start just above the bound, where the mass is); else its middle, or a unit inside its
  // one finite end.
  bool typical(std::span<const view> params, double* out) const override {
    if (!inner_.typical(params.first(n_), out)) return false;
    const support s = value_support(params);
    if (*out >= s.lower && *out <= s.upper) return true;
    if (inner_.has_cdf()) {
      if (const double x = at_fraction(params, 0.5); !std::isnan(x)) {
        *out = x;
        return true;
      }
    }
    if (std::isfinite(s.lower) && std::isfinite(s.upper)) *out = (s.lower + s.upper) / 2;
    else if (std::isfinite(s.lower)) *out = s.lower + std::max(1.0, std::fabs(s.lower) * 1e-3);
    else *out = s.upper - std::max(1.0, std::fabs(s.upper) * 1e-3);
    return true;
  }

  // By inversion where D has a distribution function (Devroye 1986, Non-Uniform Random
  // Variate Generation, II.2.3): exact in one uniform however improbable the interval.
  // Without one, by rejection from D: exact, and cheap unless the interval is improbable.
  void draw(std::span<const view> params, ppl::rng& rng, double* out) const override {
    const support s = value_support(params);
    if (inner_.has_cdf()) {
      *out = at_fraction(params, boost::random::uniform_01<double>()(rng));
      if (std::isnan(*out))
        throw parameter_error(std::string(inner_.name()) + ": " + restriction() + " = [" + format_number(s.lower) + ", " +
                              format_number(s.upper) + "] has no probability at these parameters (its logarithm is -inf)");
      return;
    }
    for (int tries = 0; tries < max_tries; ++tries) {
      inner_.draw(params.first(n_), rng, out);
      if (*out >= s.lower && *out <= s.upper) return;
    }
    throw parameter_error(std::string(inner_.name()) + ": no draw in " + std::to_string(max_tries) + " fell within " + restriction() +
                          " = [" + format_number(s.lower) + ", " + format_number(s.upper) + "], and " + std::string(inner_.name()) +
                          " has no distribution function to draw within it directly; the interval has almost no probability " +
                          "at these parameters");
  }

 private:
  static constexpr int max_tries = 100000;

  std::pair<double, double> bounds(std::span<const view> params) const {
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    std::size_t k = n_;
    if (has_lower_) lo = params[k++][0];
    if (has_upper_) hi = params[k][0];
    return {lo, hi};
  }
  std::string restriction() const { return truncated_ ? "T[lower, upper]" : "C[lower, upper]"; }

 public:
  bool truncated() const { return truncated_; }

 private:

  // The x with P(lower <= X <= x) = v P(lower <= X <= upper), v in [0, 1]: the interval's
  // v quantile, by D's inverse distribution function. The probabilities are taken in the
  // tail where they are small, as log_mass does (below D's median F, above it S = 1 - F),
  // and in logarithms, so an interval beyond the reach of doubles (S(lower) = e^-1e8)
  // keeps its digits. NaN when the interval's probability is 0 even in logarithms.
  double at_fraction(std::span<const view> params, double v) const {
    const support s = value_support(params);
    if (!(s.lower <= s.upper)) return std::numeric_limits<double>::quiet_NaN();  // outside D's support
    const auto own = params.first(n_);
    // For integers P(lower <= X <= x) = F(x) - F(lower - 1).
    const double a = inner_.value_kind() == scalar_kind::integer ? s.lower - 1 : s.lower, b = s.upper;
    const bool upper = !(inner_.log_cdf(own, b) < std::log(0.5));
    double log_p = 0;
    if (upper) {
      // S(x) = S(a) - v (S(a) - S(b)) = S(a) (1 - v (1 - S(b) / S(a))).
      const double sa = inner_.log_ccdf(own, a), sb = inner_.log_ccdf(own, b);
      if (!std::isfinite(sa)) return std::numeric_limits<double>::quiet_NaN();
      log_p = sa + std::log1p(v * std::expm1(sb - sa));
    } else {
      // F(x) = F(b) (F(a) / F(b) + v (1 - F(a) / F(b))).
      const double fa = inner_.log_cdf(own, a), fb = inner_.log_cdf(own, b);
      if (!std::isfinite(fb)) return std::numeric_limits<double>::quiet_NaN();
      const double r = std::exp(fa - fb);
      log_p = fb + std::log(r + v * (1 - r));
    }
    return std::clamp(inner_.quantile(own, log_p, upper), s.lower, s.upper);
  }

  // One tail of D at x: log F(x) (or log(1 - F(x)) with `upper_tail`), and where asked its
  // derivatives in x and D's parameters.
  struct tail {
    double log_p = 0, dx = 0;
    std::array<double, max_params> dp{};
  };
  tail at(std::span<const view> params, double x, bool upper_tail, bool gradient) const {
    tail t;
    gradient_out g;
    if (gradient) {
      g.value = &t.dx;
      for (std::size_t i = 0; i < n_; ++i) g.params[i] = &t.dp[i];
    }
    const auto own = params.first(n_);
    t.log_p = upper_tail ? inner_.log_ccdf(own, x, gradient ? &g : nullptr) : inner_.log_cdf(own, x, gradient ? &g : nullptr);
    return t;
  }

  // log P(lower <= Y <= upper), and its derivatives subtracted from grad's slots (the
  // normaliser's share of d log p). For integers P(lower <= Y <= upper) = F(upper) -
  // F(lower - 1). Between two bounds the difference is taken in the tail where both
  // probabilities are small, where it keeps its digits: F(upper) - F(lower) below the
  // median, S(lower) - S(upper) above it.
  double log_mass(std::span<const view> params, const gradient_out* grad) const {
    auto [lo, hi] = bounds(params);
    if (inner_.value_kind() == scalar_kind::integer) lo -= 1;
    const bool gradient = grad != nullptr;
    double log_z = 0;
    std::array<double, max_params> dp{};  // d log Z / d parameter (D's, then the bounds')
    std::size_t k = n_;
    auto add = [&](const tail& t, double weight) {
      for (std::size_t i = 0; i < n_; ++i) dp[i] += weight * t.dp[i];
    };
    if (has_lower_ && !has_upper_) {
      const tail s = at(params, lo, true, gradient);
      log_z = s.log_p;
      add(s, 1);
      dp[k] = s.dx;
    } else if (!has_lower_ && has_upper_) {
      const tail f = at(params, hi, false, gradient);
      log_z = f.log_p;
      add(f, 1);
      dp[k] = f.dx;
    } else if (has_lower_ && has_upper_) {
      const bool low = at(params, hi, false, false).log_p < std::log(0.5);
      // Z = a - b with a = F(hi), b = F(lo) below the median; a = S(lo), b = S(hi) above.
      const tail a = low ? at(params, hi, false, gradient) : at(params, lo, true, gradient);
      const tail b = low ? at(params, lo, false, gradient) : at(params, hi, true, gradient);
      log_z = a.log_p + std::log1p(-std::exp(b.log_p - a.log_p));
      const double wa = std::exp(a.log_p - log_z), wb = std::exp(b.log_p - log_z);
      add(a, wa);
      add(b, -wb);
      // d log Z / d lower and d upper: through whichever of a, b reads each bound.
      dp[k] = low ? -wb * b.dx : wa * a.dx;
      dp[k + 1] = low ? wa * a.dx : -wb * b.dx;
    }
    if (grad)
      for (std::size_t i = 0; i < params_.size(); ++i)
        if (grad->params[i] && (i >= n_ || inner_.cdf_differentiable(i))) *grad->params[i] -= dp[i];
    return log_z;
  }

  const distribution& inner_;
  bool truncated_, has_lower_, has_upper_;
  std::vector<param_spec> params_;
  std::size_t n_ = 0;
  std::string name_;
};

}  // namespace

std::unique_ptr<distribution> make_restricted(const distribution& inner, bool truncated, bool has_lower, bool has_upper,
                                              std::string& why) {
  if (inner.value_rank() != 0) {
    why = std::string(inner.name()) + " gives vectors; only a distribution of scalars can be censored or truncated";
    return nullptr;
  }
  for (const auto& p : inner.params())
    if (p.rank != 0) {
      why = std::string(inner.name()) + " takes a vector parameter; only a distribution of scalars with scalar parameters can be "
            "censored or truncated";
      return nullptr;
    }
  if (truncated && !inner.has_cdf()) {
    why = "truncation T[] renormalises by " + std::string(inner.name()) + "'s distribution function, which ppl does not have yet";
    return nullptr;
  }
  return std::make_unique<restricted>(inner, truncated, has_lower, has_upper);
}

bool censored(const distribution& d) {
  const auto* r = dynamic_cast<const restricted*>(&d);
  return r && !r->truncated();
}

}  // namespace ppl::stdlib
