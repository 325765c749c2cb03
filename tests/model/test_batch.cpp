// Statements evaluated over all their instances at once (model/graph_batch.cpp) give
// what the instance-by-instance path gives: each statement's log density against the sum
// of its instances' terms, each derived array against its instances recomputed one at a
// time, on models that use gathers through data, loop arithmetic, modular neighbours,
// scalar products, invariant sub-expressions and nested loops with bounds that follow the
// outer loop. Errors found in a batch (an index out of range) are still reported with
// the instance and its position.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/support/gradient_check.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_batch {

using ppl::testing::fixture;

namespace {

// The sum of a statement's instance terms, one instance at a time.
double one_by_one(ppl::model::graph& g, const ppl::lang::ir::statement& s) {
  const std::vector<ppl::index_t> table = ppl::model::instances(g).table(s);
  const std::size_t depth = s.loops.size();
  const std::size_t count = depth ? table.size() / depth : 1;
  double total = 0;
  for (std::size_t i = 0; i < count; ++i) total += ppl::model::instances(g).log_density(s, table.data() + i * depth);
  return total;
}

void check_statements(fixture& f) {
  for (const auto& s : f.model->statements) {
    if (s.which == ppl::lang::ir::statement::kind::assign) {
      if (f.model->variables[static_cast<std::size_t>(s.target)].role != ppl::lang::ir::role::derived) continue;
      f.graph->update_derived();  // batched where it can be
      const std::vector<double> batched = f.graph->value(s.target).data;
      auto& values = f.graph->values()[static_cast<std::size_t>(s.target)].data;
      std::fill(values.begin(), values.end(), NAN);
      const std::vector<ppl::index_t> table = ppl::model::instances(*f.graph).table(s);
      const std::size_t depth = s.loops.size(), count = depth ? table.size() / depth : 1;
      for (std::size_t i = 0; i < count; ++i) ppl::model::instances(*f.graph).run(s, table.data() + i * depth);
      CHECK(values == batched);
      continue;
    }
    const double batched = ppl::model::instances(*f.graph).log_density(s);
    CHECK(batched == doctest::Approx(one_by_one(*f.graph, s)).epsilon(1e-12));
  }
}

}  // namespace

TEST_CASE("batch: a statement's terms and derived values as one batch equal those of its instances one by one") {
  SUBCASE("gathers through data, loop arithmetic, invariant parts") {
    fixture f("data g: int[N]\ndata x: real[N]\ndata y: int[N]\nbeta ~ Gamma(1, 1)\nfor j in 1:3 { lambda[j] ~ Gamma(2, beta) }\n"
              "for n in 1:N { y[n] ~ Poisson(lambda[g[n]] * exp(0.1 * x[n]) + n / 10) }\n"
              "for n in 1:N { r[n] = y[n] - lambda[g[n]] * (1 + sqrt(beta)) }\n",
              {"g=[1,2,3,3,2,1,1,2]", "x=[0.5,-1,2,0.1,0.3,-0.7,1.1,0]", "y=[1,0,4,3,2,0,1,5]"});
    check_statements(f);
  }
  SUBCASE("the Ising model: modular neighbours and scalar products") {
    fixture f("data L: int = 5\ndata beta: real = 0.4\nfor i in 1:L, j in 1:L { s[i, j] ~ Spin() }\n"
              "for i in 1:L, j in 1:L { factor beta * s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) }\n"
              "for i in 1:L, j in 1:L { e[i, j] = -s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) }\n");
    check_statements(f);
  }
  SUBCASE("the Ising model over more rows than one block (4,096), offsets kept across blocks") {
    fixture f("data L: int = 70\ndata beta: real = 0.4\nfor i in 1:L, j in 1:L { s[i, j] ~ Spin() }\n"
              "for i in 1:L, j in 1:L { factor beta * s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) }\n"
              "for i in 1:L, j in 1:L { e[i, j] = -s[i, j] * (s[i % L + 1, j] + s[i, j % L + 1]) }\n");
    check_statements(f);
    // Again after the spins change: the kept offsets read the new values.
    auto& spins = f.graph->values()[static_cast<std::size_t>(f.model->find("s"))].data;
    for (std::size_t k = 0; k < spins.size(); k += 7) spins[k] = -spins[k];
    check_statements(f);
  }
  SUBCASE("data-only parts kept across blocks and evaluations (x[n] - xbar, sqrt(n)), their unknown parts read anew") {
    // 5,000 rows: the kept columns are filled block by block and read once complete.
    fixture f("data N: int = 5000\ndata xbar: real = 2.5\nfor n in 1:N { a[n] ~ Normal(0, 1) }\nb ~ Normal(0, 1)\n"
              "for n in 1:N { m[n] = a[n] + b * (n % 7 - xbar) / sqrt(n) }\n"
              "for n in 1:N { z[n] ~ Normal(m[n] + (n % 3) * 0.5, 1 + n % 5) }\n");
    for (int round = 0; round < 3; ++round) {
      check_statements(f);
      auto& a = f.graph->values()[static_cast<std::size_t>(f.model->find("a"))].data;
      for (std::size_t k = 0; k < a.size(); k += 3) a[k] += 0.25 * (round + 1);
      f.graph->values()[static_cast<std::size_t>(f.model->find("b"))].data[0] += 0.5;
    }
  }
  SUBCASE("nested loops whose inner bound follows the outer loop") {
    fixture f("data K: int = 6\nfor i in 1:K { for j in 1:i { m[i, j] ~ Normal(i - j, 1 + 0.5 * j) } }\n"
              "for i in 1:K { for j in 1:K - i { m[i, i + j] ~ Normal(0, 1) } }\n"
              "for i in 1:K, j in 1:K { d[i, j] = m[i, j] * m[j, i] + i }\n");
    check_statements(f);
  }
  SUBCASE("density calls and log_mix per row, which the batch calls row by row") {
    fixture f("data y: real[N]\nmu ~ Normal(0, 1)\ns ~ HalfNormal(1)\ntheta ~ Beta(2, 2)\n"
              "for n in 1:N { factor normal_lpdf(y[n] | mu, s) }\n"
              "for n in 1:N { factor log_mix(theta, normal_lpdf(y[n] | mu, 1), cauchy_lpdf(y[n] | 0, s)) }\n"
              "for n in 1:N, k in 1:3 { e[n, k] = exponential_lpdf(exp(y[n]) | s + k) }\n",
              {"y=[1.2,-0.4,3.9,0.2,-1.5,0.8,2.2]"});
    check_statements(f);
  }
}

