// samplers::funnel_shaped: the blocks whose geometry changes with one of their unknowns,
// which --metric auto keeps on a diagonal metric (samplers/hamiltonian_metric.hpp).
#include <doctest/doctest.h>

#include "lang/checker.hpp"
#include "samplers/structure.hpp"
#include "stdlib/registry.hpp"

namespace test_funnel {

using namespace ppl;

namespace {

// Whether the block of every unknown of the model is funnel-shaped.
bool funnel(const char* text) {
  const lang::ir::model m = lang::compile({"test.ppl", text}, stdlib::library());
  std::vector<int> unknowns;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown) unknowns.push_back(static_cast<int>(v));
  return samplers::funnel_shaped(m, unknowns);
}

}  // namespace

TEST_CASE("funnel_shaped: a prior's scale, or a product of two factors that read the block") {
  // A centred hierarchy: b's prior scale is an unknown.
  CHECK(funnel("data y: real[J]\nmu ~ Normal(0, 5)\nsigma ~ HalfNormal(5)\n"
               "for j in 1:J { b[j] ~ Normal(mu, sigma) }\nfor j in 1:J { y[j] ~ Normal(b[j], 1) }\n"));
  // Non-centred: the scale multiplies the standardised effects in a definition...
  CHECK(funnel("data y: real[J]\nmu ~ Normal(0, 5)\ntau ~ HalfCauchy(5)\nfor j in 1:J { eta[j] ~ Normal(0, 1) }\n"
               "for j in 1:J { theta[j] = mu + tau * eta[j] }\nfor j in 1:J { y[j] ~ Normal(theta[j], 1) }\n"));
  // ... or inline in a term, or through a matrix of them (a latent GP).
  CHECK(funnel("data y: real[J]\ntau ~ HalfCauchy(5)\nfor j in 1:J { eta[j] ~ Normal(0, 1) }\n"
               "for j in 1:J { y[j] ~ Normal(tau * eta[j], 1) }\n"));
  CHECK(funnel("data x: real[N]\ndata k: int[N]\nrho ~ Gamma(25, 4)\nalpha ~ HalfNormal(2)\nparam f_tilde: real[N]\n"
               "f_tilde ~ Normal(0, 1)\ncov = cov_exp_quad(x, alpha, rho) + diag_matrix(rep(1e-10, N))\n"
               "f = cholesky(cov) * f_tilde\nk ~ PoissonLog(f)\n"));
  // A regression: products of data and unknowns only, fixed prior scales.
  CHECK_FALSE(funnel("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\nsigma ~ HalfNormal(5)\n"
                     "for n in 1:N { y[n] ~ Normal(a + b * x[n], sigma) }\n"));
  // A Weibull regression: the rate is a function of one unknown at a time.
  CHECK_FALSE(funnel("data t: real[N]\ndata g: int[N]\nr ~ Exponential(0.01)\nfor i in 1:4 { beta[i] ~ Normal(0, 30) }\n"
                     "for i in 1:4 { mu[i] = exp(beta[i]) }\nfor n in 1:N { t[n] ~ Weibull(r, mu[g[n]]) }\n"));
}

}  // namespace test_funnel
