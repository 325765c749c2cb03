// Simulation-based calibration (Talts, Betancourt, Simpson, Vehtari & Gelman 2018) for
// every sampler kind, and Geweke's (2004) joint-distribution test for conjugate and gibbs.
// SBC: draw theta and y from the prior, sample theta | y, and take the rank of the true
// theta among L posterior draws; for a correct sampler the ranks are uniform. Tested by a
// chi-square over 10 bins at the 0.999 level with fixed seeds.
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "model/graph.hpp"
#include "samplers/factories.hpp"
#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/short_run.hpp"

namespace test_calibration {

using namespace ppl;

namespace {

struct sbc_case {
  const char* name;
  const char* model;
  std::vector<std::string> data;      // everything but the observations
  std::string parameter;              // the variable whose rank is tested (a scalar)
  std::string kind;                   // the sampler kind expected for it
  std::map<std::string, std::string> overrides;
  long thin = 4;  // between the draws whose ranks are taken: enough to make them nearly independent
};

// Runs a fresh chain on `g` and returns the rank of `truth` among L draws thinned by T.
long rank_of(model::graph& g, int parameter, double truth, const std::map<std::string, std::string>& overrides,
             ppl::rng& rng, long warmup, long draws, long thin) {
  std::vector<std::unique_ptr<samplers::sampler>> run;
  samplers::sampler_settings settings;
  settings.warmup = warmup;
  for (auto& made : inference::make_samplers(g, samplers::plan(g, overrides))) {
    made.made->configure(settings);
    run.push_back(std::move(made.made));
  }
  long below = 0, ties = 0;
  for (long it = 1; it <= warmup + draws * thin; ++it) {
    for (auto& s : run) s->step(rng, it <= warmup);
    g.update_derived();
    if (it <= warmup || (it - warmup) % thin) continue;
    double x = g.value(parameter).data[0];
    below += x < truth;
    ties += x == truth;
  }
  // Ties (discrete parameters) are broken uniformly at random.
  return below + boost::random::uniform_int_distribution<long>(0, ties)(rng);
}

void run_sbc(const sbc_case& c) {
  auto m = lang::compile({c.name, c.model}, stdlib::library());
  data::data_table base;
  for (const auto& s : c.data) data::apply_set(base, s);
  const int replications = static_cast<int>(testing::shortened(1000, 4)), bins = 10;
  const long draws = 49;  // ranks 0..49: 50 values, 5 per bin
  std::vector<int> counts(bins, 0);
  ppl::rng rng(2024);
  int parameter = m.find(c.parameter);
  for (int r = 0; r < replications; ++r) {
    model::graph_options forward;  // observations simulated, unknowns drawn from their priors
    forward.allow_missing_observations = true;
    forward.start.from_prior = true;
    model::graph prior(m, base, rng, forward);
    double truth = prior.value(parameter).data[0];
    data::data_table data = base;
    for (std::size_t v = 0; v < m.variables.size(); ++v)
      if (prior.simulated(static_cast<int>(v)))
      {
        data::data_value simulated;
        simulated.value = prior.value(static_cast<int>(v));
        simulated.integer = m.variables[v].type.kind == stdlib::scalar_kind::integer;
        simulated.origin = "sbc";
        data.set(m.variables[v].name, std::move(simulated));
      }
    model::graph posterior(m, data, rng);
    if (r == 0) {
      for (const auto& a : samplers::plan(posterior, c.overrides))
        if (a.variable == parameter) CHECK(std::string(a.chosen->kind()) == c.kind);
    }
    counts[static_cast<std::size_t>(rank_of(posterior, parameter, truth, c.overrides, rng, 100, draws, c.thin) * bins / (draws + 1))]++;
  }
  double expected = static_cast<double>(replications) / bins, stat = 0;
  for (int k : counts) stat += (k - expected) * (k - expected) / expected;
  INFO(c.name, ": chi-square ", stat);
  CHECK(stat < boost::math::quantile(boost::math::chi_squared(bins - 1), 0.999));
}

}  // namespace

TEST_CASE("SBC: conjugate") {
  run_sbc({"conjugate", "data y: int[N]\np ~ Beta(2, 2)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n", {"N=8"}, "p", "conjugate", {}});
}

TEST_CASE("SBC: conjugate Normal-Wishart (a population's precision, and its mean with a scaled prior precision)") {
  const char* model =
      "data x: real[N, 2]\nW ~ Wishart(4, [[1.0, 0.3], [0.3, 1.0]])\nmu ~ MultiNormalPrec([0.0, 0.0], 2 * W)\n"
      "for i in 1:N { x[i] ~ MultiNormalPrec(mu, W) }\n";
  run_sbc({"wishart", model, {"N=4"}, "W", "conjugate", {}});
  run_sbc({"wishart mean", model, {"N=4"}, "mu", "conjugate", {}});
}

TEST_CASE("SBC: conjugate scales with known weights, Normal(mu, 1 / sqrt(tau * w[n])) and Normal(mu, sqrt(v * c[n]))") {
  run_sbc({"weighted precision",
           "data w: real[N]\ndata y: real[N]\ntau ~ Gamma(3, 2)\nfor n in 1:N { y[n] ~ Normal(0.5, 1 / sqrt(tau * w[n])) }\n",
           {"N=4", "w=[0.5, 1, 2, 4]"}, "tau", "conjugate", {}});
  run_sbc({"scaled variance",
           "data c: real[N]\ndata y: real[N]\nv ~ InverseGamma(3, 2)\nfor n in 1:N { y[n] ~ Normal(0.5, sqrt(v * c[n])) }\n",
           {"N=4", "c=[0.5, 1, 2, 4]"}, "v", "conjugate", {}});
}

TEST_CASE("SBC: gaussian_block (random effects drawn with their mean, their scale conjugate)") {
  run_sbc({"gaussian_block",
           "data g: int[N]\ndata y: real[N]\nmu ~ Normal(0, 1)\ntau ~ Gamma(4, 4)\nfor j in 1:3 { b[j] ~ Normal(mu, 1 / sqrt(tau)) }\n"
           "for n in 1:N { y[n] ~ Normal(b[g[n]], 0.5) }\n",
           {"N=6", "g=[1, 1, 2, 2, 3, 3]"}, "mu", "gaussian_block", {}});
}

TEST_CASE("SBC: gaussian_block with MultiNormal unknowns (random intercepts and slopes with their mean vector)") {
  run_sbc({"gaussian_block multinormal",
           "data g: int[N]\ndata x: real[N]\ndata y: real[N]\nmu ~ MultiNormal([0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]])\n"
           "for j in 1:2 { b[j] ~ MultiNormal(mu, [[0.5, 0.1], [0.1, 0.3]]) }\n"
           "for n in 1:N { y[n] ~ Normal(b[g[n], 1] + b[g[n], 2] * x[n], 0.5) }\n",
           {"N=4", "g=[1, 1, 2, 2]", "x=[-1, 1, -0.5, 0.5]"}, "mu", "gaussian_block", {}});
}

TEST_CASE("SBC: gibbs") {
  run_sbc({"gibbs", "z ~ Categorical([0.2, 0.3, 0.5])\ndata y: real[N]\nfor n in 1:N { y[n] ~ Normal(z, 1.5) }\n", {"N=3"}, "z",
           "gibbs", {}});
}

TEST_CASE("SBC: collapsed") {
  run_sbc({"collapsed",
           "theta ~ Dirichlet([1.0, 1.0, 1.0])\nfor n in 1:3 { z[n] ~ Categorical(theta) }\ndata y: real[3]\n"
           "for n in 1:3 { y[n] ~ Normal(z[n], 0.7) }\n",
           {}, "z", "collapsed", {}});
}

TEST_CASE("SBC: slice") {
  run_sbc({"slice", "data y: real[N]\nmu ~ Normal(0, 1)\ns ~ HalfNormal(1)\nfor n in 1:N { y[n] ~ Normal(mu, s) }\n", {"N=5"}, "s",
           "slice", {{"s", "slice"}}});
}

TEST_CASE("SBC: nuts on a linear regression") {
  run_sbc({"nuts",
           "data x: real[N]\ndata y: real[N]\nalpha ~ Normal(0, 1)\nbeta ~ Normal(0, 1)\nsigma ~ HalfNormal(1)\n"
           "for n in 1:N { y[n] ~ Normal(alpha + beta * x[n], sigma) }\n",
           {"N=6", "x=[-1.5, -0.7, 0.1, 0.4, 1.2, 2.0]"}, "beta", "nuts", {{"alpha", "nuts"}, {"beta", "nuts"}}, 2});
}

TEST_CASE("SBC: rwmh") {
  run_sbc({"rwmh", "data y: real[N]\nmu ~ Normal(0, 1)\ns ~ HalfNormal(1)\nfor n in 1:N { y[n] ~ Normal(mu, s) }\n", {"N=5"}, "mu",
           "rwmh", {{"mu", "rwmh"}, {"s", "rwmh"}}});
}

TEST_CASE("SBC: ancestral") {
  run_sbc({"ancestral", "data y: real[N]\nmu ~ Normal(0, 1)\nw ~ Gamma(2, 1)\nfor n in 1:N { y[n] ~ Normal(mu, 1) }\n", {"N=3"}, "w",
           "ancestral", {}});
}

namespace {

// Geweke's successive-conditional simulator: alternate theta | y (the sampler under test)
// and y | theta (exact); the draws of theta must follow its prior.
void run_geweke(const char* model, const std::vector<std::string>& data, const std::string& parameter, double prior_mean,
                const std::string& kind) {
  auto m = lang::compile({"geweke", model}, stdlib::library());
  data::data_table base;
  for (const auto& s : data) data::apply_set(base, s);
  ppl::rng rng(99);
  model::graph_options forward;  // observations simulated, unknowns drawn from their priors
  forward.allow_missing_observations = true;
  forward.start.from_prior = true;
  model::graph g(m, base, rng, forward);
  std::vector<std::unique_ptr<samplers::sampler>> run;
  for (const auto& a : samplers::plan(g, {})) {
    if (g.model().variables[static_cast<std::size_t>(a.variable)].name == parameter) CHECK(std::string(a.chosen->kind()) == kind);
    run.push_back(a.chosen->make(g, a.variable));
  }
  std::vector<std::vector<double>> chain(1);
  int v = m.find(parameter);
  for (long it = 0; it < 20000; ++it) {
    for (auto& s : run) s->step(rng, false);
    for (std::size_t k = 0; k < m.variables.size(); ++k)
      if (g.simulated(static_cast<int>(k))) g.draw_variable(static_cast<int>(k), rng);
    chain[0].push_back(g.value(v).data[0]);
  }
  auto s = draws::summarize(chain);
  INFO(parameter, ": mean ", s.mean, " prior mean ", prior_mean, " mcse ", s.mcse_mean);
  CHECK(std::fabs(s.mean - prior_mean) < 4 * s.mcse_mean);
}

}  // namespace

TEST_CASE("Geweke: conjugate") {
  run_geweke("data y: int[N]\nlambda ~ Gamma(3, 2)\nfor n in 1:N { y[n] ~ Poisson(lambda) }\n", {"N=4"}, "lambda", 1.5, "conjugate");
}

TEST_CASE("Geweke: gibbs") {
  run_geweke("z ~ Categorical([0.2, 0.3, 0.5])\ndata y: real[N]\nfor n in 1:N { y[n] ~ Normal(z, 1) }\n", {"N=2"}, "z", 2.3, "gibbs");
}

}  // namespace test_calibration
