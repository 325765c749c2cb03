// unconstrained_target: what a gradient-based sampler may take as unchanged between its
// steps (the values its block's terms read), and what set() leaves consistent.
#include <doctest/doctest.h>

#include <cmath>

#include "lang/checker.hpp"
#include "data/data.hpp"
#include "model/graph.hpp"
#include "samplers/unconstrained.hpp"
#include "stdlib/registry.hpp"

namespace test_unconstrained {

using namespace ppl;

namespace {

struct fixture {
  lang::ir::model m;
  data::data_table data;
  ppl::rng rng{3};
  std::unique_ptr<model::graph> g;

  fixture(const char* text, const std::vector<std::string>& sets) : m(lang::compile({"test.ppl", text}, stdlib::library())) {
    for (const auto& s : sets) data::apply_set(data, s);
    g = std::make_unique<model::graph>(m, data, rng);
  }
  int variable(const std::string& name) const {
    for (std::size_t v = 0; v < m.variables.size(); ++v)
      if (m.variables[v].name == name) return static_cast<int>(v);
    FAIL("no variable " << name);
    return -1;
  }
  double& value(const std::string& name, std::size_t k = 0) { return g->values()[static_cast<std::size_t>(variable(name))].data[k]; }
};

const char* const eight = R"(
data y: real[J]
data sigma: real[J]
mu ~ Normal(0, 5)
tau ~ HalfCauchy(5)
for j in 1:J { eta[j] ~ Normal(0, 1) }
for j in 1:J { theta[j] = mu + tau * eta[j] }
for j in 1:J { y[j] ~ Normal(theta[j], sigma[j]) }
loud = 2 * mu
)";
const std::vector<std::string> eight_data = {"y=[28, 8, -3, 7, -1, 1, 18, 12]", "sigma=[15, 10, 16, 11, 9, 11, 10, 18]"};

// The target's gradient at y against central differences of its log density, coordinate
// by coordinate, within `epsilon` relative.
void check_gradient(samplers::unconstrained_target& target, const Eigen::VectorXd& y, double epsilon) {
  Eigen::VectorXd at;
  target.log_density(y, at);
  for (long i = 0; i < y.size(); ++i) {
    Eigen::VectorXd up = y, down = y, ignored;
    up[i] += 1e-6, down[i] -= 1e-6;
    const double numeric = (target.log_density(up, ignored) - target.log_density(down, ignored)) / 2e-6;
    INFO(target.coordinate_label(i));
    CHECK(at[i] == doctest::Approx(numeric).epsilon(epsilon));
  }
}

}  // namespace

TEST_CASE("unconstrained_target: the inputs of a block are its own values and the unknowns its terms read") {
  fixture f(eight, eight_data);
  samplers::unconstrained_target target(*f.g, {f.variable("tau"), f.variable("eta")});
  target.remember_inputs();
  CHECK(target.inputs_unchanged());
  SUBCASE("mu reaches the block's terms through theta") {
    const double before = f.value("mu");
    f.value("mu") = before + 1;
    CHECK_FALSE(target.inputs_unchanged());
    f.value("mu") = before;
    CHECK(target.inputs_unchanged());
  }
  SUBCASE("the block's own values") {
    f.value("eta", 3) += 0.5;
    CHECK_FALSE(target.inputs_unchanged());
  }
  SUBCASE("a derived variable is recomputed from the unknowns, so it is no input") {
    f.value("loud") = 1e9;
    f.value("theta", 2) = -1e9;
    CHECK(target.inputs_unchanged());
  }
  SUBCASE("a NaN is never the same") {
    f.value("tau") = NAN;
    target.remember_inputs();
    CHECK_FALSE(target.inputs_unchanged());
  }
}

TEST_CASE("unconstrained_target: an unknown the block's terms never read is no input") {
  fixture f(R"(
a ~ Normal(0, 1)
b ~ Normal(0, 1)
s ~ Gamma(2, 2)
m = a * s
y ~ Normal(m, 1)
)",
            {"y=0.5"});
  samplers::unconstrained_target target(*f.g, {f.variable("a")});
  target.remember_inputs();
  f.value("b") += 1;
  CHECK(target.inputs_unchanged());
  f.value("s") += 1;  // read by m, which y's term reads
  CHECK_FALSE(target.inputs_unchanged());
}

