#include "lang/habits.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "lang/suggest.hpp"

namespace ppl::lang {

namespace {

using entry = std::pair<std::string_view, std::string_view>;

// BUGS and JAGS name a distribution d + an abbreviation and give normals a precision
// (1 / variance); ppl follows Stan: full names, standard deviations. Sorted by name.
constexpr std::array bugs_distributions{
    entry{"dbern", "dbern(p) is Bernoulli(p) here"},
    entry{"dbeta", "dbeta(a, b) is Beta(a, b) here"},
    entry{"dbin", "dbin(p, n) is Binomial(n, p) here: the arguments are the other way round"},
    entry{"dcat", "dcat(p) is Categorical(p) here"},
    entry{"dchisqr", "dchisqr(k) is Gamma(k / 2, 0.5) here"},
    entry{"ddirch", "ddirch(alpha) is Dirichlet(alpha) here"},
    entry{"dexp", "dexp(lambda) is Exponential(lambda) here"},
    entry{"dgamma", "dgamma(r, lambda) is Gamma(r, lambda) here (shape and rate, as in BUGS)"},
    entry{"dlnorm", "dlnorm(mu, tau) is LogNormal(mu, 1 / sqrt(tau)) here: ppl takes a standard deviation, not a precision"},
    entry{"dmnorm", "dmnorm(mu, Omega) is MultiNormalPrec(mu, Omega) here (or MultiNormal(mu, Sigma) with Sigma the covariance)"},
    entry{"dmulti", "dmulti(p, n) is Multinomial(n, p) here: the arguments are the other way round"},
    entry{"dnegbin", "dnegbin(p, r) is NegativeBinomial(r, p / (1 - p)) here"},
    entry{"dnorm", "dnorm(mu, tau) is Normal(mu, 1 / sqrt(tau)) here: ppl takes a standard deviation, not a precision"},
    entry{"dpois", "dpois(lambda) is Poisson(lambda) here"},
    entry{"dt", "dt(mu, tau, k) is StudentT(k, mu, 1 / sqrt(tau)) here: degrees of freedom first, and a scale, not a precision"},
    entry{"dunif", "dunif(a, b) is Uniform(a, b) here"},
    entry{"dwish", "dwish(R, k) is Wishart(k, inverse(R)) here: Stan's scale matrix, the inverse of BUGS's R"},
};

constexpr std::array bugs_functions{
    entry{"equals", "equals(a, b) is a == b here"},
    entry{"ilogit", "ilogit(x) is inv_logit(x) here"},
    entry{"inprod", "inprod(u, v) is dot(u, v) here"},
    entry{"step", "step(x) is x >= 0 here"},
};

template <std::size_t N>
std::string lookup(const std::array<entry, N>& table, std::string_view name) {
  auto it = std::lower_bound(table.begin(), table.end(), name, [](const entry& e, std::string_view n) { return e.first < n; });
  return it != table.end() && it->first == name ? "BUGS's " + std::string(it->second) : "";
}

// A program's sections in Stan (`model {`, `parameters {`) and BUGS (`model {`, `data {`).
constexpr std::array<std::string_view, 7> blocks{"data", "functions", "generated", "model", "parameters", "quantities", "transformed"};

}  // namespace

std::string bugs_distribution(std::string_view name) { return lookup(bugs_distributions, name); }

std::string bugs_function(std::string_view name) { return lookup(bugs_functions, name); }

std::string statement_habit(std::string_view word, std::string_view next) {
  if (word == "data" && next.substr(0, 1) == "{")
    return "ppl has no `data { ... }` block: declare each data variable on a line of its own, as `data y: real[N]`";
  if (next.substr(0, 1) == "{" && std::find(blocks.begin(), blocks.end(), word) != blocks.end())
    return "ppl has no `" + std::string(word) + " { ... }` block: write the statements themselves, at the top level";
  if (word == "target" && next.substr(0, 2) == "+=")
    return "Stan's `target += E` is `factor E` here";
  if ((word == "T" || word == "C" || word == "I") && next.substr(0, 1) == "(")
    return "truncation and censoring take square brackets after the distribution: `y ~ Normal(0, 1) T[a, b]` (JAGS's `T(a, b)`), "
           "`y ~ Weibull(r, s) C[a, ]` (BUGS's `C(a, )` and `I(a, )`); either bound may be left out";
  // Near a keyword, and not a longer word that happens to contain one (`information`).
  std::string keyword = closest_name(word, {"data", "factor", "for"});
  if (!keyword.empty() && keyword != word && word.size() <= keyword.size() + 1)
    return "`" + std::string(word) + "` is not a keyword; did you mean `" + keyword + "`?";
  return "";
}

}  // namespace ppl::lang
