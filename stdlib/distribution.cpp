#include "stdlib/distribution.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace ppl::stdlib {

shape distribution::value_shape(std::span<const shape>) const { return shape::scalar(); }

shape distribution::value_shape_at(std::span<const view> params) const {
  std::array<shape, max_params> shapes;
  for (std::size_t i = 0; i < params.size() && i < shapes.size(); ++i) shapes[i] = params[i].shape;
  return value_shape(std::span<const shape>(shapes.data(), std::min(params.size(), shapes.size())));
}

double distribution::log_density_sum(std::span<const view> params, const double* values, index_t n) const {
  double total = 0;
  for (index_t i = 0; i < n; ++i) total += log_density(params, view{values + i, shape::scalar()}, true);
  return total;
}

double distribution::log_density_rows(const rows_params& r, std::size_t nparams, const double* x, double* dx, index_t n,
                                      bool check) const {
  std::array<view, max_params> params{};
  gradient_out g;
  for (std::size_t i = 0; i < nparams; ++i) {
    params[i] = {r.p[i], shape::scalar()};
    g.params[i] = r.dp[i];
  }
  const std::span<const view> in(params.data(), nparams);
  double total = 0;
  for (index_t k = 0; k < n; ++k) {
    if (k > 0)
      for (std::size_t i = 0; i < nparams; ++i) {
        params[i].data += r.step[i];
        if (g.params[i]) g.params[i] += r.step[i];
      }
    if (check) {
      try {
        this->check(in);
      } catch (const parameter_error&) {
        return -INFINITY;
      }
    }
    g.value = dx ? dx + k : nullptr;
    total += log_density(in, view{x + k, shape::scalar()}, true, &g);
  }
  return total;
}

bool distribution::rows_in_support(const rows_params& r, std::size_t nparams, const double* x, index_t n) const {
  std::array<view, max_params> params{};
  for (std::size_t i = 0; i < nparams; ++i) params[i] = {r.p[i], shape::scalar()};
  const std::span<const view> in(params.data(), nparams);
  if (!support_moves()) return in_support(in, view{x, shape::vector(n)});
  for (index_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < nparams; ++i) params[i].data = r.p[i] + k * r.step[i];
    if (!in_support(in, view{x + k, shape::scalar()})) return false;
  }
  return true;
}

void distribution::log_density_each(const rows_params& r, std::size_t nparams, const double* x, index_t sx, index_t n,
                                    double* out, double* partials) const {
  const std::size_t k = nparams + 1;
  std::fill_n(partials, static_cast<std::size_t>(n) * k, 0.0);
  rows_params one;
  for (index_t row = 0; row < n; ++row) {
    double* p = partials + static_cast<std::size_t>(row) * k;
    for (std::size_t i = 0; i < nparams; ++i) {
      one.p[i] = r.p[i] + row * r.step[i];
      one.dp[i] = p + i + 1;
    }
    out[row] = log_density_rows(one, nparams, x + row * sx, p, 1, true);
  }
}

double checked_log_density_rows(const distribution& d, const rows_params& r, std::size_t nparams, const double* x, double* dx,
                                index_t n) {
  if (!d.rows_in_support(r, nparams, x, n)) return -INFINITY;
  return d.log_density_rows(r, nparams, x, dx, n, true);
}

bool distribution::cdf_differentiable(std::size_t param) const {
  return has_cdf() && param < params().size() && params()[param].kind == scalar_kind::real;
}

cdf_parts distribution::cdf(std::span<const view>, double, bool) const { return {}; }

namespace {

// Adds the derivatives of one tail into grad's slots.
void add_cdf_gradient(const distribution& d, const std::array<double, 5>& slots, const gradient_out* grad) {
  if (grad->value && d.value_kind() == scalar_kind::real) grad->value[0] += slots[0];
  for (std::size_t i = 0; i < d.params().size() && i < 4; ++i)
    if (grad->params[i] && d.cdf_differentiable(i)) grad->params[i][0] += slots[i + 1];
}

}  // namespace

double distribution::log_cdf(std::span<const view> params, double x, const gradient_out* grad) const {
  if (!has_cdf()) return std::numeric_limits<double>::quiet_NaN();
  const cdf_parts r = cdf(params, x, grad != nullptr);
  if (grad) add_cdf_gradient(*this, r.d_log_cdf, grad);
  return r.log_cdf;
}

double distribution::log_ccdf(std::span<const view> params, double x, const gradient_out* grad) const {
  if (!has_cdf()) return std::numeric_limits<double>::quiet_NaN();
  const cdf_parts r = cdf(params, x, grad != nullptr);
  if (grad) add_cdf_gradient(*this, r.d_log_ccdf, grad);
  return r.log_ccdf;
}

namespace {

// A monotone map of the doubles onto the integers (-0 and +0 both to 0), and back: a
// bisection on it halves the doubles left, not the interval, and so ends within 64 steps
// at two neighbours whatever the scale.
std::int64_t order_key(double x) {
  const auto bits = std::bit_cast<std::int64_t>(x);
  return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
}
double from_order_key(std::int64_t key) {
  return std::bit_cast<double>(key < 0 ? std::numeric_limits<std::int64_t>::min() - key : key);
}

}  // namespace

// The least x of the support where the tail passes log_p, by bisection on the doubles
// between the support's ends; each step one evaluation of cdf().
double distribution::quantile(std::span<const view> params, double log_p, bool upper) const {
  const support s = value_support(params);
  const double big = std::numeric_limits<double>::max();
  auto passes = [&](double x) {
    const cdf_parts r = cdf(params, x, false);
    return upper ? r.log_ccdf <= log_p : r.log_cdf >= log_p;
  };
  double lo = std::max(s.lower, -big), hi = std::min(s.upper, big);
  if (std::isnan(log_p) || !has_cdf()) return std::numeric_limits<double>::quiet_NaN();
  if (passes(lo)) return lo;
  if (!passes(hi)) return hi;
  std::int64_t a = order_key(lo), b = order_key(hi);  // fails at a, passes at b
  while (static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a) > 1) {
    const std::int64_t mid = a + static_cast<std::int64_t>((static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a)) / 2);
    (passes(from_order_key(mid)) ? b : a) = mid;
  }
  const double x = from_order_key(b);
  return value_kind() == scalar_kind::integer ? std::ceil(x) : x;
}

bool distribution::in_support(std::span<const view> params, view x) const {
  const support s = value_support(params);
  // One test per value, the kind chosen once: a plate's rows go through it at every gradient.
  const auto all = [&x](auto inside) {
    bool ok = true;
    for (double v : x) ok &= inside(v);
    return ok;
  };
  switch (s.kind) {
    case support_kind::real_interval:
      return all([&s](double v) { return std::isfinite(v) & (v >= s.lower) & (v <= s.upper); });
    case support_kind::integer_interval:
      return all([&s](double v) { return (v == std::floor(v)) & (v >= s.lower) & (v <= s.upper); });
    case support_kind::spin:
      return all([](double v) { return (v == 1.0) | (v == -1.0); });
    case support_kind::real_vector:
      return all([](double v) { return std::isfinite(v); });
    case support_kind::simplex:
    case support_kind::count_vector:
    case support_kind::ordered:
    case support_kind::covariance:
    case support_kind::cholesky_corr:
    case support_kind::correlation:
      return true;  // vector supports are checked by the distribution's own override
  }
  return true;
}

}  // namespace ppl::stdlib