TEST_CASE("batch: an index out of range is reported with its instance, as one by one") {
  fixture f("data N: int = 6\nfor n in 1:N { mu[n] ~ Normal(0, 1) }\nfor n in 1:N { d[n] = mu[n] + mu[n % N + 1] }\n");
  const auto& s = f.model->statements.back();
  CHECK_NOTHROW(f.graph->update_derived());
  // A model whose derived index leaves the array at its last instance.
  const std::string error = ppl::testing::error_of("data N: int = 6\nfor n in 1:N { mu[n] ~ Normal(0, 1) }\n"
                                                   "for n in 1:N { d[n] = mu[n] + mu[n + 1] }\n");
  CHECK(error.find("n = 6") != std::string::npos);
  CHECK(s.loops.size() == 1);
}

TEST_CASE("batch: blocks past the first give the same errors and invalid terms as one by one") {
  // The out-of-range read is in the second block of rows.
  const std::string error = ppl::testing::error_of("data N: int = 5000\nfor n in 1:N { mu[n] ~ Normal(0, 1) }\n"
                                                   "for n in 1:N { d[n] = mu[n] + mu[n + 1] }\n");
  CHECK(error.find("n = 5000") != std::string::npos);
  // A scale that follows an unknown, negative at one instance of the second block: the
  // statement's term is -inf, as the instances' sum is.
  fixture f("data N: int = 5000\nfor n in 1:N { x[n] ~ Normal(1, 0.1) }\nfor n in 1:N { z[n] ~ Normal(0, x[n] * x[n]) }\n"
            "for n in 1:N { w[n] ~ Normal(0, x[n] + 1) }\n");
  check_statements(f);
  f.graph->values()[static_cast<std::size_t>(f.model->find("x"))].data[4500] = -1.5;
  const auto& last = f.model->statements.back();
  CHECK(ppl::model::instances(*f.graph).log_density(last) == -INFINITY);
  CHECK(one_by_one(*f.graph, last) == -INFINITY);
}

