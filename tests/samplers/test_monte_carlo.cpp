// The weighted methods (inference/monte_carlo.hpp) on conjugate models whose evidence
// p(data) has a closed form, and on discrete models whose evidence is a sum over every
// value of the unknowns: each method's log evidence within 3 of its own standard errors
// of the exact value (a fixed seed: a wrong estimator fails, a right one passes with
// probability 0.997), the standard error small enough for that to say something, posterior
// means within the runs' Monte Carlo error, and rejection's draws through a
// Kolmogorov-Smirnov test against the exact posterior.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>

#include "lang/checker.hpp"
#include "core/interrupt.hpp"
#include "inference/monte_carlo.hpp"
#include "stdlib/registry.hpp"
#include "tests/support/short_run.hpp"

namespace test_monte_carlo {

using namespace ppl;

namespace {

struct model_case {
  const char* name;
  const char* text;
  std::vector<std::string> sets;
  double log_z;  // exact
};

double lbeta(double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); }
double log_normal(double y, double mu, double s) { return -0.5 * std::log(2 * M_PI * s * s) - (y - mu) * (y - mu) / (2 * s * s); }

// Beta(2, 3) prior, 3 successes in 4 trials.
model_case beta_bernoulli() {
  return {"Beta-Bernoulli", "data y: int[N]\np ~ Beta(2, 3)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n", {"y=[1,0,1,1]"},
          lbeta(2 + 3, 3 + 1) - lbeta(2, 3)};
}

const std::vector<double> normal_y = {0.3, 2.1, 1.4, -0.2, 1.9, 0.8};

std::vector<double> exp_of(const std::vector<double>& x) {
  std::vector<double> out;
  for (double v : x) out.push_back(std::exp(v));
  return out;
}
constexpr double normal_sigma = 1.5, normal_m0 = 1, normal_s0 = 2;

// y ~ N(m0 1, sigma^2 I + s0^2 1 1'): the marginal of mu ~ N(m0, s0), y[n] ~ N(mu, sigma).
double normal_normal_log_z(const std::vector<double>& ys) {
  const double n = static_cast<double>(ys.size());
  const double mean = std::accumulate(ys.begin(), ys.end(), 0.0) / n;
  double ss = 0;
  for (double y : ys) ss += (y - mean) * (y - mean);
  const double s2 = normal_sigma * normal_sigma, t2 = normal_s0 * normal_s0;
  return -n / 2 * std::log(2 * M_PI * s2) - 0.5 * std::log(1 + n * t2 / s2) - ss / (2 * s2) -
         n * (mean - normal_m0) * (mean - normal_m0) / (2 * (s2 + n * t2));
}

model_case normal_normal() {
  return {"Normal-Normal", "data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ Normal(mu, 1.5) }\n", {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"},
          normal_normal_log_z(normal_y)};
}

// The same with y = exp(normal_y) observed as LogNormal(mu, 1.5): the evidence is the
// Normal-Normal one of log y times the Jacobian prod 1 / y.
model_case log_normal_normal() {
  double jacobian = 0;
  for (double y : normal_y) jacobian -= y;
  return {"LogNormal-Normal", "data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ LogNormal(mu, 1.5) }\n",
          {"y=[" + fmt::format("{}", fmt::join(exp_of(normal_y), ",")) + "]"}, normal_normal_log_z(normal_y) + jacobian};
}

// The largest log-likelihood of normal_normal: at mu = mean(y).
double normal_bound() {
  const double mean = std::accumulate(normal_y.begin(), normal_y.end(), 0.0) / static_cast<double>(normal_y.size());
  double out = 0;
  for (double y : normal_y) out += log_normal(y, mean, normal_sigma);
  return out;
}

// Gamma(3, 0.5) prior on a Poisson rate, counts 4, 7, 3, 6, 5.
model_case gamma_poisson() {
  const std::vector<double> y = {4, 7, 3, 6, 5};
  const double a = 3, b = 0.5, n = 5, s = 25;
  double log_z = a * std::log(b) - std::lgamma(a) + std::lgamma(a + s) - (a + s) * std::log(b + n);
  for (double v : y) log_z -= std::lgamma(v + 1);
  return {"Gamma-Poisson", "data y: int[N]\nlam ~ Gamma(3, 0.5)\nfor n in 1:N { y[n] ~ Poisson(lam) }\n", {"y=[4,7,3,6,5]"}, log_z};
}

// Dirichlet(1, 2, 1.5) prior, categories 1, 2, 2, 3.
model_case dirichlet_categorical() {
  const std::vector<double> alpha = {1, 2, 1.5}, counts = {1, 2, 1};
  double log_z = std::lgamma(4.5) - std::lgamma(4.5 + 4);
  for (std::size_t k = 0; k < 3; ++k) log_z += std::lgamma(alpha[k] + counts[k]) - std::lgamma(alpha[k]);
  return {"Dirichlet-Categorical", "data y: int[N]\ntheta ~ Dirichlet([1, 2, 1.5])\nfor n in 1:N { y[n] ~ Categorical(theta) }\n",
          {"y=[1,2,2,3]"}, log_z};
}

const std::vector<double> mixture_y = {2.3, -0.7, -1.4, 1.8, -0.9, 0.4};

// Each observation from N(2, 1) with probability 0.3, else N(-1, 1): the evidence is the
// product over observations of the sum over the two components.
model_case mixture() {
  double log_z = 0;
  for (double y : mixture_y) log_z += std::log(0.3 * std::exp(log_normal(y, 2, 1)) + 0.7 * std::exp(log_normal(y, -1, 1)));
  return {"two-component mixture",
          "data y: real[N]\nfor n in 1:N {\n  z[n] ~ Bernoulli(0.3)\n  y[n] ~ Normal(3 * z[n] - 1, 1)\n}\n",
          {"y=[2.3,-0.7,-1.4,1.8,-0.9,0.4]"}, log_z};
}

// The mark network of examples/mark with its tables, mark 4 observed: the evidence is the
// sum over the 3 x 3 x 2 values of study, knowledge and motivation.
model_case mark() {
  const double p_stu[3] = {0.3, 0.5, 0.2};
  const double kw[3][3] = {{0.6, 0.3, 0.1}, {0.2, 0.6, 0.2}, {0.1, 0.3, 0.6}};
  const double mark4[3][2] = {{0.05, 0.1}, {0.1, 0.2}, {0.3, 0.5}};  // P(mark 4 | knowledge, motivation)
  double z = 0;
  for (int s = 0; s < 3; ++s)
    for (int k = 0; k < 3; ++k)
      for (int m = 0; m < 2; ++m) z += p_stu[s] * kw[s][k] * (m ? 0.6 : 0.4) * mark4[k][m];
  return {"mark network",
          "data kw: real[3, 3]\ndata mg: real[3, 2]\ndata seen: int\nstu ~ Categorical([0.3, 0.5, 0.2])\npkw ~ Categorical(kw[stu])\n"
          "mot ~ Bernoulli(0.6)\nseen ~ Bernoulli(mg[pkw, mot + 1])\n",
          {"seen=1", "kw=[[0.6,0.3,0.1],[0.2,0.6,0.2],[0.1,0.3,0.6]]", "mg=[[0.05,0.1],[0.1,0.2],[0.3,0.5]]"}, std::log(z)};
}

// The same observations from N(-1, 1) or N(2, 1) with unknown weights theta ~
// Dirichlet(1, 1), which MCMC's plan integrates out (collapsed Gibbs of z): the evidence
// is the sum over the 2^6 assignments z of p(z) = c1! c2! / 7! times the observations'
// densities, and E[theta1 | y] the sum of p(z | y) (c1 + 1) / 8.
model_case collapsed_mixture(double* theta1_mean = nullptr) {
  const std::size_t n = mixture_y.size();
  std::vector<double> terms, means;
  for (unsigned z = 0; z < (1u << n); ++z) {
    double t = 0, c1 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const bool second = (z >> i) & 1u;
      c1 += second ? 0 : 1;
      t += log_normal(mixture_y[i], second ? 2 : -1, 1);
    }
    t += std::lgamma(c1 + 1) + std::lgamma(static_cast<double>(n) - c1 + 1) - std::lgamma(static_cast<double>(n) + 2);
    terms.push_back(t);
    means.push_back((c1 + 1) / (static_cast<double>(n) + 2));
  }
  const double top = *std::max_element(terms.begin(), terms.end());
  double sum = 0, weighted = 0;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    sum += std::exp(terms[k] - top);
    weighted += std::exp(terms[k] - top) * means[k];
  }
  if (theta1_mean) *theta1_mean = weighted / sum;
  return {"mixture with collapsed weights",
          "data y: real[N]\ntheta ~ Dirichlet([1, 1])\nfor n in 1:N {\n  z[n] ~ Categorical(theta)\n  y[n] ~ Normal(3 * z[n] - 4, 1)\n}\n",
          {"y=[2.3,-0.7,-1.4,1.8,-0.9,0.4]"}, top + std::log(sum)};
}

