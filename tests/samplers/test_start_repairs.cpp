// Models whose chains could not start (model/graph_start.cpp, graph_start_discrete.cpp,
// stdlib/restricted.cpp), each a small version of an OpenBUGS example that failed so, with
// its exact posterior (means within 4 MC errors, fixed seeds):
// - a censored time far in its distribution's tail at the start (Mice): drawn by inversion;
// - a vague prior whose mean no observation allows (Kidney's Weibull shape): later starts
//   uniform(-2, 2) on the unconstrained scale;
// - latent states whose prior draws the data rule out (Biopsies): drawn from their full
//   conditionals by enumeration.
#include "tests/samplers/inference_fixture.hpp"

namespace test_start_repairs {

using namespace ppl::testing;

TEST_CASE("a censored time whose bound is far in the tail at the start is imputed by inversion") {
  // Three observed times (3.5 in all) and two censored at 60 and 1.5: lambda | data is
  // Gamma(1 + 3, 1 + 3.5 + 61.5), and a censored time is its bound plus an
  // Exponential(lambda). At lambda's start (near 1) P(T > 60) = e^-60, out of rejection's reach.
  const auto p = infer("data t: real[N]\ndata c: real[N]\nlambda ~ Gamma(1, 1)\nt ~ Exponential(lambda) C[c, ]\n",
                       {"t=[1.0, null, 0.5, null, 2.0]", "c=[0, 60, 0, 1.5, 0]"}, two_chains(200, 4000, 21));
  check_mean(p, "lambda", 4.0 / 66);
  check_mean(p, "t[2]", 60 + 66.0 / 3);  // E[1 / lambda] = 66 / 3
  check_mean(p, "t[4]", 1.5 + 66.0 / 3);
}

TEST_CASE("a vague prior whose typical value no observation allows: later starts are uniform on the unconstrained scale") {
  // r ~ Gamma(1, 0.001) starts near its mean, 1000 (within e^+-1), where 10^r overflows and
  // the Weibull term of t = 10 is -inf at every jitter. The posterior mean by quadrature.
  const std::vector<double> t = {2, 10, 0.5, 4, 7};
  auto log_post = [&](double r) {
    double lp = -0.001 * r;
    for (double x : t) lp += std::log(r) + (r - 1) * std::log(x) - std::pow(x, r);
    return lp;
  };
  double z = 0, m = 0;
  for (int k = 1; k <= 100000; ++k) {
    const double r = k * 10.0 / 100000, w = std::exp(log_post(r) - log_post(1));
    z += w;
    m += w * r;
  }
  const auto p = infer("data t: real[N]\nr ~ Gamma(1, 0.001)\nt ~ Weibull(r, 1)\n", {"t=[2, 10, 0.5, 4, 7]"}, two_chains(300, 4000, 22));
  check_mean(p, "r", m / z);
}

TEST_CASE("latent states that prior draws cannot start: drawn from their full conditionals") {
  // Biopsies in small: a state k shows grades up to k with probabilities E[k]. Twelve
  // patients show grade 4, which only state 4 (prior 0.1) allows: a joint prior draw fits
  // them with probability 1e-12. p and E are data, so each state's posterior is exact.
  std::string grade_4;
  for (int i = 0; i < 12; ++i) grade_4 += ",[1,0,0,1]";
  const auto p = infer(
      "data y: int[N, 4]\ndata E: real[4, 4]\ndata p: real[4]\n"
      "for i in 1:N {\n  z[i] ~ Categorical(p)\n  y[i] ~ Multinomial(2, E[z[i]])\n}\n",
      {"y=[[0,1,1,0],[2,0,0,0]" + grade_4 + "]", "E=[[1,0,0,0],[0.5,0.5,0,0],[0.3,0.3,0.4,0],[0.2,0.2,0.3,0.3]]",
       "p=[0.4, 0.3, 0.2, 0.1]"},
      two_chains(100, 4000, 23));
  // z[1] (grades 2 and 3): states 3 and 4 with weights 0.2 * 0.3 * 0.4 and 0.1 * 0.2 * 0.3.
  check_mean(p, "z[1]", (3 * 0.024 + 4 * 0.006) / 0.030);
  // z[2] (grade 1 twice): weights p[k] E[k, 1]^2.
  const double w[] = {0.4, 0.3 * 0.25, 0.2 * 0.09, 0.1 * 0.04};
  check_mean(p, "z[2]", (w[0] + 2 * w[1] + 3 * w[2] + 4 * w[3]) / (w[0] + w[1] + w[2] + w[3]));
  CHECK(p.summary("z[3]").mean == 4);
}

}  // namespace test_start_repairs