TEST_CASE("batch: a factor of a log density per row is summed as a ~ of its density, refusals as one by one") {
  const std::vector<std::string> data = {"x=[0.5,-1,2,0.1,0.3,-0.7,1.1,0]", "y=[1.2,0.3,2.5,0.9,1.1,-0.2,1.9,0.4]"};
  const std::string head = "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 1)\ns ~ Gamma(2, 2)\nfor n in 1:N { z[n] ~ Normal(0, 1) }\n";
  // The value a column of data, of unknowns, or one value for every row; parameters that
  // vary and that do not; a distribution with its own rows kernel (Normal) and without.
  for (const std::string& factor : {"factor normal_lpdf(y[n] | a + x[n], s)", "factor normal_lpdf(z[n] | a * x[n], s)",
                                    "factor normal_lpdf(a | x[n], s + z[n] * z[n])", "factor gamma_lpdf(y[n] * y[n] + 0.1 | s, exp(a + x[n]))",
                                    "factor student_t_lpdf(y[n] | 3, z[n], s)",
                                    // densities inside a call, their values and partials row by row
                                    "factor log_mix(0.3, normal_lpdf(y[n] | a, s), normal_lpdf(y[n] | z[n], 1))",
                                    "factor log_mix(0.6, normal_lpdf(1.5 | a, s), gamma_lpdf(y[n] * y[n] | s, exp(z[n])))"}) {
    CAPTURE(factor);
    fixture f(head + "for n in 1:N { " + factor + " }\n", data);
    check_statements(f);
    ppl::testing::check_model_gradient(f, {"a", "s", "z"}, 0.8);
  }
  // The same term written with ~ gives the same log density and gradient.
  fixture tilde(head + "for n in 1:N { y[n] ~ Normal(a + x[n], s) }\n", data);
  fixture factor(head + "for n in 1:N { factor normal_lpdf(y[n] | a + x[n], s) }\n", data);
  std::vector<char> wrt(tilde.model->variables.size(), 0);
  for (const char* v : {"a", "s"}) wrt[static_cast<std::size_t>(tilde.model->find(v))] = 1;
  for (fixture* f : {&tilde, &factor}) {
    f->mutable_value("a").data[0] = 0.4;
    f->mutable_value("s").data[0] = 1.3;
    f->mutable_value("z").data.assign(8, 0.0);
  }
  std::vector<std::vector<double>> dt, df;
  CHECK(tilde.graph->log_density_gradient(wrt, dt) == doctest::Approx(factor.graph->log_density_gradient(wrt, df)).epsilon(1e-12));
  for (const char* v : {"a", "s"}) {
    const auto i = static_cast<std::size_t>(tilde.model->find(v));
    CHECK(dt[i][0] == doctest::Approx(df[i][0]).epsilon(1e-12));
  }
  // Refused rows past the first block: an invalid scale gives NaN, a value outside the
  // support -inf, each as the rows one by one give it.
  fixture big("data N: int = 5000\nfor n in 1:N { x[n] ~ Normal(1, 0.1) }\nfor n in 1:N { factor normal_lpdf(0.5 | 0, x[n]) }\n"
              "for n in 1:N { factor uniform_lpdf(x[n] | 0, 2) }\n"
              "for n in 1:N { factor log_mix(0.5, normal_lpdf(0.5 | 0, x[n]), normal_lpdf(0.5 | 0, 1)) }\n"
              "for n in 1:N { factor log_mix(0.5, exponential_lpdf(x[n] | 1), normal_lpdf(0.5 | 0, 1)) }\n");
  check_statements(big);
  big.mutable_value("x").data[4500] = -1.5;
  const auto& normal = big.model->statements[1];
  const auto& uniform = big.model->statements[2];
  CHECK(std::isnan(ppl::model::instances(*big.graph).log_density(normal)));
  CHECK(std::isnan(one_by_one(*big.graph, normal)));
  CHECK(ppl::model::instances(*big.graph).log_density(uniform) == -INFINITY);
  CHECK(one_by_one(*big.graph, uniform) == -INFINITY);
  // Inside a call: the invalid scale's row NaN, the row outside the support the other
  // component alone.
  const auto& mixed = big.model->statements[3];
  CHECK(std::isnan(ppl::model::instances(*big.graph).log_density(mixed)));
  CHECK(std::isnan(one_by_one(*big.graph, mixed)));
  const auto& outside = big.model->statements[4];
  CHECK(std::isfinite(ppl::model::instances(*big.graph).log_density(outside)));
  CHECK(ppl::model::instances(*big.graph).log_density(outside) == doctest::Approx(one_by_one(*big.graph, outside)).epsilon(1e-12));
  std::vector<char> all(big.model->variables.size(), 1);
  std::vector<std::vector<double>> grad;
  CHECK(!std::isfinite(big.graph->log_density_gradient(all, grad)));
}

}  // namespace test_batch