const std::vector<double> regression_x = {1.0, 2.0, 3.0, 4.0, 5.0}, regression_y = {2.9, 5.2, 6.8, 9.1, 11.2};

// y ~ N(a + b x, 0.5) with a, b ~ N(0, 10), on x far from centred (MCMC's plan draws a and
// b together, gaussian_block): y is N(0, 0.25 I + 100 (1 1' + x x')).
model_case regression() {
  const auto n = static_cast<Eigen::Index>(regression_x.size());
  Eigen::MatrixXd cov = 0.25 * Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    y[i] = regression_y[static_cast<std::size_t>(i)];
    for (Eigen::Index j = 0; j < n; ++j) cov(i, j) += 100 * (1 + regression_x[static_cast<std::size_t>(i)] * regression_x[static_cast<std::size_t>(j)]);
  }
  const Eigen::LLT<Eigen::MatrixXd> llt(cov);
  const Eigen::VectorXd w = llt.matrixL().solve(y);
  double log_det = 0;
  for (Eigen::Index i = 0; i < n; ++i) log_det += 2 * std::log(llt.matrixL()(i, i));
  return {"regression",
          "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\nfor n in 1:N { y[n] ~ Normal(a + b * x[n], 0.5) }\n",
          {"x=[1.0,2.0,3.0,4.0,5.0]", "y=[2.9,5.2,6.8,9.1,11.2]"},
          -0.5 * (static_cast<double>(n) * std::log(2 * M_PI) + log_det + w.squaredNorm())};
}

