// Gibbs by enumeration against exact enumeration: the mark network of the MCMC notes.
#include "tests/samplers/inference_fixture.hpp"

namespace test_discrete_exact {

using namespace ppl::testing;

namespace {

const char* mark_model = R"(
data p_stu: real[3]
data kw_given_stu: real[3, 3]
data p_mot: real
data mark_given: real[3, 2, 4]
data mrk: int
stu ~ Categorical(p_stu)
pkw ~ Categorical(kw_given_stu[stu])
mot ~ Bernoulli(p_mot)
mrk ~ Categorical(mark_given[pkw, mot + 1])
)";

const std::vector<std::string> mark_data = {
    "p_stu=[0.3,0.5,0.2]", "kw_given_stu=[[0.6,0.3,0.1],[0.2,0.6,0.2],[0.1,0.3,0.6]]", "p_mot=0.6",
    "mark_given=[[[0.5,0.3,0.15,0.05],[0.3,0.4,0.2,0.1]],[[0.2,0.4,0.3,0.1],[0.1,0.3,0.4,0.2]],[[0.1,0.2,0.4,0.3],[0.05,0.15,0.3,0.5]]]",
    "mrk=4"};

// An indicator series from a column, per chain.
std::vector<std::vector<double>> indicator(const std::vector<std::vector<double>>& chains, double value) {
  auto out = chains;
  for (auto& c : out)
    for (double& x : c) x = x == value ? 1 : 0;
  return out;
}

}  // namespace

TEST_CASE("the mark network: P(stu, pkw, mot | mrk = 4) against exact enumeration") {
  double p_stu[3] = {0.3, 0.5, 0.2}, kw[3][3] = {{0.6, 0.3, 0.1}, {0.2, 0.6, 0.2}, {0.1, 0.3, 0.6}};
  double mark4[3][2] = {{0.05, 0.1}, {0.1, 0.2}, {0.3, 0.5}};
  double joint[3][3][2], total = 0;
  for (int s = 0; s < 3; ++s)
    for (int k = 0; k < 3; ++k)
      for (int m = 0; m < 2; ++m) total += joint[s][k][m] = p_stu[s] * kw[s][k] * (m ? 0.6 : 0.4) * mark4[k][m];
  ppl::inference::run_options o;
  o.chains = 2;
  o.warmup = 200;
  o.draws = 5000;
  o.seed = 5;
  auto p = infer(mark_model, mark_data, o);
  CHECK(p.kind("stu") == "gibbs");
  CHECK(p.kind("pkw") == "gibbs");
  CHECK(p.kind("mot") == "gibbs");
  for (int v = 1; v <= 3; ++v) {
    double exact_stu = 0, exact_pkw = 0;
    for (int a = 0; a < 3; ++a)
      for (int m = 0; m < 2; ++m) exact_stu += joint[v - 1][a][m] / total, exact_pkw += joint[a][v - 1][m] / total;
    for (auto [name, exact] : {std::pair{"stu", exact_stu}, std::pair{"pkw", exact_pkw}}) {
      auto s = ppl::draws::summarize(indicator(p.column(name), v));
      INFO(name, " = ", v, ": ", s.mean, " exact ", exact, " mcse ", s.mcse_mean);
      CHECK(std::fabs(s.mean - exact) < 4 * s.mcse_mean);
    }
  }
  double exact_mot = 0;
  for (int s = 0; s < 3; ++s)
    for (int k = 0; k < 3; ++k) exact_mot += joint[s][k][1] / total;
  check_mean(p, "mot", exact_mot);
}

TEST_CASE("a two-state hidden Markov chain: gibbs on z[t] ~ Categorical(P[z[t - 1]]) against all 64 paths") {
  // Each z[t] is a child of z[t - 1] through its prior: the update of z[t] must weigh
  // z[t + 1]'s transition as well as its own.
  const double y[6] = {1.1, 2.2, 0.9, 1.6, 2.0, 1.2}, P[2][2] = {{0.9, 0.1}, {0.2, 0.8}};
  double total = 0, mean[6] = {};
  for (int path = 0; path < 64; ++path) {
    int z[6];
    for (int t = 0; t < 6; ++t) z[t] = 1 + ((path >> t) & 1);
    double w = 0.5;
    for (int t = 1; t < 6; ++t) w *= P[z[t - 1] - 1][z[t] - 1];
    for (int t = 0; t < 6; ++t) w *= std::exp(-(y[t] - z[t]) * (y[t] - z[t]) / (2 * 0.49));
    total += w;
    for (int t = 0; t < 6; ++t) mean[t] += w * z[t];
  }
  ppl::inference::run_options o;
  o.chains = 2;
  o.warmup = 200;
  o.draws = 10000;
  o.seed = 8;
  auto p = infer("data y: real[T]\ndata P: real[2, 2]\nz[1] ~ Categorical([0.5, 0.5])\n"
                 "for t in 2:T { z[t] ~ Categorical(P[z[t - 1]]) }\nfor t in 1:T { y[t] ~ Normal(z[t], 0.7) }\n",
                 {"y=[1.1, 2.2, 0.9, 1.6, 2.0, 1.2]", "P=[[0.9, 0.1], [0.2, 0.8]]"}, o);
  CHECK(p.kind("z") == "gibbs");
  for (int t = 0; t < 6; ++t) check_mean(p, "z[" + std::to_string(t + 1) + "]", mean[t] / total);
}

}  // namespace test_discrete_exact
