// Cases for the elementwise functions after the first few: the elementary ones (rounding,
// trigonometry, powers, steps, fmin/fmax), the special functions of special_functions.cpp,
// and ifelse. Expected values are closed forms or published constants, not the code's
// own formulas; see function_cases.hpp for how the tables are used.
#include <cmath>
#include <numbers>

#include "tests/stdlib/function_cases.hpp"

namespace ppl::testing {

namespace {

const double pi = std::numbers::pi, ln2 = std::numbers::ln2;

std::vector<value_case> elementary_values() {
  return {
      {"fabs", {vec({-3, 2.5})}, vec({3, 2.5})},
      {"floor", {vec({-1.5, 2.7, 3})}, vec({-2, 2, 3})},
      {"ceil", {vec({-1.5, 2.2, 3})}, vec({-1, 3, 3})},
      {"round", {vec({-2.5, 2.5, 0.4, -0.6})}, vec({-3, 3, 0, -1})},  // halves away from zero
      {"to_int", {vec({-2.5, 2.5, 0.4, -0.6, 3.0})}, vec({-2, 2, 0, 0, 3})},  // toward zero
      {"cos", {vec({0, pi})}, vec({1, -1})},
      {"sin", {scalar(pi / 2)}, scalar(1)},
      {"tan", {scalar(pi / 4)}, scalar(1)},
      {"atan", {vec({1, -1})}, vec({pi / 4, -pi / 4})},
      {"atan2", {scalar(1), scalar(-1)}, scalar(3 * pi / 4)},
      {"atan2", {vec({-1, 1}), scalar(0)}, vec({-pi / 2, pi / 2})},
      {"exp2", {vec({10, -1})}, vec({1024, 0.5})},
      {"log2", {scalar(8)}, scalar(3)},
      {"log10", {vec({1000, 0.01})}, vec({3, -2})},
      {"square", {vec({3, -2})}, vec({9, 4})},
      {"inv", {vec({4, -0.5})}, vec({0.25, -2})},
      {"inv_sqrt", {scalar(4)}, scalar(0.5)},
      {"cbrt", {vec({-27, 8})}, vec({-3, 2})},
      {"step", {vec({-1, 0, 2})}, vec({0, 1, 1})},
      {"int_step", {vec({-1, 0, 2})}, vec({0, 0, 1})},
      {"is_nan", {vec({1, std::nan(""), -2})}, vec({0, 1, 0})},
      {"equals", {vec({1, 2, 3}), scalar(2)}, vec({0, 1, 0})},
      {"fmin", {vec({1, 5}), scalar(3)}, vec({1, 3})},
      {"fmax", {vec({1, 5}), scalar(3)}, vec({3, 5})},
      {"fmax", {scalar(NAN), scalar(3)}, scalar(3)},  // the number, not NaN
      {"fdim", {vec({1, 5}), scalar(3)}, vec({0, 2})},
      {"ifelse", {vec({1, 0, 1}), vec({10, 20, 30}), scalar(-1)}, vec({10, -1, 30})},
      {"ifelse", {scalar(0), scalar(1.5), scalar(2.5)}, scalar(2.5)},
      {"ifelse", {scalar(1), mat(1, 2, {1, 2}), mat(1, 2, {3, 4})}, mat(1, 2, {1, 2})},
  };
}

std::vector<value_case> probability_values() {
  return {
      {"Phi", {vec({0, 1, -1.959963984540054})}, vec({0.5, 0.8413447460685429, 0.025})},
      {"Phi", {scalar(-10)}, scalar(7.619853024160527e-24)},  // no cancellation in the tail
      {"Phi_approx", {scalar(0)}, scalar(0.5)},
      {"Phi_approx", {scalar(1)}, scalar(1 / (1 + std::exp(-(0.07056 + 1.5976))))},
      {"inv_Phi", {vec({0.5, 0.975, 1e-20})}, vec({0, 1.959963984540054, -9.262340089798408})},
      {"inv_Phi", {vec({0, 1})}, vec({-INFINITY, INFINITY})},
      {"probit", {scalar(0.8413447460685429)}, scalar(1)},
      {"log_inv_logit", {vec({0, -800, 800})}, vec({-ln2, -800, 0})},
      {"log1m_inv_logit", {vec({0, 800, -40})}, vec({-ln2, -800, -std::exp(-40.0)})},
      {"log1p_exp", {vec({0, 800, -40})}, vec({ln2, 800, std::exp(-40.0)})},
      {"log1m", {vec({0.5, 1e-12, 1})}, vec({-ln2, -1e-12, -INFINITY})},
      {"cloglog", {vec({0.5, 1 - 1 / std::numbers::e})}, vec({-0.36651292058166435, 0})},
      {"inv_cloglog", {vec({0, -40})}, vec({1 - 1 / std::numbers::e, 4.248354255291589e-18})},
      {"erf", {vec({0.5, -0.5})}, vec({0.5204998778130465, -0.5204998778130465})},
      {"erfc", {vec({0.5, 10})}, vec({0.4795001221869535, 2.088487583762545e-45})},
  };
}

std::vector<value_case> gamma_values() {
  const double sqrt_pi = std::sqrt(pi), euler = std::numbers::egamma;
  return {
      {"lgamma", {vec({5, 0.5, 1e6})}, vec({std::log(24.0), std::log(sqrt_pi), 12815504.569147612})},
      {"tgamma", {vec({5, 0.5})}, vec({24, sqrt_pi})},
      {"digamma", {vec({1, 0.5})}, vec({-euler, -euler - 2 * ln2})},
      {"logfact", {vec({4, 0})}, vec({std::log(24.0), 0})},
      {"lbeta", {scalar(2), scalar(3)}, scalar(-std::log(12.0))},
      {"lbeta", {scalar(0.5), vec({0.5, 1})}, vec({std::log(pi), std::log(2.0)})},
      {"lchoose", {scalar(5), scalar(2)}, scalar(std::log(10.0))},
      {"lchoose", {scalar(4.5), scalar(2)}, scalar(std::log(4.5 * 3.5 / 2))},
      {"choose", {vec({5, 3, 50}), vec({2, 5, 25})}, vec({10, 0, 126410606437752})},  // exact below 2^53
  };
}

}  // namespace

std::vector<value_case> special_value_cases() {
  std::vector<value_case> all = elementary_values();
  for (const auto& more : {probability_values(), gamma_values()}) all.insert(all.end(), more.begin(), more.end());
  return all;
}

std::vector<type_case> special_type_cases() {
  const auto i0 = int_t(0), i1 = int_t(1), r0 = real_t(0), r1 = real_t(1), r2 = real_t(2);
  std::vector<type_case> cases;
  for (const char* name : {"Phi", "Phi_approx", "inv_Phi", "probit", "log_inv_logit", "log1m_inv_logit", "log1p_exp",
                           "log1m", "lgamma", "tgamma", "digamma", "logfact", "erf", "erfc", "cloglog", "inv_cloglog",
                           "fabs", "cos", "sin", "tan", "atan", "exp2", "log2", "log10", "inv", "inv_sqrt", "cbrt"}) {
    cases.push_back(ok(name, {i0}, r0));
    cases.push_back(ok(name, {r2}, r2));
  }
  for (const char* name : {"floor", "ceil", "round", "square"}) {
    cases.push_back(ok(name, {i1}, i1));  // integers stay integers
    cases.push_back(ok(name, {r0}, r0));
  }
  for (const char* name : {"step", "int_step", "is_nan", "to_int"}) cases.push_back(ok(name, {r1}, i1));
  for (const char* name : {"atan2", "lbeta", "lchoose"}) cases.push_back(ok(name, {i0, r1}, r1));
  for (const char* name : {"fmin", "fmax", "fdim"}) {
    cases.push_back(ok(name, {i1, i0}, i1));
    cases.push_back(ok(name, {r0, i0}, r0));
  }
  cases.push_back(ok("equals", {r1, r0}, i1));
  cases.push_back(ok("choose", {i0, i1}, i1));
  cases.push_back(bad("choose", {r0, i0}, "choose needs integers, got real and int"));
  cases.push_back(bad("lbeta", {r1, r2}, "lbeta needs operands of the same shape, or one a scalar"));
  cases.push_back(bad("Phi", {r0, r0}, "Phi takes 1 argument, got 2"));
  cases.push_back(ok("ifelse", {i1, r1, r0}, r1));
  cases.push_back(ok("ifelse", {i0, int_t(2), i0}, int_t(2)));
  cases.push_back(bad("ifelse", {r0, r0, r0}, "ifelse needs an integer condition (a comparison such as x > 0), got real"));
  cases.push_back(bad("ifelse", {i1, r2, r0}, "ifelse needs arguments of the same shape, or scalars, got int[], real[,]"));
  cases.push_back(bad("ifelse", {i0, r0}, "ifelse takes 3 arguments, got 2"));
  return cases;
}

std::vector<gradient_case> special_gradient_cases() {
  std::vector<gradient_case> cases;
  for (const char* name : {"Phi", "Phi_approx", "inv_Phi", "probit", "log_inv_logit", "log1m_inv_logit", "log1p_exp",
                           "log1m", "lgamma", "tgamma", "digamma", "logfact", "erf", "erfc", "cloglog", "inv_cloglog",
                           "fabs", "cos", "sin", "tan", "atan", "exp2", "log2", "log10", "square", "inv", "inv_sqrt",
                           "cbrt"}) {
    cases.push_back({name, {vec({0.3, 0.7})}});
    cases.push_back({name, {mat(2, 2, {0.15, 0.5, 0.85, 0.95})}});
  }
  for (const char* name : {"Phi", "log_inv_logit", "log1m_inv_logit", "log1p_exp", "inv_cloglog", "erf", "cos", "atan"})
    cases.push_back({name, {vec({-6.0, -1.5, 2.5})}});
  cases.push_back({"atan2", {vec({0.4, -1.3}), vec({-1.7, 0.6})}});
  cases.push_back({"atan2", {scalar(0.8), vec({1.7, -0.6})}});
  cases.push_back({"lbeta", {vec({0.4, 3.5}), vec({1.7, 0.6})}});
  cases.push_back({"lchoose", {vec({5.5, 9.0}), vec({2.3, 4.0})}});
  cases.push_back({"lchoose", {scalar(7.2), vec({1.5, 3.0})}});
  cases.push_back({"ifelse", {vec({1, 0, 1}), vec({0.5, 1.5, 2.5}), vec({-1, -2, -3})}, {true, false, false}});
  cases.push_back({"ifelse", {vec({0, 1}), scalar(0.7), vec({-1, -2})}, {true, false, false}});
  return cases;
}

std::vector<error_case> special_error_cases() {
  return {
      {"choose", {scalar(-1), scalar(2)}, "choose: arguments must be non-negative"},
      {"choose", {scalar(60), scalar(30)}, "choose: the result is 2^53 or more"},
      {"ifelse", {vec({1, 0}), vec({1, 2, 3}), scalar(0)}, "ifelse: arguments have shapes [2] and [3]"},
  };
}

}  // namespace ppl::testing