const std::vector<double> logistic_x = {-1.5, -0.5, 0.2, 1.0, 2.0}, logistic_y = {-2.1, 0.4, 0.3, 1.9, 2.6};

// A regression with Logistic errors and Normal priors on its two coefficients, which no
// conjugate pair takes (MCMC's plan gives a and b to nuts): the evidence by quadrature on a
// 600 x 600 grid over +-6 prior sds, whose error is far below the tests' tolerance.
model_case logistic_regression() {
  const int cells = 600;
  const double h = 12.0 / cells;
  std::vector<double> terms;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j) {
      const double a = -6 + (i + 0.5) * h, b = -6 + (j + 0.5) * h;
      double t = log_normal(a, 0, 1) + log_normal(b, 0, 1) + 2 * std::log(h);
      for (std::size_t n = 0; n < logistic_x.size(); ++n) {
        const double z = logistic_y[n] - a - b * logistic_x[n];
        t += -z - 2 * std::log1p(std::exp(-z));
      }
      terms.push_back(t);
    }
  const double top = *std::max_element(terms.begin(), terms.end());
  double sum = 0;
  for (double t : terms) sum += std::exp(t - top);
  return {"Logistic regression",
          "data x: real[N]\ndata y: real[N]\na ~ Normal(0, 1)\nb ~ Normal(0, 1)\nfor n in 1:N { y[n] ~ Logistic(a + b * x[n], 1) }\n",
          {"x=[-1.5,-0.5,0.2,1.0,2.0]", "y=[-2.1,0.4,0.3,1.9,2.6]"}, top + std::log(sum)};
}

