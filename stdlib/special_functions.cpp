// Special functions, elementwise: the normal distribution function and its kin, the gamma
// family, the error functions, the logistic link's logarithms, the complementary log-log
// link and binomial coefficients. Each is a row {name, f, df, kind} of a table, as in
// elementwise.cpp. Boost.Math's functions are asked, through a policy, to return NaN or inf
// rather than throw for arguments outside their domain (digamma(0)), as std::lgamma does.
#include <algorithm>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "stdlib/function_groups.hpp"
#include "stdlib/link.hpp"
#include "stdlib/log_gamma.hpp"
#include "stdlib/normal_cdf.hpp"

namespace ppl::stdlib {

namespace {

namespace policies = boost::math::policies;
using quiet = policies::policy<policies::domain_error<policies::ignore_error>, policies::pole_error<policies::ignore_error>,
                               policies::overflow_error<policies::ignore_error>,
                               policies::evaluation_error<policies::ignore_error>>;

double digamma(double x) { return boost::math::digamma(x, quiet()); }
double trigamma(double x) { return boost::math::trigamma(x, quiet()); }

// Stan's Phi_approx: inv_logit(0.07056 x^3 + 1.5976 x), within 1.4e-4 of Phi (Bowling et al.
// 2009, "A logistic approximation to the cumulative normal distribution").
double phi_approx_inner(double x) { return 0.07056 * x * x * x + 1.5976 * x; }

// log(-log(1 - x)) and its inverse 1 - exp(-exp(x)), without cancellation near 0.
double cloglog(double x) { return std::log(-std::log1p(-x)); }
double inv_cloglog(double x) { return -std::expm1(-std::exp(x)); }

const unary_math unary_table[] = {
    {"Phi", Phi, [](double x, double) { return std::exp(log_normal_density(x)); }, result_kind::real},
    {"Phi_approx", [](double x) { return inv_logit(phi_approx_inner(x)); },
     [](double x, double fx) { return fx * (1 - fx) * (3 * 0.07056 * x * x + 1.5976); }, result_kind::real},
    {"cloglog", cloglog, [](double x, double) { return -1 / ((1 - x) * std::log1p(-x)); }, result_kind::real},
    {"digamma", digamma, [](double x, double) { return trigamma(x); }, result_kind::real},
    {"erf", [](double x) { return std::erf(x); },
     [](double x, double) { return 2 / std::sqrt(std::numbers::pi) * std::exp(-x * x); }, result_kind::real},
    {"erfc", [](double x) { return std::erfc(x); },
     [](double x, double) { return -2 / std::sqrt(std::numbers::pi) * std::exp(-x * x); }, result_kind::real},
    {"inv_Phi", inv_Phi, [](double, double fx) { return std::exp(-log_normal_density(fx)); }, result_kind::real},
    {"inv_cloglog", inv_cloglog, [](double x, double) { return std::exp(x - std::exp(x)); }, result_kind::real},
    {"lgamma", log_gamma, [](double x, double) { return digamma(x); }, result_kind::real},
    {"log1m", [](double x) { return std::log1p(-x); }, [](double x, double) { return -1 / (1 - x); }, result_kind::real},
    {"log1m_inv_logit", [](double x) { return log_inv_logit(-x); }, [](double x, double) { return -inv_logit(x); },
     result_kind::real},
    {"log1p_exp", softplus, [](double x, double) { return inv_logit(x); }, result_kind::real},
    {"log_inv_logit", log_inv_logit, [](double x, double) { return inv_logit(-x); }, result_kind::real},
    {"logfact", [](double x) { return log_gamma(x + 1); }, [](double x, double) { return digamma(x + 1); },
     result_kind::real},
    {"probit", inv_Phi, [](double, double fx) { return std::exp(-log_normal_density(fx)); }, result_kind::real},
    {"tgamma", [](double x) { return std::tgamma(x); }, [](double x, double fx) { return fx * digamma(x); },
     result_kind::real},
};

// log B(a, b) = log Gamma(a) + log Gamma(b) - log Gamma(a + b).
double lbeta(double a, double b) { return log_gamma(a) + log_gamma(b) - log_gamma(a + b); }
void lbeta_grad(double a, double b, double, double& da, double& db) {
  const double common = digamma(a + b);
  da = digamma(a) - common, db = digamma(b) - common;
}

// log C(n, k) for reals, through the gamma function, as Stan's lchoose.
double lchoose(double n, double k) { return log_gamma(n + 1) - log_gamma(k + 1) - log_gamma(n - k + 1); }
void lchoose_grad(double n, double k, double, double& dn, double& dk) {
  const double rest = digamma(n - k + 1);
  dn = digamma(n + 1) - rest, dk = rest - digamma(k + 1);
}

// C(n, k) for integers 0 <= k <= n, exactly: each partial product C(n - k + i, i) is an
// integer below 2^53, so every step is exact. 0 when k > n, as Stan's choose.
constexpr double exact_limit = 0x1p53;
double choose(double n, double k) {
  if (k > n) return 0;
  k = std::min(k, n - k);
  double c = 1;
  for (double i = 1; i <= k && c < exact_limit; ++i) c = c * (n - k + i) / i;
  return c;
}
const char* choose_invalid(double n, double k) {
  if (n < 0 || k < 0) return "arguments must be non-negative";
  if (choose(n, k) >= exact_limit) return "the result is 2^53 or more, beyond the integers a double holds exactly";
  return nullptr;
}

const binary_math binary_table[] = {
    {"choose", choose, nullptr, result_kind::integer, true, choose_invalid},
    {"lbeta", lbeta, lbeta_grad, result_kind::real},
    {"lchoose", lchoose, lchoose_grad, result_kind::real},
};

}  // namespace

std::unique_ptr<function> make_special_function(std::string_view name) {
  for (const auto& m : unary_table)
    if (m.name == name) return make_unary_map(m);
  for (const auto& m : binary_table)
    if (m.name == name) return make_binary_map(m);
  throw std::logic_error("no special function " + std::string(name));
}

}  // namespace ppl::stdlib
