// lp__ kept up to date from the samplers' changes (conjugate updates from their
// statistics, NUTS, slice and gibbs from the densities they computed) equals the joint log density computed
// in full at the recorded values, at every kept iteration, for every conjugate pair and
// for mixtures of sampler kinds. A wrong kernel or a term left out shows at once.
#include <cmath>

#include "model/graph.hpp"
#include "tests/samplers/inference_fixture.hpp"

namespace test_lp {

using namespace ppl;

namespace {

struct case_t {
  const char* name;
  const char* text;
  std::vector<std::string> sets;
};

void check_lp(const case_t& c) {
  INFO(c.name);
  const lang::ir::model m = lang::compile({"test.ppl", c.text}, stdlib::library());
  data::data_table data;
  for (const auto& s : c.sets) data::apply_set(data, s);
  inference::run_options o;
  o.chains = 2;
  o.warmup = 30;
  o.draws = 1100;  // past a full recomputation (every 1000 iterations)
  o.seed = 5;
  const inference::run_result r = inference::run(m, data, o, nullptr);
  ppl::rng rng(1);
  model::graph g(m, data, rng);
  // Where each unknown's elements sit among the columns.
  std::vector<std::pair<double*, std::size_t>> slots;
  const auto& columns = r.draws.columns;
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != lang::ir::role::unknown) continue;
    auto& t = g.values()[v];
    for (ppl::index_t k = 0; k < t.size(); ++k) {
      const std::string name = draws::element_column(m.variables[v].name, t.shape, k);
      const auto at = std::find(columns.begin(), columns.end(), name);
      REQUIRE(at != columns.end());
      slots.emplace_back(t.data.data() + k, static_cast<std::size_t>(at - columns.begin()));
    }
  }
  REQUIRE(columns[0] == "lp__");
  double worst = 0;
  for (std::size_t chain = 0; chain < r.draws.chains.size(); ++chain) {
    for (ppl::index_t row = 0; row < r.draws.rows(chain); ++row) {
      const double* values = r.draws.chains[chain].data() + row * static_cast<ppl::index_t>(columns.size());
      for (auto [slot, column] : slots) *slot = values[column];
      g.update_derived();
      const double exact = g.log_density();
      // The draws hold 17 significant digits in memory; the sum of changes rounds.
      worst = std::max(worst, std::fabs(values[0] - exact) / (1 + std::fabs(exact)));
    }
  }
  CHECK(worst < 1e-9);
}

}  // namespace

