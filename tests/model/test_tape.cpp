// Statements replayed from tapes (model/tape.hpp): their gradients are bit for bit those
// of the instance path (the same functions' eval and backward, adjoints added in the same
// order), match finite differences, and survive a replay that fails. Each model below is
// one the row-wise batch refuses, so that the tape, not a batch, takes it.
#include <doctest/doctest.h>

#include <cstring>

#include "tests/support/gradient_check.hpp"

namespace test_tape {

using ppl::testing::check_model_gradient;
using ppl::testing::fixture;
using ppl::testing::twin_graphs;

namespace {

ppl::model::graph_options with_tapes(bool on) {
  ppl::model::graph_options o;
  o.tapes = on;
  return o;
}

// Sets the unknowns `names` alike in both graphs, takes each gradient `times` times (the
// first records the tapes, the rest replay them) and requires the taped graph's density
// and gradient to equal the instance path's bit for bit, or within a relative `tolerance`
// where a tape shares a sub-expression across instances (its adjoints summed first).
void check_same_as_instance_path(const std::string& text, const std::vector<std::string>& data, const std::vector<std::string>& names,
                                 std::size_t taped, int times = 3, double tolerance = 0) {
  twin_graphs t(text, data, with_tapes(true), with_tapes(false), names);
  auto& on = t.on;
  auto& off = t.off;
  const auto& wrt = t.wrt;
  for (int round = 0; round < times; ++round) {
    t.set([&](int k) { return 0.4 + 0.3 * std::sin(1.7 * k + round); });
    std::vector<std::vector<double>> g_on, g_off;
    const double lp_on = on.graph->log_density_gradient(wrt, g_on), lp_off = off.graph->log_density_gradient(wrt, g_off);
    // A density that is not finite ends the gradient early: nothing would be compared.
    REQUIRE(std::isfinite(lp_off));
    CHECK(std::memcmp(&lp_on, &lp_off, sizeof(double)) == 0);
    for (const auto& n : names) {
      const auto v = static_cast<std::size_t>(on.model->find(n));
      REQUIRE(g_on[v].size() == g_off[v].size());
      INFO("round ", round, ", ", n);
      if (tolerance == 0) CHECK(std::memcmp(g_on[v].data(), g_off[v].data(), g_on[v].size() * sizeof(double)) == 0);
      else
        for (std::size_t i = 0; i < g_on[v].size(); ++i) CHECK(g_on[v][i] == doctest::Approx(g_off[v][i]).epsilon(tolerance));
    }
    // Derived variables written by a replay hold the instance path's values (bit for bit:
    // the elements no statement defines are NaN in both).
    for (std::size_t v = 0; v < on.model->variables.size(); ++v) {
      const auto &a = on.graph->values()[v].data, &b = off.graph->values()[v].data;
      REQUIRE(a.size() == b.size());
      CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
    }
  }
  CHECK(on.graph->taped_statements() == taped);
  CHECK(off.graph->taped_statements() == 0);
}

// A GARCH(1,1) volatility recursion: sigma[t] from sigma[t - 1], with a plate-invariant
// exp(log_a0) hoisted out of the loop.
const char* garch =
    "data y: real[T]\nmu ~ Normal(0, 1)\nlog_a0 ~ Normal(0, 1)\nalpha1 ~ Uniform(0, 1)\nbeta1 ~ Uniform(0, 1)\n"
    "sigma[1] = 1.5\n"
    "for t in 2:T { sigma[t] = sqrt(exp(log_a0) + alpha1 * pow(y[t - 1] - mu, 2) + beta1 * pow(sigma[t - 1], 2)) }\n"
    "for t in 1:T { y[t] ~ Normal(mu, sigma[t]) }\n";
const std::vector<std::string> garch_data{"y=[0.3, -1.2, 0.8, 2.1, -0.4, 0.05, 1.4, -0.9]"};

// The HMM forward algorithm: a row of the table from the one before, a log_sum_exp over
// the states of a strided column of the transition matrix.
const char* hmm =
    "data y: real[N]\ndata K: int = 2\nfor k in 1:K, j in 1:K { a[k, j] ~ Normal(0, 1) }\n"
    "for k in 1:K { theta[k] = softmax(a[k]) }\n"
    "for k in 1:K { mu[k] ~ Normal(0, 3) }\n"
    "for k in 1:K { gamma[1, k] = normal_lpdf(y[1] | mu[k], 1) }\n"
    "for t in 2:N, k in 1:K { gamma[t, k] = log_sum_exp(gamma[t - 1] + log(theta[:, k])) + normal_lpdf(y[t] | mu[k], 1) }\n"
    "factor log_sum_exp(gamma[N])\n";
const std::vector<std::string> hmm_data{"y=[-1.1, 0.2, 2.3, 2.0, -0.7, 1.8, 2.6]"};

// Selections of computed values (contiguous and strided), vector literals, a factor with
// a hoisted part, a definition without loops.
const char* shapes =
    "data Y: real[R, C]\nfor c in 1:C { mu[c] ~ Normal(0, 3) }\ntau ~ Gamma(2, 2)\n"
    "for r in 1:R, c in 1:C { L[r, c] ~ Normal(0, 1) }\n"
    "for c in 1:C { factor sum(softmax(L[:, c])[1:2]) + (L * [mu[1], tau])[c + 1] - tau * dot(Y[:, c], L[:, c]) }\n"
    "for r in 1:R { factor dot([mu[1], mu[2] * r, log(tau)], [tau, 1.0, Y[r, 1]]) - square(L[r, 1] - exp(mu[2])) + Y[r, 2] / tau + pow(tau, mu[2] / 4) }\n"
    "v = [mu[1] * tau, mu[2]]\nfactor -dot(v, v) / 10\n";
const std::vector<std::string> shapes_data{"Y=[[0.5, 1.0], [1.5, 0.2], [-0.3, 0.8]]"};

}  // namespace

TEST_CASE("a recursion over time replayed from its tape: bit for bit the instance path, and finite differences") {
  check_same_as_instance_path(garch, garch_data, {"mu", "log_a0", "alpha1", "beta1"}, 1);
  fixture f(garch, garch_data);
  check_model_gradient(f, {"mu", "log_a0", "alpha1", "beta1"}, 0.5);
  CHECK(f.graph->taped_statements() == 1);
}

TEST_CASE("the HMM forward algorithm replayed from tapes: strided columns, log_sum_exp, a factor") {
  // log(theta[:, k]) reads k but not t: the tape evaluates it once per state and sums its
  // adjoints over t before passing them on, so the gradient is the instance path's to
  // rounding (the density, and the rest, bit for bit).
  check_same_as_instance_path(hmm, hmm_data, {"a", "mu"}, 4, 3, 1e-13);
  fixture f(hmm, hmm_data);
  check_model_gradient(f, {"a", "mu"}, 0.3);
  // A shared part that holds a hoisted one (exp(s), read by every instance): the shared
  // node passes its adjoint into the hoisted one's before that is passed on.
  std::string scaled = hmm;
  scaled.replace(scaled.find("log(theta[:, k])"), 16, "log(theta[:, k]) * exp(s)");
  scaled = "s ~ Normal(0, 0.5)\n" + scaled;
  check_same_as_instance_path(scaled, hmm_data, {"a", "mu", "s"}, 4, 3, 1e-13);
  fixture g(scaled, hmm_data);
  check_model_gradient(g, {"a", "mu", "s"}, 0.3);
}

TEST_CASE("selections of computed values, vector literals and hoisted parts replayed from tapes") {
  check_same_as_instance_path(shapes, shapes_data, {"mu", "tau", "L"}, 4);
  fixture f(shapes, shapes_data);
  check_model_gradient(f, {"mu", "tau", "L"}, 0.4);
}

TEST_CASE("a vectorised log density in a factor: partials from its forward pass, against the instance path and finite differences") {
  // The shared scale's partials are summed before they are scaled, so the gradient equals
  // the instance path's to rounding, not bit for bit; the rest is bit for bit.
  const char* text =
      "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\ns ~ HalfNormal(1)\n"
      "factor normal_lpdf(y | a + b * x, s)\nfactor exponential_lpdf(exp(x) | s + exp(b))\n";
  const std::vector<std::string> data{"x=[0.5,-1,2,0.1,0.3,-0.7]", "y=[1.2,-0.4,3.9,0.2,-1.5,0.8]"};
  fixture on(text, data, with_tapes(true)), off(text, data, with_tapes(false));
  std::vector<char> wrt(on.model->variables.size(), 0);
  for (const char* n : {"a", "b", "s"}) wrt[static_cast<std::size_t>(on.model->find(n))] = 1;
  for (int round = 0; round < 3; ++round) {
    const double values[3] = {0.3 + 0.1 * round, -0.6, 0.9 - 0.2 * round};
    int k = 0;
    for (const char* n : {"a", "b", "s"}) on.mutable_value(n).data[0] = off.mutable_value(n).data[0] = values[k++];
    std::vector<std::vector<double>> g_on, g_off;
    const double lp_on = on.graph->log_density_gradient(wrt, g_on), lp_off = off.graph->log_density_gradient(wrt, g_off);
    REQUIRE(std::isfinite(lp_off));
    CHECK(lp_on == doctest::Approx(lp_off).epsilon(1e-14));
    for (const char* n : {"a", "b", "s"}) {
      const auto v = static_cast<std::size_t>(on.model->find(n));
      INFO("round ", round, ", ", n);
      CHECK(g_on[v][0] == doctest::Approx(g_off[v][0]).epsilon(1e-12));
    }
  }
  CHECK(on.graph->taped_statements() == 2);
  fixture f(text, data);
  check_model_gradient(f, {"a", "b", "s"}, 0.4);
}

TEST_CASE("a `~` the batch refuses replayed from its log-density call: a categorical of ragged slices, a multivariate normal") {
  // y[j] ~ Categorical(p[j, 1:n[j]]) reads a slice of a computed array whose length the
  // data fix per instance (Bones' graded items), and v[j] ~ MultiNormal(m, S) has a vector
  // value: the rows' batch takes neither, so each replays statement::density, the call
  // categorical_lpmf(y[j] | p[j, 1:n[j]]), its partials from one pass of the density.
  const char* text =
      "data n: int[J]\ndata y: int[J]\ndata w: real[J, 4]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\n"
      "for j in 1:J { for k in 1:n[j] { e[j, k] = exp(a * w[j, k] + b * k) } }\n"
      "for j in 1:J { y[j] ~ Categorical(e[j, 1:n[j]] / sum(e[j, 1:n[j]])) }\n"
      "m ~ MultiNormal([0.0, 0.0], [[1.0, 0.3], [0.3, 1.0]])\n"
      "for j in 1:J { v[j] ~ MultiNormal(m, [[2.0, 0.5], [0.5, 1.0]]) }\n";
  const std::vector<std::string> data{"n=[2,4,3,4,2]", "y=[2,3,1,4,1]",
                                      "w=[[0.1,0.5,0,0],[1,-0.4,0.3,0.8],[-1,0.2,0.7,0],[0.4,0.4,-0.9,1.1],[0.6,-0.3,0,0]]"};
  check_same_as_instance_path(text, data, {"a", "b", "m", "v"}, 2);
  fixture f(text, data);
  check_model_gradient(f, {"a", "b", "m", "v"}, 0.4);
}

TEST_CASE("a replay that a function refuses falls back to the instance path, which names the place") {
  // Symmetric when recorded (b = c); not at the second gradient: cholesky refuses it, and
  // the error is the instance path's, with its position.
  const char* text =
      "b ~ Normal(0, 1)\nc ~ Normal(0, 1)\n"
      "for i in 1:2 { factor -sum(cholesky([[2.0, b * i], [c * i, 2.0]])) }\n";
  std::string messages[2];
  for (int taped = 0; taped < 2; ++taped) {
    fixture f(text, {}, with_tapes(taped == 1));
    std::vector<char> wrt(f.model->variables.size(), 0);
    wrt[static_cast<std::size_t>(f.model->find("b"))] = wrt[static_cast<std::size_t>(f.model->find("c"))] = 1;
    f.mutable_value("b").data[0] = f.mutable_value("c").data[0] = 0.3;
    std::vector<std::vector<double>> g;
    CHECK(std::isfinite(f.graph->log_density_gradient(wrt, g)));
    CHECK(f.graph->taped_statements() == static_cast<std::size_t>(taped));
    f.mutable_value("c").data[0] = -0.2;
    try {
      f.graph->log_density_gradient(wrt, g);
    } catch (const ppl::source_error& e) {
      messages[taped] = e.what();
    }
  }
  CHECK(messages[0].find("not symmetric") != std::string::npos);
  CHECK(messages[1] == messages[0]);
}

}  // namespace test_tape
