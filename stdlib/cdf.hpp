#pragma once
// Helpers for distributions' cdf() (distribution.hpp): both tails from their logarithms,
// the derivatives from that of F itself, location-scale families, and the central
// differences taken for shape parameters of the incomplete gamma and beta functions.
//
// Each tail is computed on its own (erfc, gamma_q, ibetac, log1m_exp, ...) so that a
// probability near 0 keeps its relative accuracy whichever tail it is in; the other is
// then near 1 and log1p-type forms keep it.
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

#include "stdlib/distribution.hpp"
#include "stdlib/link.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::stdlib {

namespace cdf_detail {
namespace policies = boost::math::policies;
// Underflow to 0 is an answer here (its logarithm -inf), not an error.
using quiet = policies::policy<policies::domain_error<policies::ignore_error>, policies::pole_error<policies::ignore_error>,
                               policies::overflow_error<policies::ignore_error>,
                               policies::underflow_error<policies::ignore_error>,
                               policies::evaluation_error<policies::ignore_error>>;
}  // namespace cdf_detail

// Regularised incomplete gamma P(a, z), Q(a, z) and beta I_x(a, b), 1 - I_x(a, b).
inline double gamma_p(double a, double z) { return boost::math::gamma_p(a, z, cdf_detail::quiet()); }
inline double gamma_q(double a, double z) { return boost::math::gamma_q(a, z, cdf_detail::quiet()); }
inline double ibeta(double a, double b, double x) { return boost::math::ibeta(a, b, x, cdf_detail::quiet()); }
inline double ibetac(double a, double b, double x) { return boost::math::ibetac(a, b, x, cdf_detail::quiet()); }

inline double log_beta_function(double a, double b) { return log_gamma(a) + log_gamma(b) - log_gamma(a + b); }

// The two tails from their logarithms; derivatives zero until set.
inline cdf_parts cdf_tails(double log_cdf, double log_ccdf) {
  cdf_parts r;
  r.log_cdf = log_cdf;
  r.log_ccdf = log_ccdf;
  return r;
}
// From both probabilities, each computed in its own tail: the logarithm of the one near 1
// is log1p of minus the other, which keeps the digits that 1 - tiny rounds away.
inline cdf_parts cdf_probabilities(double p, double q) {
  return cdf_tails(p > 0.5 ? std::log1p(-q) : std::log(p), q > 0.5 ? std::log1p(-p) : std::log(q));
}

// x below the support (F = 0), above it (F = 1), and x not finite: no derivatives.
inline cdf_parts cdf_below() { return cdf_tails(-INFINITY, 0); }
inline cdf_parts cdf_above() { return cdf_tails(0, -INFINITY); }
inline cdf_parts cdf_not_finite(double x) { return std::isnan(x) ? cdf_parts{} : x > 0 ? cdf_above() : cdf_below(); }

// log(1 - e^-w) for w >= 0 given also log w: below 1e-10, log w - w / 2 (the next term is
// w^2 / 24), which also serves where w underflows but log w does not.
inline double log1m_exp_neg(double w, double log_w) { return w < 1e-10 ? log_w - w / 2 : log1m_exp(-w); }

// For closed-form quantiles of survival distributions: log w for the cumulative hazard
// w = -log(1 - p) at the p quantile, given log p. Below log p = -30, log p + p / 2 (the
// next term is 5 p^2 / 24), which keeps the quantile where p itself underflows.
inline double log_hazard_at(double log_p) {
  return log_p < -30 ? log_p + std::exp(log_p) / 2 : std::log(-log1m_exp(log_p));
}

// From the smaller probability's logarithm: its tail and log(1 - p) for the other.
inline cdf_parts cdf_lower(double log_cdf) { return cdf_tails(log_cdf, log1m_exp(log_cdf)); }
inline cdf_parts cdf_upper(double log_ccdf) { return cdf_tails(log1m_exp(log_ccdf), log_ccdf); }

// Given dF/d(slot) = c exp(log_scale), sets d log F = dF / F and d log(1 - F) = -dF / (1 - F),
// each from the logarithms so that neither underflows in the tails. A tail that is 0 (its
// logarithm -inf) gets no derivative.
inline void set_cdf_derivative(cdf_parts& r, std::size_t slot, double c, double log_scale) {
  if (c == 0) return;
  if (std::isfinite(r.log_cdf)) r.d_log_cdf[slot] = c * std::exp(log_scale - r.log_cdf);
  if (std::isfinite(r.log_ccdf)) r.d_log_ccdf[slot] = -c * std::exp(log_scale - r.log_ccdf);
}

// F(x) = G(z), z = (x - mu) / sigma, with log g(z) the standard density's logarithm:
// dF/dx = g / sigma, dF/dmu = -g / sigma, dF/dsigma = -z g / sigma. Parameter slots as
// cdf_parts numbers them (parameter i is slot i + 1).
inline void set_location_scale_derivatives(cdf_parts& r, double log_g, double z, double sigma, std::size_t mu_slot,
                                           std::size_t sigma_slot) {
  if (!std::isfinite(z)) return;
  const double log_scale = log_g - std::log(sigma);
  set_cdf_derivative(r, 0, 1, log_scale);
  set_cdf_derivative(r, mu_slot, -1, log_scale);
  set_cdf_derivative(r, sigma_slot, -z, log_scale);
}

// d log F and d log(1 - F) in positive parameter `param` by a central difference with the
// relative step 1e-5: the derivatives of the incomplete gamma and beta functions in their
// shapes have no closed form. Boost's functions are accurate to a few ulps, so the
// truncation error (~1e-10 relative) and the rounding error (~1e-11 times the condition)
// leave about 9 digits, enough for NUTS's trajectories.
inline void cdf_shape_difference(const distribution& d, std::span<const view> params, double x, std::size_t param,
                                 cdf_parts& r) {
  std::array<double, 4> values{};
  std::array<view, 4> moved{};
  for (std::size_t i = 0; i < params.size() && i < 4; ++i) {
    values[i] = params[i][0];
    moved[i] = {&values[i], ppl::shape::scalar()};
  }
  const std::span<const view> in(moved.data(), params.size());
  const double s = values[param], h = 1e-5 * s;
  values[param] = s + h;
  const cdf_parts up = d.cdf(in, x, false);
  values[param] = s - h;
  const cdf_parts down = d.cdf(in, x, false);
  if (std::isfinite(r.log_cdf)) r.d_log_cdf[param + 1] = (up.log_cdf - down.log_cdf) / (2 * h);
  if (std::isfinite(r.log_ccdf)) r.d_log_ccdf[param + 1] = (up.log_ccdf - down.log_ccdf) / (2 * h);
}

// log of the standard Cauchy density, 1 / (pi (1 + z^2)), without overflowing z^2.
inline double log_cauchy_density(double z) {
  const double a = std::fabs(z);
  return -std::log(std::numbers::pi) - (a > 1 ? 2 * std::log(a) + std::log1p(1 / (a * a)) : std::log1p(a * a));
}

}  // namespace ppl::stdlib
