// The tempered log density (model/graph_tempering.cpp): the prior's terms whole, the
// likelihood's (observations of data, factors) times beta, through every path a density
// takes — the whole joint, one statement, one instance, a blanket, the gradient.
#include <doctest/doctest.h>

#include <cmath>

#include "model/blanket.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_tempering {

using namespace ppl;

namespace {

// A prior term (mu), a plate of observations (y), and a factor.
const char* const model = R"(
data y: real[N]
mu ~ Normal(0, 2)
for n in 1:N { y[n] ~ Normal(mu, 1) }
factor -0.5 * mu * mu
)";

double log_normal(double x, double m, double s) { return -0.5 * std::log(2 * M_PI * s * s) - (x - m) * (x - m) / (2 * s * s); }

}  // namespace

TEST_CASE("the likelihood's terms are multiplied by the temperature, the prior's are not") {
  testing::fixture f(model, {"y=[0.5, 1.5, -0.2]"});
  auto& g = *f.graph;
  f.mutable_value("mu").data[0] = 0.7;
  g.update_derived();
  const double prior = log_normal(0.7, 0, 2);
  const double likelihood = log_normal(0.5, 0.7, 1) + log_normal(1.5, 0.7, 1) + log_normal(-0.2, 0.7, 1) - 0.5 * 0.49;
  CHECK(g.log_likelihood() == doctest::Approx(likelihood).epsilon(1e-12));
  CHECK(g.log_density() == doctest::Approx(prior + likelihood).epsilon(1e-12));
  for (double beta : {0.0, 0.25, 1.0}) {
    INFO("beta = ", beta);
    g.set_temperature(beta);
    CHECK(g.temperature() == beta);
    CHECK(g.log_density() == doctest::Approx(prior + beta * likelihood).epsilon(1e-12));
    CHECK(g.log_likelihood() == doctest::Approx(likelihood).epsilon(1e-12));  // untempered
    CHECK(model::instances(g).blanket_log_density(f.model->find("mu"), 0) == doctest::Approx(prior + beta * likelihood).epsilon(1e-12));
    model::blanket b(g, f.model->find("mu"));
    CHECK(b.log_density(0) == doctest::Approx(prior + beta * likelihood).epsilon(1e-12));
  }
  const auto& obs = f.model->statements[1];
  CHECK(g.likelihood(1));
  CHECK_FALSE(g.likelihood(0));
  g.set_temperature(0.5);
  const ppl::index_t loops[] = {2};
  CHECK(model::instances(g).log_density(obs, loops) == doctest::Approx(0.5 * log_normal(1.5, 0.7, 1)).epsilon(1e-12));
  CHECK(model::instances(g).terms(obs) == doctest::Approx(likelihood + 0.5 * 0.49).epsilon(1e-12));
}

TEST_CASE("the tempered gradient is the prior's plus beta times the likelihood's") {
  testing::fixture f(model, {"y=[0.5, 1.5, -0.2]"});
  auto& g = *f.graph;
  const int mu = f.model->find("mu");
  f.mutable_value("mu").data[0] = 0.7;
  g.update_derived();
  std::vector<char> wrt(f.model->variables.size(), 0);
  wrt[static_cast<std::size_t>(mu)] = 1;
  std::vector<std::vector<double>> gradient;
  const double prior = log_normal(0.7, 0, 2), prior_slope = -0.7 / 4;
  const double likelihood = log_normal(0.5, 0.7, 1) + log_normal(1.5, 0.7, 1) + log_normal(-0.2, 0.7, 1) - 0.5 * 0.49;
  const double likelihood_slope = (0.5 - 0.7) + (1.5 - 0.7) + (-0.2 - 0.7) - 0.7;
  for (double beta : {0.0, 0.3, 1.0}) {
    INFO("beta = ", beta);
    g.set_temperature(beta);
    CHECK(g.log_density_gradient(wrt, gradient) == doctest::Approx(prior + beta * likelihood).epsilon(1e-12));
    CHECK(gradient[static_cast<std::size_t>(mu)][0] == doctest::Approx(prior_slope + beta * likelihood_slope).epsilon(1e-12));
  }
}

TEST_CASE("at temperature 0 the likelihood is left out even where it is -inf") {
  testing::fixture f("data y: int[N]\np ~ Uniform(0, 1)\nfor n in 1:N { y[n] ~ Binomial(3, p) }\n", {"y=[1, 2]"});
  auto& g = *f.graph;
  f.mutable_value("p").data[0] = 1;  // y < 3 is impossible at p = 1
  CHECK(g.log_likelihood() == -INFINITY);
  CHECK(g.log_density() == -INFINITY);
  g.set_temperature(0);
  CHECK(g.log_density() == 0);  // Uniform(0, 1): the prior alone
  g.set_temperature(0.1);
  CHECK(g.log_density() == -INFINITY);
  f.mutable_value("p").data[0] = 0.3;
  std::vector<char> wrt(f.model->variables.size(), 0);
  wrt[static_cast<std::size_t>(f.model->find("p"))] = 1;
  std::vector<std::vector<double>> gradient;
  f.mutable_value("p").data[0] = 1;
  g.set_temperature(0);
  CHECK(g.log_density_gradient(wrt, gradient) == 0);
  g.set_temperature(0.5);
  CHECK(g.log_density_gradient(wrt, gradient) == -INFINITY);
  f.mutable_value("p").data[0] = 0.3;
  g.set_temperature(1);
  CHECK(std::isfinite(g.log_density_gradient(wrt, gradient)));
  CHECK_THROWS_AS(g.set_temperature(1.5), std::invalid_argument);
}

}  // namespace test_tempering
