// The BUGS front end: the grammar (lang/bugs_parser.*), the lowering into ppl's syntax
// tree (lang/bugs_lower.*) and the printer that `ppl translate` writes it with.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "lang/bugs_lower.hpp"
#include "lang/bugs_names.hpp"
#include "lang/bugs_parser.hpp"
#include "lang/checker.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "stdlib/registry.hpp"

namespace test_bugs {

using namespace ppl;

namespace {

// The BUGS text in ppl, with data of these shapes (or none).
std::string translate(const std::string& bugs, const lang::bugs_data_shapes* data = nullptr) {
  ppl::source_file src{"m.bug", bugs};
  lang::ast::program p = lang::lower_bugs(src, lang::parse_bugs(src), data);
  lang::check(src, p, stdlib::library());  // what the checker takes
  return lang::print_program(p, src.text);
}

std::string error_of(const std::string& bugs, const lang::bugs_data_shapes* data = nullptr) {
  try {
    translate(bugs, data);
  } catch (const ppl::source_error& e) {
    std::string s = e.what();
    return s.substr(0, s.find('\n'));
  }
  return "";
}

// A statement's right side alone: `x ~ D(...)` or `x <- e` in a model of its own, where
// these names are data: vectors and 2 x 2 matrices.
std::string right_side(const std::string& relation) {
  static const lang::bugs_data_shapes data = [] {
    lang::bugs_data_shapes d;
    for (const char* v : {"u", "v", "beta_c", "pv", "mv"}) d[v] = {{2}, false, 0};
    for (const char* x : {"a", "b", "c", "m", "t", "k", "r", "l", "mu", "p"}) d[x] = {{}, false, 1};
    d["n"] = {{}, true, 10};
    for (const char* M : {"A", "B", "S", "R", "T", "O"}) d[M] = {{2, 2}, false, 0};
    return d;
  }();
  std::string t = translate("model {\n  " + relation + "\n}\n", &data);
  t = t.substr(t.rfind("data ") == std::string::npos ? 0 : t.find('\n', t.rfind("data ")) + 1);
  const auto at = t.find_first_of("~=");
  return t.substr(at + 2, t.find('\n', at) - at - 2);
}

// ppl text printed back after parsing: the printer's parentheses and numbers.
std::string reprint(const std::string& expression) {
  lang::ast::program p = lang::parse({"e.ppl", "x = " + expression + "\n"});
  return lang::print_expression(boost::get<lang::ast::assign_stmt>(p.statements.at(0)).value);
}

}  // namespace

TEST_CASE("bugs: Seeds as the manual prints it, with its data's shapes") {
  const std::string seeds =
      "model {\n"
      "    for( i in 1 : N ) {\n"
      "        r[i] ~ dbin(p[i],n[i])\n"
      "        b[i] ~ dnorm(0.0,tau)\n"
      "        logit(p[i]) <- alpha0 + alpha1 * x1[i] + alpha2 * x2[i] +\n"
      "        alpha12 * x1[i] * x2[i] + b[i]   # linear predictor\n"
      "    }\n"
      "    alpha0 ~ dnorm(0.0,1.0E-6)\n"
      "    alpha1 ~ dnorm(0.0,1.0E-6) alpha2 ~ dnorm(0.0,1.0E-6) alpha12 ~ dnorm(0.0,1.0E-6)\n"
      "    tau ~ dgamma(0.001,0.001)\n"
      "    sigma <- 1 / sqrt(tau)\n"
      "}\n";
  lang::bugs_data_shapes data{{"N", {{}, true, 21}}, {"r", {{21}, true, 0}}, {"n", {{21}, true, 0}},
                              {"x1", {{21}, true, 0}}, {"x2", {{21}, false, 0}}, {"unused", {{3}, true, 0}}};
  CHECK(translate(seeds, &data) ==
        "data N: int\n"
        "data n: int[N]\n"
        "data r: int[N]\n"
        "data x1: int[N]\n"
        "data x2: real[N]\n"
        "for i in 1:N {\n"
        "  r[i] ~ Binomial(n[i], inv_logit(alpha0 + alpha1 * x1[i] + alpha2 * x2[i] + alpha12 * x1[i] * x2[i] + b[i]))\n"
        "  b[i] ~ Normal(0.0, 1 / sqrt(tau))\n"
        "  p[i] = inv_logit(alpha0 + alpha1 * x1[i] + alpha2 * x2[i] + alpha12 * x1[i] * x2[i] + b[i])  # linear predictor\n"
        "}\n"
        "alpha0 ~ Normal(0.0, 1000.0)\n"
        "alpha1 ~ Normal(0.0, 1000.0)\n"
        "alpha2 ~ Normal(0.0, 1000.0)\n"
        "alpha12 ~ Normal(0.0, 1000.0)\n"
        "tau ~ Gamma(0.001, 0.001)\n"
        "sigma = 1 / sqrt(tau)\n");
}

TEST_CASE("bugs: an observation of a linked node reads its linear predictor") {
  const lang::bugs_data_shapes data{{"y", {{2, 3}, true, 0}}, {"n", {{2}, true, 0}}};
  // Same loop variables: the predictor, which the checker makes BernoulliLogit.
  std::string t = translate("model {\n for (j in 1:2) { for (k in 1:3) { logit(p[j, k]) <- a[k] * 40\n y[j, k] ~ dbern(p[j, k]) } }\n"
                            " for (k in 1:3) { a[k] ~ dnorm(0, 1) }\n}\n", &data);
  CHECK(t.find("y[j, k] ~ Bernoulli(inv_logit(a[k] * 40))\n") != std::string::npos);
  CHECK(t.find("p[j, k] = inv_logit(a[k] * 40)\n") != std::string::npos);
  // Other indices, or a node with two definitions: the node.
  t = translate("model {\n for (j in 1:2) { for (k in 1:3) { logit(p[j, k]) <- a[k]\n y[j, k] ~ dbern(p[k, j]) } }\n"
                " for (k in 1:3) { a[k] ~ dnorm(0, 1) }\n}\n", &data);
  CHECK(t.find("y[j, k] ~ Bernoulli(p[k, j])\n") != std::string::npos);
  // log with dpois; logit with dpois is left alone.
  t = translate("model {\n for (j in 1:2) { log(m[j]) <- a\n n[j] ~ dpois(m[j])\n logit(q[j]) <- a\n y[j, 1] ~ dpois(q[j]) }\n a ~ dnorm(0, 1)\n}\n", &data);
  CHECK(t.find("n[j] ~ Poisson(exp(a))\n") != std::string::npos);
  CHECK(t.find("y[j, 1] ~ Poisson(q[j])\n") != std::string::npos);
}

TEST_CASE("bugs: JAGS's dinterval is censoring, its bound taken by the indicator, or a constraint on a computed node") {
  const lang::bugs_data_shapes data{{"N", {{}, true, 3}}, {"is_censored", {{3}, true, 0}}, {"t", {{3}, false, 0}}, {"c", {{3}, false, 0}}};
  const std::string t = translate("model {\n for (i in 1:N) {\n  is.censored[i] ~ dinterval(t[i], c[i])\n  t[i] ~ dweib(r, 2)\n }\n r ~ dexp(1)\n}\n", &data);
  CHECK(t.find("for i in 1:N {\n"
               "  if (is_censored[i] == 1) {\n"
               "    t[i] ~ Weibull(r, pow(2, -1 / r)) C[c[i], ]\n"
               "  } else {\n"
               "    t[i] ~ Weibull(r, pow(2, -1 / r)) C[, c[i]]\n"
               "  }\n"
               "}\n") != std::string::npos);
  // Without the node's `~` beside it (drawn in another loop, or computed with `<-`), the
  // indicator's likelihood is a factor: 0 where the node is in the named interval, -inf
  // elsewhere.
  CHECK(translate("model {\n for (i in 1:N) { is.censored[i] ~ dinterval(t[i], c[i]) }\n for (i in 1:N) { t[i] ~ dexp(1) }\n}\n", &data)
            .find("  factor log(is_censored[i] == t[i] > c[i])\n") != std::string::npos);
  CHECK(error_of("model {\n for (i in 1:N) { is.censored[i] ~ dinterval(t[i], c[i])\n t[i] ~ dexp(1) T(0, ) }\n}\n", &data) ==
        "m.bug:3:17: error: `t[i]` is censored by dinterval and may not be restricted again");
  // dsum: the observed sum of its arguments.
  CHECK(translate("model {\n y ~ dsum(a, b, 3)\n a ~ dpois(1)\n b ~ dpois(2)\n}\n", &data).find("y ~ Sum([a, b, 3])\n") != std::string::npos);
  CHECK(error_of("model {\n y ~ dsum()\n}\n", &data) == "m.bug:2:6: error: dsum takes 1 or more arguments, the summands");
  // Several cut points: the indicator is the interval, 0 below the first cut, K above the last.
  const lang::bugs_data_shapes cuts{{"N", {{}, true, 3}}, {"band", {{3}, true, 0}}, {"t", {{3}, false, 0}}, {"c", {{2}, false, 0}}};
  CHECK(translate("model {\n for (i in 1:N) {\n  band[i] ~ dinterval(t[i], c[])\n  t[i] ~ dexp(1)\n }\n}\n", &cuts)
            .find("  if (band[i] == 0) {\n"
                  "    t[i] ~ Exponential(1) C[, c[1]]\n"
                  "  } else {\n"
                  "    if (band[i] == length(c)) {\n"
                  "      t[i] ~ Exponential(1) C[c[length(c)], ]\n"
                  "    } else {\n"
                  "      t[i] ~ Exponential(1) C[c[band[i]], c[band[i] + 1]]\n") != std::string::npos);
  CHECK(translate("model {\n for (i in 1:N) {\n  s[i] <- 2 * t[i]\n  band[i] ~ dinterval(s[i], c[])\n  t[i] ~ dexp(1)\n }\n}\n", &cuts)
            .find("  factor log(band[i] == sum(s[i] > c))\n") != std::string::npos);
}

TEST_CASE("bugs: an array partly `<-` and partly `~` gives each `~` a variable of its own") {
  const lang::bugs_data_shapes data{{"K", {{}, true, 4}}, {"I", {{}, true, 3}}, {"y", {{3, 4}, false, 0}}, {"Y", {{3}, true, 0}}};
  // Corner constraints: the copies come first, indices rebased to start at 1.
  std::string t = translate("model {\n alpha[1] <- 0\n for (k in 2:K) { alpha[k] ~ dnorm(0, 1) }\n"
                            " for (i in 1:I) { beta[i, 1] <- 0\n for (k in 2:K) { beta[i, k] ~ dnorm(alpha[k], 1)\n"
                            " y[i, k] ~ dnorm(beta[i, k], 1) } }\n}\n", &data);
  CHECK(t.find("for k in 2:K {\n  alpha[k] = alpha_free[k - 2 + 1]\n}\n") < t.find("alpha[1] = 0.0\n"));
  CHECK(t.find("for i in 1:I {\n  for k in 2:K {\n    beta[i, k] = beta_free[i, k - 2 + 1]\n  }\n}\n") != std::string::npos);
  CHECK(t.find("  alpha_free[k - 2 + 1] ~ Normal(0, 1.0)\n") != std::string::npos);
  CHECK(t.find("    beta_free[i, k - 2 + 1] ~ Normal(alpha[k], 1.0)\n") != std::string::npos);
  // An element given by a number: a scalar named after it, read before it is written.
  t = translate("model {\n lambda[2] <- lambda[1] + theta\n lambda[1] ~ dnorm(0, 1)\n theta ~ dunif(0, 10)\n}\n");
  CHECK(t.find("lambda[1] = lambda_1\n") < t.find("lambda[2] = lambda[1] + theta\n"));
  CHECK(t.find("lambda_1 ~ Normal(0, 1.0)\n") != std::string::npos);
  // A `~` beside a `<-` of the same element is BUGS's data transformation, left as it is.
  t = translate("model {\n for (i in 1:I) { z[i] <- 1 - Y[i]\n z[i] ~ dbern(p) }\n p ~ dbeta(1, 1)\n}\n", &data);
  CHECK(t.find("z[i] ~ Bernoulli(p)\n") != std::string::npos);
  // What cannot be split says why.
  CHECK(error_of("model {\n a[1] <- 0\n for (k in 1:3) { a[k + 1] ~ dnorm(0, 1) }\n}\n") ==
        "m.bug:3:21: error: `a` has elements defined by `<-` and others by `~`; ppl gives each `~` a variable of its own, which needs each "
        "index on its left to be a number or a loop variable, each loop variable once");
  CHECK(error_of("model {\n for (i in 1:3) { a[i, 1] <- 0\n for (k in 2:i) { a[i, k] ~ dnorm(0, 1) } }\n}\n") ==
        "m.bug:3:24: error: `a` has elements defined by `<-` and others by `~`; ppl gives each `~` a variable of its own, which needs the "
        "bounds of the loop of `k` not to depend on other loops (a rectangular block)");
}

TEST_CASE("bugs: arrays that read each other element by element, each element on its own") {
  // Magnesium's priors: a cycle between tau2 and inv, none between their elements.
  const std::string t = translate("model {\n inv[1] ~ dgamma(1, 1)\n tau2[1] <- 1 / inv[1]\n"
                                  " tau2[2] ~ dunif(0, 5)\n inv[2] <- 1 / tau2[2]\n"
                                  " for (j in 1:2) { y[j] ~ dnorm(0, inv[j]) }\n}\n");
  CHECK(t.find("tau2_1 = 1 / inv_1\ntau2[1] = tau2_1\n") != std::string::npos);
  CHECK(t.find("inv_2 = 1 / tau2_2\ninv[2] = inv_2\n") != std::string::npos);
  CHECK(t.find("inv[1] = inv_1\n") != std::string::npos);  // the split `~`, read by its name
  CHECK(t.find("inv_1 ~ Gamma(1, 1)\n") != std::string::npos);
  CHECK(t.find("y[j] ~ Normal(0, 1 / sqrt(inv[j]))\n") != std::string::npos);
  // A cycle through an array defined in a loop: the loop's helper is written into the
  // statement that reads it (bugs_cycle_helpers.cpp); b[1] then reads b[2], defined after
  // it, which ppl's checker still refuses (an element may read only earlier ones).
  CHECK(error_of("model {\n for (j in 1:2) { a[j] <- b[j] + 1 }\n b[1] <- a[2]\n b[2] <- 1\n}\n").find("defined in terms of itself") !=
        std::string::npos);
  // A cycle between elements too (a[j] and b[j] read each other) is refused.
  CHECK(error_of("model {\n for (j in 1:2) { a[j] <- b[j] + 1 }\n for (j in 1:2) { b[j] <- a[j] }\n}\n").find("in terms of itself") !=
        std::string::npos);
}

TEST_CASE("bugs: cut points whose bounds are their neighbours are one ordered vector") {
  // MultiBUGS's Inhalers: the product of the three uniform densities, within the outer bounds.
  const std::string uniform = translate("model {\n a[1] ~ dunif(-1000, a[2])\n a[2] ~ dunif(a[1], a[3])\n a[3] ~ dunif(a[2], 1000)\n"
                                        " y ~ dnorm(a[2], 1)\n}\n");
  CHECK(uniform.find("param a: ordered[3]\nfactor -log(a[2] - -1000) - log(a[3] - a[1]) - log(1000 - a[2]) + log(a[1] > -1000) + "
                     "log(a[3] < 1000)\n") != std::string::npos);
  CHECK(uniform.find("a[1] ~") == std::string::npos);
  // OpenBUGS's: flat between the neighbours; an outer bound left out is none.
  const std::string flat = translate("model {\n a[1] ~ dflat()T(, a[2])\n a[2] ~ dflat()T(a[1], L)\n y ~ dnorm(a[2], 1)\n L <- 5\n}\n");
  CHECK(flat.find("param a: ordered[2]\nfactor log(a[2] < L)\n") != std::string::npos);
  // Only the whole chain: a bound that is not the neighbour leaves the cycle to the checker.
  CHECK(error_of("model {\n a[1] ~ dunif(0, a[2])\n a[2] ~ dunif(a[1], 10)\n a[3] ~ dunif(a[1], 10)\n}\n")
            .find("`a` is defined in terms of itself") != std::string::npos);
  CHECK(error_of("model {\n a[1] ~ dunif(0, a[2])\n a[2] ~ dunif(0, a[1])\n}\n").find("defined in terms of itself") != std::string::npos);
}

TEST_CASE("bugs: an index computed in real arithmetic is rounded; integers are left alone") {
  const lang::bugs_data_shapes data{{"g", {{2}, true, 0}}, {"s", {{2}, true, 0}}, {"w", {{2}, false, 0}}, {"y", {{2, 2}, false, 0}}};
  const std::string t = translate(
      "model {\n for (i in 1:2) { for (k in 1:2) {\n"
      "  T[i, k] <- g[i] * (k - 1.5) + 1.5\n  K[i, k] <- g[i] * k + 1\n"
      "  y[i, k] ~ dnorm(s[T[i, k]] + s[K[i, k]] + s[g[i]] + s[w[k]], 1) } }\n}\n", &data);
  CHECK(t.find("s[to_int(round(T[i, k]))] + s[K[i, k]] + s[g[i]] + s[to_int(round(w[k]))]") != std::string::npos);
}

TEST_CASE("bugs: sizes that no loop names are the data's numbers; a size whose value differs is not used") {
  lang::bugs_data_shapes data{{"N", {{}, true, 4}}, {"y", {{5}, false, 0}}, {"Y", {{2, 3}, false, 0}}};
  const std::string t = translate("model {\n for (i in 1:N) { y[i] ~ dnorm(m, 1) }\n s <- sum(Y[,])\n m ~ dflat()\n}\n", &data);
  CHECK(t.find("data y: real[5]\n") != std::string::npos);  // the loop runs to N = 4, not the length 5
  CHECK(t.find("data Y: real[2, 3]\n") != std::string::npos);
  CHECK(t.find("s = sum(Y)\n") != std::string::npos);
  CHECK(t.find("m ~ Flat()\n") != std::string::npos);
}

TEST_CASE("bugs: without data, the variables the model never defines, sized by their loops") {
  const std::string t = translate("model {\n for (j in 1:J) { for (k in 1:K) { y[j, k] ~ dpois(exp(a[j] + b * x[j, k])) } a[j] ~ dnorm(0, 1) }\n"
                                  " b ~ dnorm(0, 1)\n}\n");
  CHECK(t.find("data x: real[J, K]\n") != std::string::npos);
  CHECK(t.find("data J: int\n") != std::string::npos);
  CHECK(t.find("data y") == std::string::npos);  // a `~` without data is an unknown
  CHECK(error_of("model {\n s <- sum(w[])\n}\n") ==
        "m.bug:2:11: error: no loop `for (i in 1:N)` indexes `w` in its dimension 1, so its size is unknown without the data; give the data file");
}

TEST_CASE("bugs: every distribution of the table with BUGS's parametrisation") {
  CHECK(right_side("y ~ dnorm(m, t)") == "Normal(m, 1 / sqrt(t))");
  CHECK(right_side("y ~ dnorm(0, 0.01)") == "Normal(0, 10.0)");
  CHECK(right_side("y ~ dlnorm(m, t)") == "LogNormal(m, 1 / sqrt(t))");
  CHECK(right_side("y ~ dt(m, t, k)") == "StudentT(k, m, 1 / sqrt(t))");
  CHECK(right_side("y ~ dlogis(m, t)") == "Logistic(m, 1 / t)");
  CHECK(right_side("y ~ ddexp(m, 4)") == "DoubleExponential(m, 0.25)");
  // A folded scale below the normal doubles is kept unrounded (std::stod threw on it:
  // fuzz/bugs/crash-subnormal-fold).
  CHECK(right_side("y ~ dlogis(m, 1e308)") == "Logistic(m, 1.0e-308)");
  CHECK(right_side("y ~ dgamma(a, b)") == "Gamma(a, b)");
  CHECK(right_side("y ~ dweib(k, l)") == "Weibull(k, pow(l, -1 / k))");
  CHECK(right_side("y ~ dweib(2, l)") == "Weibull(2, pow(l, -0.5))");
  CHECK(right_side("y ~ dpar(a, c)") == "Pareto(c, a)");
  CHECK(right_side("y ~ dbin(p, n)") == "Binomial(n, p)");
  CHECK(right_side("y ~ dnegbin(p, r)") == "NegativeBinomial(r, p / (1 - p))");
  CHECK(right_side("y[1:3] ~ dmulti(pv[], n)") == "Multinomial(n, pv)");
  CHECK(right_side("y ~ dbetabin(a, b, n)") == "BetaBinomial(n, a, b)");
  CHECK(right_side("y ~ dchisqr(k)") == "ChiSquare(k)");
  CHECK(right_side("y[1:2, 1:2] ~ dwish(R[,], 3)") == "Wishart(3, inverse(R))");
  CHECK(right_side("y[1:2] ~ dmnorm(mv[], T[,])") == "MultiNormalPrec(mv, T)");
  CHECK(right_side("y[1:2] ~ dmnorm.vcov(mv[], S[,])") == "MultiNormal(mv, S)");
  // Each entry of the table reads as ppl with its parameters as names.
  for (const auto& e : lang::bugs_distribution_table()) {
    INFO(e.bugs);
    CHECK_NOTHROW(lang::parse({"t.ppl", "y ~ " + std::string(e.ppl) + "\n"}));
  }
  for (const auto& e : lang::bugs_function_table()) {
    INFO(e.bugs);
    CHECK_NOTHROW(lang::parse({"t.ppl", "y = " + std::string(e.ppl) + "\n"}));
  }
}

TEST_CASE("bugs: link functions on the left, functions, operators and whole arrays") {
  CHECK(right_side("logit(pp) <- a + b") == "inv_logit(a + b)");
  CHECK(right_side("log(lam) <- a") == "exp(a)");
  CHECK(right_side("cloglog(pp) <- a") == "inv_cloglog(a)");
  CHECK(right_side("probit(pp) <- a") == "Phi(a)");
  CHECK(right_side("z <- inprod(u[], v[])") == "dot(u, v)");
  CHECK(right_side("z <- ilogit(a) + phi(b) + loggam(c) + logdet(S[,])") == "inv_logit(a) + Phi(b) + lgamma(c) + log_determinant(S)");
  CHECK(right_side("z <- rank(v[], 2)") == "rank(v, 2) + 1");
  CHECK(right_side("z <- 2 * rank(v[], 2)") == "2 * (rank(v, 2) + 1)");
  // JAGS's %*% is R's: matmul, a product, or the inner product of two vectors.
  CHECK(right_side("z[1:2] <- A[,] %*% u[]") == "matmul(A, u)");
  CHECK(right_side("z[1:2] <- a * B[,] %*% u[]") == "a * (matmul(B, u))");
  CHECK(right_side("z <- u[] %*% v[]") == "matmul(u, v)");
  CHECK(right_side("z <- a + u[] %*% v[] %*% b") == "a + matmul(matmul(u, v), b)");
  CHECK(right_side("z <- pow(a, 2) + step(b - 1) * equals(c, 2)") == "pow(a, 2) + step(b - 1) * equals(c, 2)");
  CHECK(right_side("z <- -a^2") == "-a ^ 2");
  CHECK(right_side("z <- 1E3 + .5 + 2") == "1000.0 + 0.5 + 2");
  CHECK(right_side("alpha.c <- beta.c[1]") == "beta_c[1]");
}

TEST_CASE("bugs: truncation T(), censoring I() and C(), and multivariate nodes") {
  CHECK(right_side("y ~ dnorm(0, 1) T(0, )") == "Normal(0, 1.0) T[0, ]");
  CHECK(right_side("y ~ dweib(r, mu) I(c, )") == "Weibull(r, pow(mu, -1 / r)) C[c, ]");
  CHECK(right_side("y ~ dnorm(0, 1) C(, 5)") == "Normal(0, 1.0) C[, 5]");
  const lang::bugs_data_shapes data{{"m0", {{2}, false, 0}}, {"P", {{2, 2}, false, 0}}, {"O", {{2, 2}, false, 0}}};
  const std::string t = translate("model {\n for (i in 1:3) { beta[i, 1:2] ~ dmnorm(mu[], R[ , ]) }\n"
                                  " mu[1:2] ~ dmnorm(m0[], P[,])\n R[1:2, 1:2] ~ dwish(O[,], 2)\n}\n", &data);
  // A range given on a vector's node is a block, kept as it is (here the whole row).
  CHECK(t.find("  beta[i, 1:2] ~ MultiNormalPrec(mu, R)\n") != std::string::npos);
  CHECK(t.find("mu[1:2] ~ MultiNormalPrec(m0, P)\n") != std::string::npos);
  CHECK(t.find("R ~ Wishart(2, inverse(O))\n") != std::string::npos);
  // Biopsies: part of a row of a data matrix with missing values.
  const lang::bugs_data_shapes biopsies{{"error", {{4, 4}, false, 0}}, {"prior", {{4}, false, 0}}};
  const std::string b = translate("model {\n error[2, 1 : 2] ~ ddirich(prior[1 : 2])\n error[4, ] ~ ddirich(prior[])\n}\n", &biopsies);
  CHECK(b.find("error[2, 1:2] ~ Dirichlet(prior[1:2])\n") != std::string::npos);
  CHECK(b.find("error[4] ~ Dirichlet(prior)\n") != std::string::npos);
}

TEST_CASE("bugs: a var block, a data block, semicolons and statements run together") {
  const lang::bugs_data_shapes data{{"y", {{3}, false, 0}}};
  const std::string t = translate("var y[3], m;\ndata {\n  m <- mean(y[]);\n}\nmodel {\n  mu ~ dnorm(m, 1); tau ~ dgamma(1, 1) s <- 1 / tau\n}\n", &data);
  CHECK(t == "data y: real[3]\nm = mean(y)\nmu ~ Normal(m, 1.0)\ntau ~ Gamma(1, 1)\ns = 1 / tau\n");
}

TEST_CASE("bugs: JAGS's /* */ comments, anywhere white space may be; one left open is the error at it") {
  const std::string t = translate("/* Line, as JAGS's examples write it */\nmodel {\n  mu ~ dnorm(0, /* precision */ 1)\n"
                                  "  /* two\n lines # not a comment's end */ tau ~ dgamma(1, 1) # a /* inside a line comment\n}\n");
  // Each line of a /* */ comment is a # comment of the translation, before the statement after it.
  CHECK(t == "# Line, as JAGS's examples write it\nmu ~ Normal(0, 1.0)\n# precision\n# two\n# lines # not a comment's end\n"
             "tau ~ Gamma(1, 1)  # a /* inside a line comment\n");
  CHECK(error_of("model {\n  mu ~ dnorm(0, 1) /* never closed\n}\n") == "m.bug:2:20: error: this comment is never closed: a `/*` comment ends at `*/`");
}

TEST_CASE("bugs: a data block's computed node observed by a discrete distribution") {
  // JAGS's idiom: r computed in the data block, then given a Poisson likelihood. r stays
  // real (round gives reals); the graph checks its values are counts when it binds them.
  const lang::bugs_data_shapes data{{"x", {{3}, false, 0}}, {"N", {{}, true, 3}}};
  const std::string t = translate("data {\n  for (i in 1:N) { r[i] <- round(x[i]) }\n}\n"
                                  "model {\n  for (i in 1:N) { r[i] ~ dpois(lambda) }\n  lambda ~ dgamma(1, 1)\n}\n", &data);
  CHECK(t.find("r[i] = round(x[i])") != std::string::npos);
  CHECK(t.find("r[i] ~ Poisson(lambda)") != std::string::npos);
}

TEST_CASE("bugs: whole numbers beside reals in one array are reals") {
  // Dogs: `p[i, 1] <- 0` beside `log(p[i, j]) <- ...`
  const std::string t = translate("model {\n for (i in 1:3) { p[i, 1] <- 0\n for (j in 2:3) { log(p[i, j]) <- a * j } }\n a ~ dnorm(0, 1)\n}\n");
  CHECK(t.find("p[i, 1] = 0.0\n") != std::string::npos);
  const lang::bugs_data_shapes data{{"q", {{2, 3}, false, 0}}};
  CHECK(translate("model {\n g[1] <- 1\n g[2] <- 2\n y ~ dcat(q[g[1], ])\n}\n", &data).find("g[1] = 1\n") != std::string::npos);
}

TEST_CASE("bugs: errors point at the BUGS text") {
  CHECK(error_of("model {\n  y ~ dnorm(0, 1\n}\n") == "m.bug:3:1: error: expected ')' but found '}'");
  CHECK(error_of("model {\n  y ~ dnrom(0, 1)\n}\n") == "m.bug:2:7: error: unknown BUGS distribution `dnrom`; did you mean `dnorm`?");
  CHECK(error_of("model {\n  y ~ dnorm(0)\n}\n") == "m.bug:2:7: error: the distribution `dnorm` takes 2 arguments (dnorm(mu, tau)), not 1");
  CHECK(error_of("model {\n  y <- a %o% b\n}\n").starts_with("m.bug:2:10: error: JAGS's operator `%o%` is not supported"));
  const lang::bugs_data_shapes none;
  CHECK(error_of("model {\n  y ~ dnorm(x, 1)\n  x <- z\n}\n", &none) == "m.bug:3:8: error: undefined name `z`");
  CHECK(error_of("model {\n  x ~ dnorm(0, 1)\n}\nmodel {\n  y ~ dnorm(0, 1)\n}\n") ==
        "m.bug:4:1: error: a second `model` block; a BUGS file has one");
  CHECK(error_of("model {\n  y ~ dnorm(0, 1) T(0, \n}\n") == "m.bug:3:1: error: expected ')' but found '}'");
  CHECK(error_of("model {\n  for (i 1:3) { y[i] ~ dnorm(0, 1) }\n}\n") == "m.bug:2:10: error: expected 'in' but found '1'");
  // A loop's body needs no braces, so no bracket shows how deep loops nest: the parser
  // counts them (fuzz/bugs/crash-unbraced-loops-deep exhausted the stack).
  std::string deep = "model {\n";
  for (int i = 0; i < 257; ++i) deep += "  for (i" + std::to_string(i) + " in 1:2)\n";
  CHECK(error_of(deep + "  y ~ dnorm(0, 1)\n}\n") == "m.bug:258:3: error: for loops nested more than 256 deep; write the model in steps");
  deep = "model {\n";
  for (int i = 0; i < 256; ++i) deep += "  for (i" + std::to_string(i) + " in 1:2)\n";
  CHECK(error_of(deep + "  y[i0] ~ dnorm(0, 1)\n}\n") == "");
  // Brackets, calls, indices, prefix operators and powers count together, as the stack
  // they take adds up (fuzz/bugs/crash-prefix-runs-in-calls: calls, each with a run of
  // minus signs, exhausted the stack where each count alone was within its bound).
  std::string nested;
  for (int i = 0; i < 128; ++i) nested += "exp(-";
  CHECK(error_of("model {\n  y <- " + nested + "a" + std::string(128, ')') + "\n}\n") == "");
  CHECK(error_of("model {\n  y <- " + nested + "exp(-a" + std::string(129, ')') + "\n}\n") ==
        "m.bug:2:648: error: the expression is nested more than 256 levels deep (brackets, calls, indices, prefix operators "
        "and powers together); write it in steps");
}

TEST_CASE("bugs: which files are BUGS") {
  CHECK(lang::looks_like_bugs("m.bug", ""));
  CHECK(lang::looks_like_bugs("m.jags", ""));
  CHECK(lang::looks_like_bugs("m.bugs", ""));
  CHECK(lang::looks_like_bugs("m.txt", "# rats\nmodel\n{\n}"));
  CHECK(lang::looks_like_bugs("m.txt", "var x[3];\nmodel {}"));
  CHECK_FALSE(lang::looks_like_bugs("m.txt", "model ~ Normal(0, 1)\n"));
  CHECK_FALSE(lang::looks_like_bugs("m.ppl", "model {\n}"));
}

TEST_CASE("printer: parentheses where precedence needs them, numbers that read back") {
  CHECK(reprint("(a + b) * c") == "(a + b) * c");
  CHECK(reprint("a - (b - c)") == "a - (b - c)");
  CHECK(reprint("a - b - c") == "a - b - c");
  CHECK(reprint("-(a + b)") == "-(a + b)");
  CHECK(reprint("(-a) ^ 2") == "(-a) ^ 2");
  CHECK(reprint("a ^ -b") == "a ^ -b");
  CHECK(reprint("!(a == b) && c || d") == "!(a == b) && c || d");
  CHECK(reprint("a || b && c") == "a || b && c");
  CHECK(reprint("(a || b) && c") == "(a || b) && c");
  CHECK(reprint("c ? x[i, 2:3] : W'[:, 1]") == "c ? x[i, 2:3] : W'[:, 1]");
  CHECK(reprint("(a + b)'") == "(a + b)'");
  CHECK(reprint("normal_lpdf(y | mu, s)") == "normal_lpdf(y | mu, s)");
  CHECK(reprint("[1.5, 2.0, 1e-6, 2.5e10]") == "[1.5, 2.0, 1.0e-06, 25000000000.0]");
  CHECK(reprint("f(a, b)[1]") == "f(a, b)[1]");
}

TEST_CASE("bugs: the tables of docs/bugs.md are the translation's") {
  std::ifstream in(std::string(PPL_SOURCE_DIR) + "/docs/bugs.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  for (auto table : {lang::bugs_distribution_table(), lang::bugs_function_table()})
    for (const auto& e : table) {
      INFO(e.bugs);
      CHECK(readme.find("| `" + std::string(e.bugs) + "` | `" + std::string(e.ppl) + "` |") != std::string::npos);
    }
}

TEST_CASE("bugs: many statements with a power each, inside the model block") {
  std::string text = "model {\n";
  for (int i = 0; i < 300; ++i) text += "  y" + std::to_string(i) + " <- pow(2, 2) + 2^2\n";
  text += "}\n";
  ppl::source_file src{"m.bug", text};
  CHECK_NOTHROW(lang::parse_bugs(src));
}

}  // namespace test_bugs
