// Linear algebra where the model is affine in its unknowns. Normal observations summed in
// gradients by their sufficient statistics (model/graph_linear_normal.cpp): the density
// and gradient equal the rows' (the same graph built without statistics) to rounding at
// points far apart, finite differences agree, and the terms that are not affine, or whose
// scale moves with the mean's unknowns or from row to row, keep the rows. Derived
// variables recomputed as sparse products (model/graph_affine_definitions.cpp): the batch
// path's values to rounding, and the definitions that are not affine keep it.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/gradient_check.hpp"

namespace test_statistics {

using ppl::testing::check_model_gradient;
using ppl::testing::fixture;
using ppl::testing::twin_graphs;

namespace {

ppl::model::graph_options with_statistics(bool on) {
  ppl::model::graph_options o;
  o.sufficient_statistics = on;
  return o;
}

// Sets `names` alike in a graph with statistics and one without, at points spread by
// `spread` around 0, and requires the same density and gradient to a relative 1e-9, in
// `rounds` rounds; then that `terms` terms went by statistics.
void check_same_as_rows(const std::string& text, const std::vector<std::string>& data, const std::vector<std::string>& names,
                        std::size_t terms, double spread = 1, int rounds = 4) {
  twin_graphs t(text, data, with_statistics(true), with_statistics(false), names);
  auto& on = t.on;
  auto& off = t.off;
  for (int round = 0; round < rounds; ++round) {
    // Positive for the scales, far from the least-squares point for the coefficients.
    t.set([&](int k) { return 0.6 + spread * (0.5 + 0.45 * std::sin(1.7 * k + 2.3 * round)); });
    std::vector<std::vector<double>> g_on, g_off;
    const double lp_on = on.graph->log_density_gradient(t.wrt, g_on), lp_off = off.graph->log_density_gradient(t.wrt, g_off);
    REQUIRE(std::isfinite(lp_off));
    INFO("round ", round);
    CHECK(lp_on == doctest::Approx(lp_off).epsilon(1e-9));
    for (const auto& n : names) {
      const auto v = static_cast<std::size_t>(on.model->find(n));
      REQUIRE(g_on[v].size() == g_off[v].size());
      double largest = 1;
      for (double x : g_off[v]) largest = std::max(largest, std::abs(x));
      for (std::size_t i = 0; i < g_on[v].size(); ++i) {
        INFO(n, "[", i, "]: statistics ", g_on[v][i], ", rows ", g_off[v][i]);
        CHECK(std::abs(g_on[v][i] - g_off[v][i]) <= 1e-9 * largest);
      }
    }
  }
  CHECK(on.graph->statistics_terms() == terms);
  CHECK(off.graph->statistics_terms() == 0);
}

const std::vector<std::string> rows_data{"x=[0.5, -1.2, 2.0, 0.3, 1.7, -0.4, 0.9, 2.6, -1.9, 0.1]",
                                         "y=[3.1, 0.4, 5.9, 2.2, 4.8, 1.0, 3.5, 7.1, -1.2, 2.4]",
                                         "g=[1, 2, 3, 1, 2, 3, 1, 2, 3, 1]", "w=[1.0, 2.0, 0.5, 1.5, 1.0, 2.0, 0.5, 1.5, 1.0, 2.0]"};

}  // namespace

TEST_CASE("a regression with an unknown scale by its statistics: the rows' density and gradient, and finite differences") {
  const std::string text = "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\ns ~ HalfNormal(5)\n"
                           "for n in 1:N { y[n] ~ Normal(a + b * x[n], s) }\n";
  check_same_as_rows(text, rows_data, {"a", "b", "s"}, 1);
  check_same_as_rows(text, rows_data, {"a", "b", "s"}, 1, 40);  // far from the fit: Q's parts large
  check_same_as_rows(text, rows_data, {"a", "b"}, 1);           // the scale another sampler's
  fixture f(text, rows_data);
  check_model_gradient(f, {"a", "b", "s"}, 0.8);
  CHECK(f.graph->statistics_terms() == 1);
}

TEST_CASE("statistics through a derived mean and a precision, as BUGS writes a regression") {
  const std::string text =
      "data x: real[N]\ndata y: real[N]\nxbar = mean(x)\nalpha ~ Normal(0, 100)\nbeta ~ Normal(0, 100)\ntau ~ Gamma(1, 1)\n"
      "for n in 1:N { mu[n] = alpha + beta * (x[n] - xbar) }\n"
      "for n in 1:N { y[n] ~ Normal(mu[n], 1 / sqrt(tau)) }\n";
  check_same_as_rows(text, rows_data, {"alpha", "beta", "tau"}, 1);
  fixture f(text, rows_data);
  check_model_gradient(f, {"alpha", "beta", "tau"}, 0.8);
}

TEST_CASE("statistics of a design matrix's rows and of group means: dense and sparse A'A") {
  const std::string matrix = "data X: real[N, K]\ndata y: real[N]\nfor k in 1:K { b[k] ~ Normal(0, 5) }\nc ~ Normal(0, 5)\n"
                             "s ~ HalfNormal(3)\nfor n in 1:N { y[n] ~ Normal(c + dot(X[n], b), s) }\n";
  const std::vector<std::string> matrix_data{"X=[[1.0, 0.2, -0.5], [0.3, 1.1, 0.8], [-0.7, 0.4, 1.9], [1.5, -1.0, 0.2], [0.1, 0.9, -1.3], "
                                             "[2.0, 0.5, 0.6], [-1.1, -0.3, 0.4]]",
                                             "y=[1.2, 2.5, 3.9, -0.4, 0.2, 3.3, -0.6]"};
  check_same_as_rows(matrix, matrix_data, {"b", "c", "s"}, 1);
  const std::string vectorised = "data X: real[N, K]\ndata y: real[N]\nfor k in 1:K { b[k] ~ Normal(0, 5) }\nc ~ Normal(0, 5)\n"
                                 "s ~ HalfNormal(3)\ny ~ Normal(c + X * b, s)\n";
  check_same_as_rows(vectorised, matrix_data, {"b", "c", "s"}, 1);
  // Group means a[g[n]]: A'A is diagonal in a but for the slope, kept sparse.
  const std::string groups = "data x: real[N]\ndata y: real[N]\ndata g: int[N]\nfor j in 1:3 { a[j] ~ Normal(0, 10) }\n"
                             "b ~ Normal(0, 10)\ns ~ HalfNormal(5)\nfor n in 1:N { y[n] ~ Normal(a[g[n]] + b * x[n], s) }\n";
  check_same_as_rows(groups, rows_data, {"a", "b", "s"}, 1);
  fixture f(groups, rows_data);
  check_model_gradient(f, {"a", "b", "s"}, 0.8);
}

TEST_CASE("a regression written as factors of normal_lpdf, row by row and in one call, by its statistics") {
  const std::string head = "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\ns ~ HalfNormal(5)\n";
  check_same_as_rows(head + "for n in 1:N { factor normal_lpdf(y[n] | a + b * x[n], s) }\n", rows_data, {"a", "b", "s"}, 1);
  check_same_as_rows(head + "factor normal_lpdf(y | a + b * x, s)\n", rows_data, {"a", "b", "s"}, 1);
  fixture f(head + "factor normal_lpdf(y | a + b * x, s)\n", rows_data);
  check_model_gradient(f, {"a", "b", "s"}, 0.8);
  // A value that reads an unknown is no observation: the rows.
  check_same_as_rows(head + "factor normal_lpdf(y * s | a + b * x, s)\n", rows_data, {"a", "b", "s"}, 0);
}

TEST_CASE("known scales by row (a measurement's sd) are weights the statistics hold") {
  const std::string head = "data x: real[N]\ndata y: real[N]\ndata w: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\n";
  check_same_as_rows(head + "for n in 1:N { y[n] ~ Normal(a + b * x[n], w[n]) }\n", rows_data, {"a", "b"}, 1);
  check_same_as_rows(head + "for n in 1:N { y[n] ~ Normal(a + b * x[n], 0.5 * w[n]) }\n", rows_data, {"a", "b"}, 1, 40);
  check_same_as_rows(head + "factor normal_lpdf(y | a + b * x, w)\n", rows_data, {"a", "b"}, 1);
  fixture f(head + "for n in 1:N { y[n] ~ Normal(a + b * x[n], w[n]) }\n", rows_data);
  check_model_gradient(f, {"a", "b"}, 0.8);
  // A known scale of 0 in one row: the term is never finite, so there are no statistics to
  // read, and the rows say -inf as before.
  fixture zero(head + "for n in 1:N { y[n] ~ Normal(a + b * x[n], w[n] - 1) }\n",
               {rows_data[0], rows_data[1], "w=[2, 3, 1.5, 2, 1, 3, 1.5, 2, 1.25, 2]"});
  std::vector<char> wrt(zero.model->variables.size(), 0);
  wrt[static_cast<std::size_t>(zero.model->find("a"))] = 1;
  std::vector<std::vector<double>> g;
  CHECK(zero.graph->log_density_gradient(wrt, g) == -INFINITY);
  CHECK(zero.graph->statistics_terms() == 0);
}

TEST_CASE("terms that are not affine in their unknowns, or whose scale moves with them or by row, keep the rows") {
  const std::string head = "data x: real[N]\ndata y: real[N]\ndata w: real[N]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\ns ~ HalfNormal(5)\n";
  for (const std::string body : {
           "for n in 1:N { y[n] ~ Normal(a + exp(b) * x[n], s) }\n",         // not affine
           "for n in 1:N { y[n] ~ Normal(a + abs(b) * x[n], s) }\n",         // piecewise: the check alone could miss it
           "for n in 1:N { y[n] ~ Normal(a * b + x[n], s) }\n",              // a product of unknowns
           "for n in 1:N { y[n] ~ Normal(a + b * x[n], s * exp(b)) }\n",     // the scale moves with the mean's unknowns
           "for n in 1:N { y[n] ~ Normal(a + b * x[n], s * w[n]) }\n",       // a scale per row that reads an unknown
           "for n in 1:N { m[n] = a + b * x[n] }\nfor n in 1:N { y[n] ~ Normal(m[n], exp(m[1]) + s) }\n",  // through a derived one
       }) {
    INFO(body);
    check_same_as_rows(head + body, rows_data, {"a", "b", "s"}, 0);
  }
}

namespace {

ppl::model::graph_options with_affine_definitions(bool on) {
  ppl::model::graph_options o;
  o.affine_definitions = on;
  return o;
}

// Sets `names` alike in graphs with and without affine definitions, recomputes the derived
// variables, and requires them to agree to a relative 1e-12 in each of three rounds; then
// that `count` statements went by sparse products.
void check_definitions(const std::string& text, const std::vector<std::string>& data, const std::vector<std::string>& names,
                       std::size_t count) {
  twin_graphs t(text, data, with_affine_definitions(true), with_affine_definitions(false), names);
  for (int round = 0; round < 3; ++round) {
    t.set([&](int k) { return 0.5 + 3 * std::sin(1.3 * k + 0.7 * round); });
    for (std::size_t v = 0; v < t.on.model->variables.size(); ++v) {
      if (t.on.model->variables[v].role != ppl::lang::ir::role::derived) continue;
      const auto& a = t.on.graph->values()[v].data;
      const auto& b = t.off.graph->values()[v].data;
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        INFO(t.on.model->variables[v].name, "[", i, "], round ", round);
        CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-12).scale(1));
      }
    }
    // A gradient takes the table both ways: the same density and gradient to rounding.
    std::vector<std::vector<double>> g_on, g_off;
    const double lp_on = t.on.graph->log_density_gradient(t.wrt, g_on), lp_off = t.off.graph->log_density_gradient(t.wrt, g_off);
    REQUIRE(std::isfinite(lp_off));
    CHECK(lp_on == doctest::Approx(lp_off).epsilon(1e-12));
    for (const auto& n : names) {
      const auto v = static_cast<std::size_t>(t.on.model->find(n));
      for (std::size_t i = 0; i < g_off[v].size(); ++i) {
        INFO(n, "[", i, "], round ", round);
        CHECK(g_on[v][i] == doctest::Approx(g_off[v][i]).epsilon(1e-10).scale(1));
      }
    }
  }
  CHECK(t.on.graph->affine_definition_count() == count);
  CHECK(t.off.graph->affine_definition_count() == 0);
}

}  // namespace

