#pragma once
// The logistic link and its logarithms, written so that nothing overflows or loses a
// small value: used by the log-odds distributions and the elementwise functions.
#include <algorithm>
#include <cmath>

namespace ppl::stdlib {

inline double inv_logit(double x) {
  // For x < 0, e^x / (1 + e^x): exp never overflows.
  if (x >= 0) return 1 / (1 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1 + e);
}

// log(1 + e^x) = max(x, 0) + log1p(e^-|x|).
inline double softplus(double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }

// log inv_logit(x) = -log(1 + e^-x), finite for every finite x.
inline double log_inv_logit(double x) { return -softplus(-x); }

// log inv_logit(a), log inv_logit(-a) and inv_logit(a) from one exp and one log1p, as the
// three functions above give them bit for bit: e = e^-|a|, l = log1p(e).
struct logit_parts {
  double log_p, log_q, p;
  explicit logit_parts(double a) {
    const double e = std::exp(-std::fabs(a)), l = std::log1p(e);
    log_p = -(std::max(-a, 0.0) + l);
    log_q = -(std::max(a, 0.0) + l);
    p = a >= 0 ? 1 / (1 + e) : e / (1 + e);
  }
};

// log(1 - e^x) for x <= 0, by the branch that keeps its accuracy (Maechler 2012,
// "Accurately computing log(1 - exp(-|a|))"): log(-expm1(x)) near 0, log1p(-e^x) below.
inline double log1m_exp(double x) {
  return x > -0.6931471805599453 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
}

}  // namespace ppl::stdlib
