// The model-level reverse pass (graph::log_density_gradient) against central finite
// differences of the joint log density, on models that exercise every way a value reaches a
// term: direct arguments, indexing (single, strided, ranges), vector literals, derived
// variables (including one defined recursively), hoisted plate-invariant expressions
// (the network's W1'), factors and matrix products.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/gradient_check.hpp"

namespace test_gradient {

using ppl::testing::fixture;

using ppl::testing::check_model_gradient;

TEST_CASE("gradient of a one-layer tanh network matches finite differences") {
  fixture f(
      "data X: real[N, P]\ndata y: real[N]\ndata H: int = 3\n"
      "for p in 1:P, h in 1:H { W1[p, h] ~ Normal(0, 1) }\n"
      "for h in 1:H { b1[h] ~ Normal(0, 1)\n w2[h] ~ Normal(0, 1) }\n"
      "b2 ~ Normal(0, 1)\nsigma ~ HalfNormal(1)\n"
      "for n in 1:N { y[n] ~ Normal(dot(w2, tanh(W1' * X[n] + b1)) + b2, sigma) }\n",
      {"X=[[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8], [0.1, 0.1]]", "y=[1.0, -0.5, 0.3, 2.0]"});
  check_model_gradient(f, {"W1", "b1", "w2", "b2", "sigma"});
}

TEST_CASE("gradient of plates taken as one batch: M * v, v * M, dot, scaling, elementwise, factors") {
  // Every `~`, `=` and factor below qualifies for the batched pass (graph_plate.cpp); the
  // fourth plate's range is partial, the third's index a data column.
  fixture f(
      "data X: real[N, P]\ndata y: real[N]\ndata t: real[N]\n"
      "for h in 1:3, p in 1:P { M[h, p] ~ Normal(0, 1) }\nfor h in 1:3 { w[h] ~ Normal(0, 1) }\n"
      "s ~ Exponential(1)\nc ~ Normal(0, 1)\nfor p in 1:P { v[p] ~ Normal(0, 1) }\n"
      "for n in 1:N { y[n] ~ Normal(dot(tanh(M * X[n]), w) * s + c, exp(c)) }\n"
      "for n in 1:N { factor(-0.5 * (t[n] - dot(X[n] * transpose(M), w) / s) ^ 2) }\n"
      "for n in 1:N { t[n] ~ StudentT(4, sum(v) * X[n, 1] + log1p(exp(v[1] .* X[n, 2])), 2) }\n"
      "for n in 2:N { y[n] ~ Normal(exp(-s * X[n, 1]) - v[2], 1 + s) }\n"
      // Definitions are passed back as one batch too, over a partial range here.
      "data u: real[N]\nq[1] = c\nfor n in 2:N { q[n] = dot(X[n] * transpose(M), w) + s * tanh(c) }\n"
      "for n in 1:N { u[n] ~ Normal(q[n], 2) }\n",
      {"X=[[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8], [0.1, 0.1]]", "y=[1.0, -0.5, 0.3, 2.0]", "t=[0.2, 0.4, -1.0, 1.5]",
       "u=[0.3, -0.2, 0.9, 1.1]"});
  check_model_gradient(f, {"M", "w", "s", "c", "v"});
}

TEST_CASE("gradient through derived variables, one defined recursively") {
  fixture f(
      "data y: real[T]\nrho ~ Normal(0, 1)\ns ~ Exponential(1)\nfor t in 1:T { e[t] ~ Normal(0, 1) }\n"
      "x[1] = e[1]\nfor t in 2:T { x[t] = rho * x[t - 1] + e[t] }\n"
      "for t in 1:T { m[t] = exp(x[t] / 4) }\n"
      "for t in 1:T { y[t] ~ Normal(m[t], s) }\n",
      {"y=[1.0, 1.2, 0.7, 1.9, 1.1]"});
  check_model_gradient(f, {"rho", "s", "e"});
}

TEST_CASE("gradient through strided selections, ranges, literals and factors") {
  fixture f(
      "data Y: real[R, C]\nfor c in 1:C { mu[c] ~ Normal(0, 3) }\ntau ~ Gamma(2, 2)\n"
      "for r in 1:R, c in 1:C { L[r, c] ~ Normal(0, 1) }\n"
      "for c in 1:C { factor(-0.5 * tau * sum((Y[:, c] - mu[c] - L[:, c]) ^ 2) + sum(softmax(L[:, c]) .* Y[:, c]) + mean(L[:, c] ./ 3)) }\n"
      "v = [mu[1], mu[2] * tau, log(tau)]\n"
      "factor(-dot(v, v) / 10)\n"
      "factor(sum(L[2:3, 1]) - log_sum_exp(mu))\n",
      {"Y=[[0.5, 1.0], [1.5, 0.2], [-0.3, 0.8]]"});
  check_model_gradient(f, {"mu", "tau", "L"});
}

TEST_CASE("gradient of a non-centred hierarchical model and a multivariate normal") {
  fixture f(
      "data y: real[J]\ndata sigma: real[J]\nmu ~ Normal(0, 5)\ntau ~ Cauchy(0, 5)\n"
      "for j in 1:J { eta[j] ~ Normal(0, 1) }\n"
      "for j in 1:J { theta[j] = mu + tau * eta[j] }\n"
      "for j in 1:J { y[j] ~ Normal(theta[j], sigma[j]) }\n"
      "data S: real[2, 2]\nz ~ MultiNormal([mu, tau], S)\nw ~ StudentT(4, z[1], exp(z[2]))\n",
      {"y=[28, 8, -3]", "sigma=[15, 10, 16]", "S=[[1.0, 0.3], [0.3, 2.0]]"});
  check_model_gradient(f, {"mu", "tau", "eta", "z", "w"});
}

TEST_CASE("gradient through Stan's selections and multiple indexing: v[idx], M[idx, j], head, segment, col, to_vector") {
  // v[idx] and M[idx, 2] become take(...) in the checker; an element named twice in idx
  // gets both adjoints. In a loop (a plate) and outside one.
  fixture f(
      "data idx: int[4]\ndata y: real[4]\n"
      "for k in 1:3 { v[k] ~ Normal(0, 1) }\nfor i in 1:3, j in 1:2 { M[i, j] ~ Normal(0, 1) }\n"
      "w = v[idx] + M[idx, 2] + to_vector(M)[idx]\n"
      "s = sum(head(v, 2)) + sum(segment(v, 2, 2)) + sum(col(M, 1) .* tail(v, 3)) + log_sum_exp(v[1], M[2, 2])\n"
      "for n in 1:4 { y[n] ~ Normal(w[n] + s, 1) }\n"
      "for n in 1:4 { y[n] ~ Normal(v[idx][n] * M[idx[n], 1], 2) }\n",
      {"idx=[3, 1, 3, 2]", "y=[0.4, -1.0, 2.2, 0.7]"});
  check_model_gradient(f, {"v", "M"});
}

TEST_CASE("gradient leaves out the terms of other unknowns") {
  fixture f("a ~ Normal(0, 1)\nb ~ Normal(a, 1)\nc ~ Normal(0, 1)\n");
  auto& g = *f.graph;
  std::vector<char> wrt(f.model->variables.size(), 0);
  wrt[static_cast<std::size_t>(f.model->find("b"))] = 1;
  f.mutable_value("a").data[0] = 0.5;
  f.mutable_value("b").data[0] = 2.0;
  std::vector<std::vector<double>> grad;
  // Only b's own term: log N(2 | 0.5, 1).
  CHECK(g.log_density_gradient(wrt, grad) == doctest::Approx(-0.5 * 1.5 * 1.5 - 0.5 * std::log(2 * M_PI)));
  CHECK(grad[static_cast<std::size_t>(f.model->find("b"))][0] == doctest::Approx(-1.5));
}

TEST_CASE("gradients through log-density calls: vectorised, broadcast, multivariate") {
  fixture f("data x: real[N]\ndata y: real[N]\ndata k: int[N]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\ns ~ HalfNormal(1)\n"
            "p ~ Dirichlet([1, 1, 1])\nm ~ Normal(rep(0, 2), 1)\n"
            "factor normal_lpdf(y | a + b * x, s) + student_t_lpdf(a | 3, b, s) + poisson_lpmf(k | exp(a + x))\n"
            "factor dirichlet_lpdf(p | [2, 3, s + 1]) + logpdf(MultiNormal(m, [[1, 0.3], [0.3, 2]]), [0.5, b])\n",
            {"x=[0.5,-1,2]", "y=[1.2,-0.4,3.9]", "k=[1,0,4]"});
  check_model_gradient(f, {"a", "b", "s", "m"});
}

TEST_CASE("gradient of plates the row-wise batch takes: gathers through data, two loops, invariant parts, several blocks") {
  // Each `~`, `=` and factor here goes through model/graph_batch_backward.cpp: reads at
  // data indices (a[g[n]]), two loops (u[i] * v[j]), a definition over two loops, a factor,
  // a target at a computed index (z[2 * k]), and sub-expressions free of the loops that
  // depend on unknowns (exp(ls), b * b).
  fixture f(
      "data g: int[N]\ndata x: real[N]\ndata y: real[N]\ndata Y: real[I, J]\n"
      "for k in 1:3 { a[k] ~ Normal(0, 2) }\nb ~ Normal(0, 1)\nls ~ Normal(0, 1)\n"
      "for n in 1:N { y[n] ~ Normal(a[g[n]] + b * x[n], exp(ls)) }\n"
      "for i in 1:I { u[i] ~ Normal(0, 1) }\nfor j in 1:J { v[j] ~ Normal(1, 1) }\n"
      "for i in 1:I, j in 1:J { m[i, j] = u[i] * v[j] + b * b }\n"
      "for i in 1:I, j in 1:J { Y[i, j] ~ Normal(m[i, j], 1 + exp(ls)) }\n"
      "for i in 1:I, j in 1:J { factor(-0.1 * (u[i] - v[j]) ^ 2 * exp(ls)) }\n"
      "for k in 1:4 { z[2 * k] ~ Normal(a[k % 3 + 1], 1) }\nfor k in 1:4 { z[2 * k - 1] ~ Normal(0, 1) }\n",
      {"g=[1,2,3,3,2,1,1,2]", "x=[0.5,-1,2,0.1,0.3,-0.7,1.1,0]", "y=[1.0,0.2,2.5,1.7,0.4,-0.3,1.9,0.8]",
       "Y=[[0.1, 0.5, 1.2], [0.9, -0.4, 0.3]]"});
  check_model_gradient(f, {"a", "b", "ls", "u", "v", "z"});
}

TEST_CASE("gradient of a plate longer than one block of the row-wise batch (4,096 rows)") {
  std::string g = "g=[", x = "x=[", y = "y=[";
  for (int n = 0; n < 5000; ++n) {
    const char* sep = n ? "," : "";
    g += sep + std::to_string(n % 3 + 1);
    x += sep + std::to_string(std::sin(0.1 * n));
    y += sep + std::to_string(std::cos(0.07 * n));
  }
  fixture f("data g: int[N]\ndata x: real[N]\ndata y: real[N]\nfor k in 1:3 { a[k] ~ Normal(0, 2) }\nb ~ Normal(0, 1)\n"
            "for n in 1:N { y[n] ~ Normal(a[g[n]] + b * x[n], 2) }\n",
            {g + "]", x + "]", y + "]"});
  check_model_gradient(f, {"a", "b"});
}

TEST_CASE("gradient of density calls and log_mix per row, taken by the row-wise batch, and of a GP-like kernel") {
  // factor normal_lpdf(y[n] | ...) and log_mix(theta, normal_lpdf(..), normal_lpdf(..)) per
  // row are scalar calls that are not maps element by element: the batch calls them row
  // by row (model/graph_batch.cpp); an `=` of exponential_lpdf per (t, k) as an HMM's
  // emissions; a kernel over two loops whose forward columns the reverse pass reuses
  // (one block of rows, computed in the same gradient).
  fixture f("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\ns ~ HalfNormal(1)\n"
            "theta ~ Beta(2, 2)\nmu1 ~ Normal(-1, 1)\nmu2 ~ Normal(1, 1)\n"
            "for n in 1:N { factor normal_lpdf(y[n] | a + b * x[n], s) }\n"
            "for n in 1:N { factor log_mix(theta, normal_lpdf(y[n] | mu1, 1), normal_lpdf(y[n] | mu2, s)) }\n"
            "for n in 1:N, k in 1:2 { e[n, k] = exponential_lpdf(exp(x[n]) | s + k) + mu1 * k }\n"
            "factor sum(e)\n"
            "for i in 1:N, j in 1:N { K[i, j] = exp(a) * exp(-0.5 * square(x[i] - x[j]) / exp(2 * b)) + (i == j) * 0.1 }\n"
            "factor -0.5 * sum(K)\n",
            {"x=[0.5,-1,2,0.1,0.3,-0.7]", "y=[1.2,-0.4,3.9,0.2,-1.5,0.8]"});
  check_model_gradient(f, {"a", "b", "s", "theta", "mu1", "mu2"}, 0.4);
}

TEST_CASE("gradient of a regression on data columns: dot(X[n], b) per row and X * b vectorised") {
  // Data rows times an unknown vector run on a column-major copy of X (graph::plate_columns);
  // the Normal's rows share one scale, the shared-scale kernel's case. Nine rows: the
  // kernel's four lanes twice and one row after.
  const std::vector<std::string> data = {
      "X=[[0.5, -1.0, 2.0], [1.5, 0.2, -0.3], [-0.3, 0.8, 1.1], [0.1, 0.1, 0.9], [2.0, -0.5, 0.4], [-1.2, 0.3, 0.0],"
      " [0.7, 0.7, -0.7], [0.0, 1.9, 0.2], [1.1, -0.2, -1.5]]",
      "y=[1.0, -0.5, 0.3, 2.0, 0.8, -1.1, 0.4, 1.6, -0.2]"};
  const std::string priors = "data X: real[N, P]\ndata y: real[N]\nfor p in 1:P { b[p] ~ Normal(0, 1) }\na ~ Normal(0, 1)\ns ~ Exponential(1)\n";
  fixture rows(priors + "for n in 1:N { y[n] ~ Normal(dot(X[n], b) + a, s) }\n", data);
  check_model_gradient(rows, {"b", "a", "s"});
  fixture vectorised(priors + "y ~ Normal(X * b + a, s)\n", data);
  check_model_gradient(vectorised, {"b", "a", "s"});
}

TEST_CASE("hmm_marginal in a model: the forward algorithm's loops' density, and its gradient") {
  // The same two-state model of six values twice: the states summed out by hmm_marginal,
  // and by the forward algorithm written in loops (posteriordb's hmm_example, with rho).
  const std::string head =
      "data y: real[N]\ndata K: int\ndata Gamma: real[K, K]\ndata rho: real[K]\n"
      "for k in 1:K { mu[k] ~ Normal(5, 5) }\ns ~ Exponential(1)\n";
  const std::vector<std::string> data = {"y=[1.2, 4.8, 5.3, 0.7, 1.1, 6.0]", "K=2", "Gamma=[[0.8, 0.2], [0.3, 0.7]]",
                                         "rho=[0.4, 0.6]"};
  fixture built_in(head +
                       "for k in 1:K, t in 1:N { log_omega[k, t] = normal_lpdf(y[t] | mu[k], s) }\n"
                       "factor hmm_marginal(log_omega, Gamma, rho)\n",
                   data);
  fixture loops(head +
                    "for k in 1:K { a[1, k] = log(rho[k]) + normal_lpdf(y[1] | mu[k], s) }\n"
                    "for t in 2:N, k in 1:K { a[t, k] = log_sum_exp(a[t - 1] + log(Gamma[:, k])) + normal_lpdf(y[t] | mu[k], s) }\n"
                    "factor log_sum_exp(a[N])\n",
                data);
  for (auto* f : {&built_in, &loops}) {
    f->mutable_value("mu").data = {1.3, 5.4};
    f->mutable_value("s").data = {0.9};
    f->graph->update_derived();
  }
  std::vector<char> wrt(built_in.model->variables.size(), 0);
  wrt[static_cast<std::size_t>(built_in.model->find("mu"))] = wrt[static_cast<std::size_t>(built_in.model->find("s"))] = 1;
  std::vector<char> wrt_loops(loops.model->variables.size(), 0);
  wrt_loops[static_cast<std::size_t>(loops.model->find("mu"))] = wrt_loops[static_cast<std::size_t>(loops.model->find("s"))] = 1;
  std::vector<std::vector<double>> g1, g2;
  const double lp1 = built_in.graph->log_density_gradient(wrt, g1), lp2 = loops.graph->log_density_gradient(wrt_loops, g2);
  CHECK(lp1 == doctest::Approx(lp2).epsilon(1e-13));
  for (const char* name : {"mu", "s"}) {
    const auto v1 = static_cast<std::size_t>(built_in.model->find(name)), v2 = static_cast<std::size_t>(loops.model->find(name));
    for (std::size_t i = 0; i < g1[v1].size(); ++i) CHECK(g1[v1][i] == doctest::Approx(g2[v2][i]).epsilon(1e-12));
  }
  check_model_gradient(built_in, {"mu", "s"}, 1.5);
}

}  // namespace test_gradient