struct compiled {
  lang::ir::model model;
  data::data_table data;
};

compiled compile(const model_case& c) {
  compiled out{lang::compile({"test.ppl", c.text}, stdlib::library()), {}};
  for (const auto& s : c.sets) data::apply_set(out.data, s);
  return out;
}

inference::monte_carlo_options options(long particles) {
  inference::monte_carlo_options o;
  o.particles = testing::shortened(particles, 4);
  o.threads = 2;
  o.seed = 11;
  return o;
}

void check_evidence(const char* method, const model_case& c, const inference::weighted_result& r) {
  INFO(method, ": ", c.name, ": log evidence ", r.evidence.log_z, " (se ", r.evidence.se, "), exact ", c.log_z);
  REQUIRE(std::isfinite(r.evidence.se));
  CHECK(r.evidence.se < 0.15);
  CHECK(std::abs(r.evidence.log_z - c.log_z) < 3 * r.evidence.se);
}

std::size_t column(const inference::weighted_result& r, const std::string& name) {
  const auto it = std::find(r.columns.begin(), r.columns.end(), name);
  REQUIRE(it != r.columns.end());
  return static_cast<std::size_t>(it - r.columns.begin());
}

// The largest distance between the draws' empirical distribution function and `cdf`.
template <class F>
double ks_distance(std::vector<double> x, F cdf) {
  std::sort(x.begin(), x.end());
  const auto n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

std::vector<double> values(const inference::weighted_result& r, const std::string& name) {
  const std::size_t k = column(r, name), width = r.columns.size();
  std::vector<double> out;
  for (std::size_t i = 0; i < r.row_count; ++i) out.push_back(r.rows[i * width + k]);
  return out;
}

}  // namespace

TEST_CASE("importance sampling's evidence matches the exact evidence of conjugate and discrete models") {
  for (const model_case& c : {beta_bernoulli(), normal_normal(), gamma_poisson(), dirichlet_categorical(), mixture(), mark()}) {
    const compiled m = compile(c);
    const auto r = inference::importance_sample(m.model, m.data, options(20000));
    check_evidence("importance", c, r);
    CHECK_FALSE(r.pareto_k > 0.7);  // NaN: weights taking few values have no tail to fit
    CHECK(r.ess > 100);
  }
}