TEST_CASE("unconstrained_target: set brings the derived variables a density reads up to date") {
  fixture f(eight, eight_data);
  samplers::unconstrained_target target(*f.g, {f.variable("mu"), f.variable("tau"), f.variable("eta")});
  Eigen::VectorXd y = target.position();
  y[0] = 2;                // mu
  y[1] = std::log(3.0);    // tau, on the log scale
  y[2] = 0.5;              // eta[1]
  target.set(y);
  CHECK(f.value("mu") == 2);
  CHECK(f.value("tau") == doctest::Approx(3));
  CHECK(f.value("theta") == doctest::Approx(2 + 3 * 0.5));
  // position() reads the values back; into a vector's own storage too.
  Eigen::VectorXd again(3);
  target.position(again);
  CHECK(again.size() == target.dimension());
  CHECK(again[0] == 2);
  CHECK(again[1] == doctest::Approx(std::log(3.0)));
}

TEST_CASE("unconstrained_target: the gradient through ordered and covariance blocks matches finite differences") {
  fixture f(R"(
data x: real[N]
data y: int[N]
data Y: real[M, 2]
param c: ordered[2]
c ~ Normal(0, 5)
param d: positive_ordered[3]
d ~ Exponential(0.5)
beta ~ Normal(0, 5)
for n in 1:N { y[n] ~ OrderedLogistic(beta * x[n], c) }
Omega ~ Wishart(4, [[1.0, 0.3], [0.3, 0.5]])
for m in 1:M { Y[m] ~ MultiNormalPrec([0.0, 0.0], Omega) }
factor -dot(d, d) * sum(c)
)",
            {"x=[-1, 0, 1, 2]", "y=[1, 2, 2, 3]", "Y=[[0.5, -0.2], [1.1, 0.7], [-0.4, 0.1]]"});
  samplers::unconstrained_target target(*f.g, {f.variable("c"), f.variable("d"), f.variable("beta"), f.variable("Omega")});
  REQUIRE(target.dimension() == 2 + 3 + 1 + 3);
  Eigen::VectorXd y = target.position();
  for (long i = 0; i < y.size(); ++i) y[i] += 0.1 * static_cast<double>(i % 3) - 0.1;
  check_gradient(target, y, 1e-5);
  CHECK(target.coordinate_label(8) == "Omega[2, 2]");
  CHECK(target.coordinate_label(7) == "Omega[2, 1]");
}

TEST_CASE("unconstrained_target: bounds that follow the block's unknowns move with them, and so does the gradient") {
  // Stan's real<lower=0, upper=1 - a> and real<lower=a>: the transform is made from the
  // bounds at the values written, and the gradient passes through them to a.
  fixture f(R"(
param a: real<lower=0, upper=1>
param b: real<lower=0, upper=1 - a>
param c: real<lower=a>
param d: real<upper=2 * a>
factor -square(b - 0.2) - (c - a) + 0.5 * (d - 2 * a) + 3 * a * b
)",
            {});
  CHECK(model::supports(*f.g).follows_bounds(f.variable("b")));
  CHECK(model::supports(*f.g).follows_bounds(f.variable("c")));
  CHECK_FALSE(model::supports(*f.g).follows_bounds(f.variable("a")));
  samplers::unconstrained_target target(*f.g, {f.variable("a"), f.variable("b"), f.variable("c"), f.variable("d")});
  Eigen::VectorXd y(4), gradient;
  y << 0.3, -0.4, 0.2, -0.7;
  target.log_density(y, gradient);
  // b stays inside (0, 1 - a) whatever a is.
  CHECK(f.value("b") < 1 - f.value("a"));
  CHECK(f.value("c") > f.value("a"));
  check_gradient(target, y, 1e-6);
  // position() inverts the write at the current bounds.
  target.set(y);
  const Eigen::VectorXd back = target.position();
  for (long i = 0; i < y.size(); ++i) CHECK(back[i] == doctest::Approx(y[i]).epsilon(1e-10));
}

}  // namespace test_unconstrained
