#include "lang/bugs_names.hpp"

#include <algorithm>
#include <array>

namespace ppl::lang {

namespace {

// The parametrisations are those of the JAGS 4 manual (Plummer 2017, chapter 9) and the
// OpenBUGS manual's table of distributions; they agree on every entry here. Sorted by name.
constexpr std::array distributions{
    bugs_name{"dbern(p)", "Bernoulli(p)", ""},
    bugs_name{"dbeta(a, b)", "Beta(a, b)", ""},
    bugs_name{"dbetabin(a, b, n)", "BetaBinomial(n, a, b)", "the number of trials first"},
    bugs_name{"dbin(p, n)", "Binomial(n, p)", "the arguments are the other way round"},
    bugs_name{"dcat(p)", "Categorical(p)", ""},
    bugs_name{"dchisqr(k)", "ChiSquare(k)", ""},
    bugs_name{"ddexp(mu, tau)", "DoubleExponential(mu, 1 / tau)", "a scale, not its inverse"},
    bugs_name{"ddirch(alpha)", "Dirichlet(alpha)", ""},
    bugs_name{"ddirich(alpha)", "Dirichlet(alpha)", ""},
    bugs_name{"dexp(lambda)", "Exponential(lambda)", ""},
    bugs_name{"dflat()", "Flat()", "improper"},
    bugs_name{"dgamma(r, lambda)", "Gamma(r, lambda)", "shape and rate, as in BUGS"},
    bugs_name{"dlnorm(mu, tau)", "LogNormal(mu, 1 / sqrt(tau))", "ppl takes a standard deviation, not a precision"},
    bugs_name{"dlogis(mu, tau)", "Logistic(mu, 1 / tau)", "a scale, not its inverse"},
    bugs_name{"dmnorm(mu, Omega)", "MultiNormalPrec(mu, Omega)", "or MultiNormal(mu, Sigma) with Sigma the covariance"},
    bugs_name{"dmnorm.vcov(mu, Sigma)", "MultiNormal(mu, Sigma)", ""},
    bugs_name{"dmulti(p, n)", "Multinomial(n, p)", "the arguments are the other way round"},
    bugs_name{"dnegbin(p, r)", "NegativeBinomial(r, p / (1 - p))", "the shape and the rate of the Gamma mixing the Poisson"},
    bugs_name{"dnorm(mu, tau)", "Normal(mu, 1 / sqrt(tau))", "ppl takes a standard deviation, not a precision"},
    bugs_name{"dpar(alpha, c)", "Pareto(c, alpha)", "the arguments are the other way round"},
    bugs_name{"dpois(lambda)", "Poisson(lambda)", ""},
    bugs_name{"dt(mu, tau, k)", "StudentT(k, mu, 1 / sqrt(tau))", "degrees of freedom first, and a scale, not a precision"},
    bugs_name{"dunif(a, b)", "Uniform(a, b)", ""},
    bugs_name{"dweib(v, lambda)", "Weibull(v, pow(lambda, -1 / v))", "a scale sigma with lambda = sigma^-v"},
    bugs_name{"dwish(R, k)", "Wishart(k, inverse(R))", "Stan's scale matrix, the inverse of BUGS's R"},
};

// Functions whose ppl name or meaning differs; the others (exp, log, sqrt, pow, step,
// equals, ifelse, logit, cloglog, probit, sum, mean, sd, max, min, inverse, ...) are the
// same in both. Sorted by name.
constexpr std::array functions{
    bugs_name{"cdf.pois(x, lambda)", "poisson_cdf(x | lambda)", "MultiBUGS's; P(X <= x)"},
    bugs_name{"icloglog(x)", "inv_cloglog(x)", ""},
    bugs_name{"ilogit(x)", "inv_logit(x)", ""},
    bugs_name{"inprod(u, v)", "dot(u, v)", ""},
    bugs_name{"logdet(A)", "log_determinant(A)", ""},
    bugs_name{"loggam(x)", "lgamma(x)", ""},
    bugs_name{"ncol(A)", "cols(A)", ""},
    bugs_name{"nrow(A)", "rows(A)", ""},
    bugs_name{"phi(x)", "Phi(x)", "the normal distribution function"},
    bugs_name{"rank(v, s)", "rank(v, s) + 1", "ppl's counts the entries below v[s], BUGS's those at or below it"},
    bugs_name{"sort(v)", "sort_asc(v)", ""},
    bugs_name{"t(A)", "transpose(A)", ""},
};

constexpr bool sorted_by_callee(const auto& table) {
  for (std::size_t i = 1; i < table.size(); ++i)
    if (!(callee_of(table[i - 1].bugs) < callee_of(table[i].bugs))) return false;
  return true;
}
static_assert(sorted_by_callee(distributions));
static_assert(sorted_by_callee(functions));

const bugs_name* find(std::span<const bugs_name> table, std::string_view name) {
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const bugs_name& e, std::string_view n) { return callee_of(e.bugs) < n; });
  return it != table.end() && callee_of(it->bugs) == name ? &*it : nullptr;
}

}  // namespace

std::span<const bugs_name> bugs_distribution_table() { return distributions; }
std::span<const bugs_name> bugs_function_table() { return functions; }
const bugs_name* find_bugs_distribution(std::string_view name) { return find(distributions, name); }
const bugs_name* find_bugs_function(std::string_view name) { return find(functions, name); }

}  // namespace ppl::lang