TEST_CASE("derived variables affine in what they read are recomputed as sparse products, the batch path's values") {
  // Rats' linear predictor over two loops; a second definition reading the first (a derived
  // input); a regression's rows of a data matrix; group means through a data index.
  const std::string text =
      "data I: int\ndata x: real[J]\ndata X: real[N, K]\ndata g: int[N]\nxbar = mean(x)\n"
      "for i in 1:I { alpha[i] ~ Normal(0, 10) }\nfor i in 1:I { beta[i] ~ Normal(0, 10) }\n"
      "for k in 1:K { b[k] ~ Normal(0, 1) }\nc ~ Normal(0, 1)\n"
      "for i in 1:I, j in 1:J { mu[i, j] = alpha[i] + beta[i] * (x[j] - xbar) }\n"
      "for i in 1:I { m[i] = 2 * mu[i, 1] - mu[i, J] / 4 + c }\n"
      "for n in 1:N { eta[n] = c + dot(X[n], b) + alpha[g[n]] }\n"
      "for i in 1:I, j in 1:J { y[i, j] ~ Normal(mu[i, j], 1) }\nfor n in 1:N { z[n] ~ Normal(eta[n] + m[g[n]], 1) }\n";
  const std::vector<std::string> data{"x=[8, 15, 22, 29, 36]", "X=[[1.0, 0.5], [0.2, -1.0], [2.0, 0.3], [-0.4, 0.9]]", "g=[1, 2, 3, 2]",
                                      "I=3", "y=[[1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [0, 1, 1, 2, 3]]", "z=[0.5, 1.5, -0.2, 0.8]"};
  check_definitions(text, data, {"alpha", "beta", "b", "c"}, 3);
  fixture f(text, data);
  check_model_gradient(f, {"alpha", "beta", "b", "c"}, 0.4);
  CHECK(f.graph->affine_definition_count() == 3);
}

TEST_CASE("definitions that are not affine, read themselves or index by an unknown keep the batch path") {
  const std::string head = "data x: real[N]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\nfor n in 1:N { k[n] ~ Categorical([0.5, 0.5]) }\n";
  const std::vector<std::string> data{"x=[0.5, -1.2, 2.0, 0.3]", "y=[1, 2, 3, 4]"};
  for (const std::string body : {
           "for n in 1:N { mu[n] = a + exp(b) * x[n] }\n",                          // not affine
           "for n in 1:N { mu[n] = a * b + x[n] }\n",                               // a product of unknowns
           "mu[1] = a\nfor n in 2:N { mu[n] = mu[n - 1] + b * x[n] }\n",            // reads itself
           "v[1] = a\nv[2] = b\nfor n in 1:N { mu[n] = v[k[n]] + x[n] }\n",  // indexed by an unknown
       }) {
    INFO(body);
    check_definitions(head + body + "for n in 1:N { y[n] ~ Normal(mu[n], 1) }\n", data, {"a", "b"}, 0);
  }
}

}  // namespace test_statistics