TEST_CASE("lp__: kept up to date from the samplers' changes, it equals the joint recomputed at the draws") {
  const std::vector<case_t> cases = {
      {"gamma rate (Poisson), hierarchical",
       "data g: int[N]\ndata y: int[N]\nbeta ~ Gamma(1, 1)\nfor j in 1:3 { lambda[j] ~ Gamma(2, beta) }\n"
       "for n in 1:N { y[n] ~ Poisson(lambda[g[n]]) }\n",
       {"g=[1,1,2,2,3,3,3]", "y=[0,2,5,3,9,7,12]"}},
      {"gamma rate scaled by an exposure (pumps)",
       "data t: real[N]\ndata x: int[N]\nalpha ~ Exponential(1)\nbeta ~ Gamma(0.1, 1)\nfor i in 1:N { theta[i] ~ Gamma(alpha, beta) }\n"
       "for i in 1:N { x[i] ~ Poisson(theta[i] * t[i]) }\n",
       {"t=[94.3,15.7,62.9,126,5.24]", "x=[5,1,5,14,3]"}},
      {"gamma rate (Exponential)", "data y: real[N]\nr ~ Gamma(2, 1)\nfor n in 1:N { y[n] ~ Exponential(r) }\n", {"y=[0.5,1.2,0.1,3]"}},
      {"beta (Binomial, Bernoulli)",
       "data y: int[N]\ndata z: int[M]\np ~ Beta(2, 3)\nfor n in 1:N { y[n] ~ Binomial(5, p) }\nfor m in 1:M { z[m] ~ Bernoulli(p) }\n",
       {"y=[1,4,2]", "z=[1,0,0,1]"}},
      {"normal mean and gamma precision",
       "data y: real[N]\nmu ~ Normal(0, 10)\ntau ~ Gamma(1, 1)\nsigma = 1 / sqrt(tau)\nfor n in 1:N { y[n] ~ Normal(mu, sigma) }\n",
       {"y=[1.2,0.4,2.5,1.9,0.7]"}},
      {"inverse gamma variance", "data y: real[N]\nv ~ InverseGamma(2, 2)\nfor n in 1:N { y[n] ~ Normal(0.5, sqrt(v)) }\n",
       {"y=[1.2,0.4,2.5,-1.9,0.7]"}},
      {"normal mean through a linear predictor",
       "data x: real[N]\ndata y: real[N]\nb ~ Normal(0, 3)\nfor n in 1:N { y[n] ~ Normal(1 + b * x[n], 0.5) }\n",
       {"x=[-1,0,1,2]", "y=[-0.2,1.1,2.3,2.8]"}},
      {"dirichlet (Categorical)", "data y: int[N]\ntheta ~ Dirichlet([1, 2, 1])\nfor n in 1:N { y[n] ~ Categorical(theta) }\n",
       {"y=[1,3,3,2,1,3]"}},
      {"multinormal regression weights",
       "data X: real[N, 2]\ndata y: real[N]\nw ~ MultiNormal([0.0, 0.0], [[100.0, 0.0], [0.0, 100.0]])\n"
       "for n in 1:N { y[n] ~ Normal(dot(w, X[n]), 0.5) }\n",
       {"X=[[1,0],[1,1],[1,2],[1,-1]]", "y=[0.9,2.1,2.8,0.2]"}},
      {"gaussian_block: random effects with their mean (a form the data fix), tempered precisions",
       "data g: int[N]\ndata y: real[N]\nmu ~ Normal(0, 5)\ntau ~ Gamma(2, 1)\nfor j in 1:3 { b[j] ~ Normal(mu, 1 / sqrt(tau)) }\n"
       "for n in 1:N { y[n] ~ Normal(b[g[n]], 0.7) }\n",
       {"g=[1,1,2,2,3,3,3]", "y=[0.3,0.9,2.2,1.7,-0.4,0.1,-0.8]"}},
      {"gaussian_block: a regression whose term reads an unknown outside the block (read each sweep)",
       "data x: real[N]\ndata z: real[N]\ndata y: real[N]\na ~ Normal(0, 3)\nb ~ Normal(0, 3)\nc ~ DoubleExponential(0, 1)\n"
       "for n in 1:N { y[n] ~ Normal(a + b * x[n] + c * z[n], 0.5) }\n",
       {"x=[-1,0,1,2,3]", "z=[0.5,-0.2,0.1,0.9,-1]", "y=[-0.2,1.1,2.3,2.8,4.4]"}},
      // The scale move's change: its effects' children summed as a quadratic along the move
      // (Normal, affine through a derived mean), evaluated in full (Poisson; a cubic mean,
      // which the move's check must find), and scales that do not move in proportion.
      {"scale move: Normal children through a derived mean",
       "data g: int[N]\ndata x: real[N]\ndata y: real[N]\nmu ~ Normal(0, 5)\ntau ~ Gamma(2, 1)\nfor j in 1:3 { b[j] ~ Normal(mu, 1 / sqrt(tau)) }\n"
       "for n in 1:N { m[n] = b[g[n]] + 0.3 * x[n] }\nfor n in 1:N { y[n] ~ Normal(m[n], 0.7) }\n",
       {"g=[1,1,2,2,3,3,3]", "x=[0.5,-1,0.2,1.1,-0.3,0.8,0]", "y=[0.3,0.9,2.2,1.7,-0.4,0.1,-0.8]"}},
      {"scale move: Poisson children",
       "data y: int[N]\ntau ~ Gamma(2, 1)\nfor j in 1:N { b[j] ~ Normal(0.5, 1 / sqrt(tau)) }\nfor j in 1:N { y[j] ~ Poisson(exp(b[j])) }\n",
       {"y=[0,3,1,7,2]"}},
      {"scale move: Normal children with a mean cubic in the effects",
       "data y: real[N]\ntau ~ Gamma(2, 1)\nfor j in 1:N { b[j] ~ Normal(0, 1 / sqrt(tau)) }\nfor j in 1:N { y[j] ~ Normal(b[j] * b[j] * b[j], 0.5) }\n",
       {"y=[0.4,-1.2,2.5,0.1,-0.6]"}},
      {"scale move: effects' scales not in proportion",
       "data w: real[N]\ndata y: real[N]\ntau ~ Gamma(2, 1)\nfor j in 1:N { b[j] ~ Normal(0, sqrt(1 / tau + w[j])) }\n"
       "for j in 1:N { y[j] ~ Normal(b[j], 0.5) }\n",
       {"w=[0.1,0.5,1,2,0.2]", "y=[0.4,-1.2,2.5,0.1,-0.6]"}},
      {"gamma rate through a derived alias (pumps as BUGS writes it), NUTS beside it",
       "data t: real[N]\ndata x: int[N]\nalpha ~ Exponential(1)\nbeta ~ Gamma(0.1, 1)\nfor i in 1:N { theta[i] ~ Gamma(alpha, beta) }\n"
       "for i in 1:N { lambda[i] = theta[i] * t[i] }\nfor i in 1:N { x[i] ~ Poisson(lambda[i]) }\n",
       {"t=[94.3,15.7,62.9,126,5.24]", "x=[5,1,5,14,3]"}},
      {"wishart precision and inverse wishart covariance (their priors' kernels)",
       "data y: real[N, 2]\ndata z: real[N, 2]\nW ~ Wishart(4, [[1.0, 0.3], [0.3, 2.0]])\nC ~ InverseWishart(5, [[1.0, -0.2], [-0.2, 0.5]])\n"
       "for n in 1:N { y[n] ~ MultiNormalPrec([0.0, 0.0], W) }\nfor n in 1:N { z[n] ~ MultiNormal([0.5, 0.0], C) }\n",
       {"y=[[0.3,-1.2],[1.1,0.4],[-0.6,0.9]]", "z=[[0.1,0.2],[0.9,-0.4],[0.2,0.0]]"}},
      {"birats' block: MultiNormalPrec effects with one precision for all (read once), Wishart on it",
       "data x: real[T]\ndata Y: real[N, T]\nmu ~ MultiNormal([0.0, 0.0], [[100.0, 0.0], [0.0, 100.0]])\n"
       "R ~ Wishart(2, [[1.0, 0.0], [0.0, 0.1]])\ntau ~ Gamma(1, 1)\nfor i in 1:N { beta[i] ~ MultiNormalPrec(mu, R) }\n"
       "for i in 1:N { for j in 1:T { Y[i, j] ~ Normal(beta[i, 1] + beta[i, 2] * x[j], 1 / sqrt(tau)) } }\n",
       {"x=[-1,0,1]", "Y=[[0.2,1.1,2.3],[1.0,1.4,2.2],[-0.5,0.3,0.9],[0.1,0.9,2.4]]"}},
      {"nuts", ppl::testing::logistic, ppl::testing::logistic_data},
      {"nuts and conjugate",
       "data x: real[N]\ndata y: int[N]\na ~ Normal(0, 2)\nb ~ Normal(0, 2)\nfor n in 1:N { y[n] ~ Bernoulli(inv_logit(a + b * x[n])) }\n"
       "p ~ Beta(1, 1)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n",
       ppl::testing::logistic_data},
      {"gibbs and conjugate",
       "data y: real[N]\nmu ~ Normal(0, 5)\nfor n in 1:N {\n  z[n] ~ Bernoulli(0.5)\n  y[n] ~ Normal(mu * z[n], 1)\n}\n",
       {"y=[0.1,3.2,2.9,-0.4,3.5,0.2]"}},
      {"gibbs over a category", "data y: real[N]\nfor n in 1:N { z[n] ~ Categorical([0.2, 0.3, 0.5]) }\nfor n in 1:N { y[n] ~ Normal(z[n], 1) }\n",
       {"y=[1.2,2.9,0.4,2.2]"}},
      {"slice on a count (its continuous extension) and on a positive scalar",
       "data y: int[N]\ndata c: int[N]\nn ~ Poisson(20)\nfor i in 1:N { y[i] ~ Binomial(n, 0.4) }\ns ~ LogNormal(0, 1)\n"
       "for i in 1:N { c[i] ~ Poisson(s * 3) }\n",
       {"y=[5,9,7]", "c=[2,4,3]"}},
  };
  for (const auto& c : cases) check_lp(c);
}

}  // namespace test_lp