TEST_CASE("importance sampling from a proposal model: weights p(unknowns, data) / q(unknowns)") {
  const model_case c = normal_normal();
  const compiled m = compile(c);
  // The posterior is N(1.03, 0.58); the proposal is near it and wider.
  const compiled q = compile({"proposal", "mu ~ Normal(1, 1)\n", {}, 0});
  auto o = options(4000);
  const auto prior = inference::importance_sample(m.model, m.data, o);
  o.proposal = &q.model;
  o.proposal_data = &q.data;
  const auto r = inference::importance_sample(m.model, m.data, o);
  check_evidence("importance with a proposal", c, r);
  CHECK(r.ess > 1.5 * prior.ess);
  CHECK(r.evidence.se < prior.evidence.se);
  // --monitor names the model's variables; a derived one the proposal lacks is still recorded.
  const compiled derived = compile({"Normal-Normal with a derived quantity", "data y: real[N]\nmu ~ Normal(1, 2)\ntwice = 2 * mu\n"
                                    "for n in 1:N { y[n] ~ Normal(mu, 1.5) }\n", {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
  o.monitors = {"twice"};
  const auto monitored = inference::importance_sample(derived.model, derived.data, o);
  CHECK(monitored.evidence.log_z == r.evidence.log_z);
  column(monitored, "twice");
  o.monitors.clear();
  // The proposal must draw exactly the model's unknowns, and observe nothing.
  for (const char* text : {"nu ~ Normal(1, 1)\n", "mu ~ Normal(1, 1)\nz ~ Normal(0, 1)\n", "mu[1] ~ Normal(1, 1)\n",
                           "data y: real[N]\nmu ~ Normal(1, 1)\ny[1] ~ Normal(mu, 1)\n"}) {
    const compiled bad = compile({"proposal", text, {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
    o.proposal = &bad.model;
    o.proposal_data = &bad.data;
    CHECK_THROWS_AS(inference::importance_sample(m.model, m.data, o), std::invalid_argument);
  }
}

TEST_CASE("tempered SMC's evidence matches the exact evidence of conjugate and discrete models") {
  for (const model_case& c : {beta_bernoulli(), normal_normal(), gamma_poisson(), dirichlet_categorical(), mixture(), mark()}) {
    const compiled m = compile(c);
    auto o = options(400);
    o.runs = 8;
    const auto r = inference::smc_sample(m.model, m.data, o);
    check_evidence("smc", c, r);
    REQUIRE(r.temperatures.size() == 8);
    CHECK(r.temperatures[0].back() == 1.0);
  }
}

TEST_CASE("SMC moves by MCMC's conjugate, gaussian_block and collapsed updates, tempered") {
  struct expected {
    model_case c;
    std::vector<std::string> kinds;
  };
  double theta1 = 0;
  for (const auto& [c, kinds] : {expected{beta_bernoulli(), {"conjugate"}}, expected{normal_normal(), {"conjugate"}},
                                 expected{gamma_poisson(), {"conjugate"}}, expected{dirichlet_categorical(), {"conjugate"}},
                                 expected{regression(), {"gaussian_block"}}, expected{collapsed_mixture(&theta1), {"collapsed"}}}) {
    const compiled m = compile(c);
    auto o = options(400);
    o.runs = 8;
    const auto r = inference::smc_sample(m.model, m.data, o);
    std::vector<std::string> got;
    for (const auto& line : r.moves)
      if (std::find(got.begin(), got.end(), line.kind) == got.end()) got.push_back(line.kind);
    INFO(c.name);
    CHECK(got == kinds);
    check_evidence("smc", c, r);
  }
  // The collapsed sweep draws theta given z into each particle: its mean is the posterior's.
  const compiled m = compile(collapsed_mixture());
  auto o = options(400);
  o.runs = 8;
  const auto r = inference::smc_sample(m.model, m.data, o);
  const std::vector<double> theta = values(r, "theta[1]");
  const auto per_run = theta.size() / 8;
  std::vector<double> means;
  for (std::size_t k = 0; k < 8; ++k)
    means.push_back(std::accumulate(theta.begin() + static_cast<std::ptrdiff_t>(k * per_run), theta.begin() + static_cast<std::ptrdiff_t>((k + 1) * per_run), 0.0) /
                    static_cast<double>(per_run));
  const double mean = std::accumulate(means.begin(), means.end(), 0.0) / 8;
  double ss = 0;
  for (double x : means) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / 7 / 8);
  INFO("theta[1]: ", mean, " (se ", se, "), exact ", theta1);
  CHECK(std::abs(mean - theta1) < 5 * se);  // Student's t with 7 degrees of freedom: beyond 5 with probability 0.2%
  CHECK(se < 0.02);
}

TEST_CASE("SMC moves by MCMC's nuts where its plan gives it, with the tempered gradient") {
  const model_case c = logistic_regression();
  const compiled m = compile(c);
  auto o = options(400);
  o.runs = 8;
  const auto r = inference::smc_sample(m.model, m.data, o);
  REQUIRE(r.moves.size() == 2);
  for (const auto& line : r.moves) CHECK(line.kind == "nuts");
  check_evidence("smc", c, r);
}

TEST_CASE("rejection's evidence matches the exact evidence, with the bound found or given") {
  // The bounds found (every model of the evidence tests but Normal-Normal and the logistic
  // regression, which follow): Categorical observations are probabilities, at most 1; the mark
  // network's one Bernoulli observation is 1 at probability 1; observations sharing their
  // argument peak jointly at its maximum-likelihood value (3 successes in 4 at p = 3/4,
  // counts at their mean 5), far tighter than 0 (the Poisson's acceptance rate 1 in 10^5).
  double poisson = 0;
  for (double y : {4.0, 7.0, 3.0, 6.0, 5.0}) poisson += y * std::log(5.0) - 5 - std::lgamma(y + 1);
  const std::pair<model_case, double> cases[] = {{beta_bernoulli(), 3 * std::log(0.75) + std::log(0.25)},
                                                 {dirichlet_categorical(), 0},
                                                 {mark(), 0},
                                                 {gamma_poisson(), poisson},
                                                 // each observation at most N(y | y, 1), its mean 3 z[n] - 1 its own
                                                 {mixture(), -3 * std::log(2 * M_PI)}};
  for (const auto& [c, bound] : cases) {
    const compiled m = compile(c);
    const auto r = inference::rejection_sample(m.model, m.data, options(2000));
    INFO(c.name);
    CHECK(r.bound == doctest::Approx(bound).epsilon(1e-12));
    check_evidence("rejection", c, r);
  }
  {
    // Found: the Normal observations share mu, and peak jointly at mu = mean(y); given: a
    // looser bound, each observation at its own peak.
    const model_case c = normal_normal();
    const compiled m = compile(c);
    const auto found = inference::rejection_sample(m.model, m.data, options(2000));
    CHECK(found.bound == doctest::Approx(normal_bound()).epsilon(1e-12));
    check_evidence("rejection", c, found);
    auto o = options(2000);
    o.bound = -6 * std::log(normal_sigma * std::sqrt(2 * M_PI));
    const auto given = inference::rejection_sample(m.model, m.data, o);
    CHECK(given.bound == o.bound);
    check_evidence("rejection", c, given);
  }
  {
    // LogNormal(mu, s) observations sharing mu peak jointly at mu = mean(log y).
    const model_case c = log_normal_normal();
    const compiled m = compile(c);
    const auto r = inference::rejection_sample(m.model, m.data, options(2000));
    double jacobian = 0;
    for (double y : normal_y) jacobian -= y;
    CHECK(r.bound == doctest::Approx(normal_bound() + jacobian).epsilon(1e-12));
    check_evidence("rejection", c, r);
  }
  // A location that differs by observation (a + b x[n]), from a family without a joint
  // peak in closed form: Logistic(., 1), at most 1/4 at each y.
  const model_case c = logistic_regression();
  const compiled m = compile(c);
  const auto r = inference::rejection_sample(m.model, m.data, options(2000));
  CHECK(r.bound == doctest::Approx(5 * std::log(0.25)).epsilon(1e-12));
  check_evidence("rejection", c, r);
}

TEST_CASE("rejection draws pass a Kolmogorov-Smirnov test against the exact posterior") {
  // The 0.1% critical value of the one-sample statistic is 1.95 / sqrt(n).
  {
    const compiled m = compile(beta_bernoulli());
    const auto r = inference::rejection_sample(m.model, m.data, options(4000));
    const boost::math::beta_distribution<> exact(2 + 3, 3 + 1);
    const double d = ks_distance(values(r, "p"), [&](double x) { return boost::math::cdf(exact, x); });
    CHECK(d < 1.95 / std::sqrt(static_cast<double>(r.row_count)));
  }
  {
    const compiled m = compile(normal_normal());
    const auto r = inference::rejection_sample(m.model, m.data, options(4000));  // the bound found
    const double n = static_cast<double>(normal_y.size()), sum = std::accumulate(normal_y.begin(), normal_y.end(), 0.0);
    const double precision = 1 / (normal_s0 * normal_s0) + n / (normal_sigma * normal_sigma);
    const boost::math::normal_distribution<> exact((normal_m0 / (normal_s0 * normal_s0) + sum / (normal_sigma * normal_sigma)) / precision,
                                                   1 / std::sqrt(precision));
    const double d = ks_distance(values(r, "mu"), [&](double x) { return boost::math::cdf(exact, x); });
    CHECK(d < 1.95 / std::sqrt(static_cast<double>(r.row_count)));
  }
}

TEST_CASE("SMC's posterior mean agrees with the exact one within the runs' Monte Carlo error") {
  const compiled m = compile(beta_bernoulli());
  auto o = options(400);
  o.runs = 8;
  const auto r = inference::smc_sample(m.model, m.data, o);
  // Each run's particles are equally weighted: the runs' means are independent estimates.
  const std::vector<double> p = values(r, "p");
  const auto per_run = static_cast<std::size_t>(o.particles);
  std::vector<double> means;
  for (std::size_t k = 0; k < 8; ++k) means.push_back(std::accumulate(p.begin() + k * per_run, p.begin() + (k + 1) * per_run, 0.0) / per_run);
  const double mean = std::accumulate(means.begin(), means.end(), 0.0) / 8;
  double ss = 0;
  for (double x : means) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / 7 / 8);
  // 5 standard errors: Student's t with 7 degrees of freedom exceeds it with probability 0.2%.
  CHECK(std::abs(mean - 5.0 / 9.0) < 5 * se);
  CHECK(se < 0.01);
}

TEST_CASE("the weighted methods give the same draws whatever the number of threads") {
  const compiled m = compile(mixture());
  auto o = options(200);
  o.runs = 3;
  const auto two = inference::smc_sample(m.model, m.data, o);
  o.threads = 1;
  const auto one = inference::smc_sample(m.model, m.data, o);
  CHECK(one.rows == two.rows);
  CHECK(one.evidence.log_z == two.evidence.log_z);
  // Fewer runs than threads: the particles are spread instead of the runs (nuts moves, whose
  // tuned step size the other threads' samplers take from the first's).
  const compiled logistic = compile(logistic_regression());
  o.runs = 1;
  const auto serial = inference::smc_sample(logistic.model, logistic.data, o);
  o.threads = 3;
  const auto spread = inference::smc_sample(logistic.model, logistic.data, o);
  CHECK(serial.rows == spread.rows);
  CHECK(serial.evidence.log_z == spread.evidence.log_z);
  o.threads = 1;
  const auto i1 = inference::importance_sample(m.model, m.data, o);
  o.threads = 3;
  const auto i3 = inference::importance_sample(m.model, m.data, o);
  CHECK(i1.rows == i3.rows);
}

TEST_CASE("rejection refuses a likelihood it has no bound for, a wrong bound and a hopeless cost") {
  {
    // An unknown scale: the density grows without bound as sigma falls.
    const compiled unbounded = compile({"unknown scale", "data y: real[N]\nmu ~ Normal(1, 2)\ns ~ Exponential(1)\nfor n in 1:N { y[n] ~ Normal(mu, s) }\n",
                                        {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
    CHECK_THROWS_WITH(inference::rejection_sample(unbounded.model, unbounded.data, options(100)), doctest::Contains("--bound"));
    const compiled m = compile(normal_normal());
    auto o = options(100);
    o.bound = normal_bound() - 1;
    CHECK_THROWS_WITH(inference::rejection_sample(m.model, m.data, o), doctest::Contains("above the bound"));
  }
  const compiled m = compile(beta_bernoulli());
  auto o = options(100);
  o.max_proposals = 1.05 * static_cast<double>(o.particles);  // the draws asked for, at an acceptance rate near 0.5
  CHECK_THROWS_WITH(inference::rejection_sample(m.model, m.data, o), doctest::Contains("--max-proposals"));
}

TEST_CASE("an interrupted method returns what it finished: here nothing, and says so") {
  struct reset {
    ~reset() { ppl::set_interrupted(false); }
  } guard;
  ppl::set_interrupted(true);
  const compiled m = compile(beta_bernoulli());
  auto o = options(200);
  for (const auto& r : {inference::importance_sample(m.model, m.data, o), inference::smc_sample(m.model, m.data, o),
                        inference::rejection_sample(m.model, m.data, o)}) {
    CHECK(r.interrupted);
    CHECK(r.row_count == 0);
    CHECK(r.stopped.rfind("0 of ", 0) == 0);
  }
}

}  // namespace test_monte_carlo
