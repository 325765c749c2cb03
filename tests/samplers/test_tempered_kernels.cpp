// MCMC's samplers as SMC's moves: at a temperature beta each kernel must leave
// prior x likelihood^beta invariant. The conjugate, gaussian_block and collapsed updates
// compute their conditionals from statistics, so each is run here for thousands of steps
// at beta = 0.2 and its draws compared with the tempered posterior in closed form (or by
// enumeration): the mean and the sd each within 4.5 standard errors (from batches of the
// draws), at a fixed seed. The untempered posterior lies tens
// of standard errors away in every case, so a kernel that ignores the temperature fails.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "inference/chain.hpp"
#include "samplers/factories.hpp"
#include "tests/support/model_fixture.hpp"

namespace test_tempered_kernels {

using namespace ppl;

namespace {

constexpr double beta = 0.2;
constexpr long draws = 4000, burn_in = 200;

struct tempered_run {
  std::vector<std::string> kinds;
  std::vector<std::vector<double>> values;  // per watched element, per draw
};

// The plan MCMC would make, its samplers stepped at temperature beta (as SMC configures
// them: one state moved in turn), element `elements[k]` of variable `names[k]` recorded.
tempered_run run_tempered(testing::fixture& f, const std::vector<std::pair<std::string, std::size_t>>& watched) {
  auto& g = *f.graph;
  g.set_temperature(beta);
  const auto plan = samplers::plan(g, {});
  tempered_run out;
  for (const auto& a : plan) out.kinds.emplace_back(a.chosen->kind());
  auto made = inference::make_samplers(g, plan);
  samplers::sampler_settings settings;
  settings.particles = true;
  for (auto& m : made) m.made->configure(settings);
  ppl::rng rng(20261127);
  out.values.resize(watched.size());
  for (long i = 0; i < burn_in + draws; ++i) {
    for (auto& m : made) m.made->step(rng, false);
    g.update_derived();
    if (i < burn_in) continue;
    for (std::size_t k = 0; k < watched.size(); ++k) out.values[k].push_back(f.value(watched[k].first).data[watched[k].second]);
  }
  return out;
}

// Mean and sd of draws, and their standard errors from 40 batches (which also covers the
// collapsed sampler's autocorrelated draws): the spread of the batches' means and sds.
struct moments {
  double mean = 0, sd = 0, mean_se = 0, sd_se = 0;
};

double mean_of(const double* x, std::size_t n) { return std::accumulate(x, x + n, 0.0) / static_cast<double>(n); }

double sd_of(const double* x, std::size_t n) {
  const double m = mean_of(x, n);
  double ss = 0;
  for (std::size_t i = 0; i < n; ++i) ss += (x[i] - m) * (x[i] - m);
  return std::sqrt(ss / static_cast<double>(n - 1));
}

// The standard error of the average of `values` (independent batch estimates).
double batch_se(const std::vector<double>& values) {
  const double m = mean_of(values.data(), values.size());
  double ss = 0;
  for (double v : values) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(values.size() - 1) / static_cast<double>(values.size()));
}

moments summarise(const std::vector<double>& x) {
  constexpr std::size_t batches = 40;
  const std::size_t size = x.size() / batches;
  std::vector<double> means, sds;
  for (std::size_t b = 0; b < batches; ++b) {
    means.push_back(mean_of(x.data() + b * size, size));
    sds.push_back(sd_of(x.data() + b * size, size));
  }
  return {mean_of(x.data(), x.size()), sd_of(x.data(), x.size()), batch_se(means), batch_se(sds)};
}

void check_moments(const std::vector<double>& x, double mean, double sd) {
  const moments m = summarise(x);
  INFO("mean ", m.mean, " (se ", m.mean_se, "), exact ", mean, "; sd ", m.sd, " (se ", m.sd_se, "), exact ", sd);
  CHECK(std::abs(m.mean - mean) < 4.5 * m.mean_se);
  CHECK(std::abs(m.sd - sd) < 4.5 * m.sd_se);
}

void check_kinds(const tempered_run& r, const std::string& kind) {
  for (const auto& k : r.kinds) CHECK(k == kind);
}

}  // namespace

TEST_CASE("tempered conjugate updates: Beta-Bernoulli, Gamma-Poisson, Normal-Normal, Gamma precision, Dirichlet") {
  {
    testing::fixture f("data y: int[N]\np ~ Beta(2, 3)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n", {"y=[1,0,1,1]"});
    const auto r = run_tempered(f, {{"p", 0}});
    check_kinds(r, "conjugate");
    const double a = 2 + beta * 3, b = 3 + beta * 1;  // Beta(a, b), the successes and failures counted beta times
    check_moments(r.values[0], a / (a + b), std::sqrt(a * b / ((a + b) * (a + b) * (a + b + 1))));
  }
  {
    testing::fixture f("data y: int[N]\nlam ~ Gamma(3, 0.5)\nfor n in 1:N { y[n] ~ Poisson(lam) }\n", {"y=[4,7,3,6,5]"});
    const auto r = run_tempered(f, {{"lam", 0}});
    check_kinds(r, "conjugate");
    const double shape = 3 + beta * 25, rate = 0.5 + beta * 5;
    check_moments(r.values[0], shape / rate, std::sqrt(shape) / rate);
  }
  {
    // Observed directly, and through a derived variable linear in mu.
    for (const char* text : {"data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ Normal(mu, 1.5) }\n",
                             "data y: real[N]\nmu ~ Normal(1, 2)\neta = 2 * mu - 1\nfor n in 1:N { y[n] ~ Normal((eta + 1) / 2, 1.5) }\n"}) {
      testing::fixture f(text, {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"});
      const auto r = run_tempered(f, {{"mu", 0}});
      INFO(text);
      check_kinds(r, "conjugate");
      const double precision = 0.25 + beta * 6 / 2.25, mean = (0.25 * 1 + beta * 6.3 / 2.25) / precision;
      check_moments(r.values[0], mean, 1 / std::sqrt(precision));
    }
  }
  {
    testing::fixture f("data y: real[N]\ntau ~ Gamma(2, 1)\nfor n in 1:N { y[n] ~ Normal(0, 1 / sqrt(tau)) }\n", {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"});
    const auto r = run_tempered(f, {{"tau", 0}});
    check_kinds(r, "conjugate");
    const double ss = 0.09 + 4.41 + 1.96 + 0.04 + 3.61 + 0.64;
    const double shape = 2 + beta * 3, rate = 1 + beta * ss / 2;
    check_moments(r.values[0], shape / rate, std::sqrt(shape) / rate);
  }
  {
    testing::fixture f("data y: int[N]\ntheta ~ Dirichlet([1, 2, 1.5])\nfor n in 1:N { y[n] ~ Categorical(theta) }\n", {"y=[1,2,2,3,2,2,2]"});
    const auto r = run_tempered(f, {{"theta", 1}});
    check_kinds(r, "conjugate");
    const double a = 2 + beta * 5, total = 4.5 + beta * 7;  // theta[2] ~ Beta(a, total - a)
    check_moments(r.values[0], a / total, std::sqrt(a * (total - a) / (total * total * (total + 1))));
  }
}

TEST_CASE("a tempered gaussian_block update: the regression's coefficients drawn together") {
  const std::vector<double> x = {1, 2, 3, 4, 5}, y = {2.9, 5.2, 6.8, 9.1, 11.2};
  testing::fixture f("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\nfor n in 1:N { y[n] ~ Normal(a + b * x[n], 0.5) }\n",
                     {"x=[1,2,3,4,5]", "y=[2.9,5.2,6.8,9.1,11.2]"});
  const auto r = run_tempered(f, {{"a", 0}, {"b", 0}});
  check_kinds(r, "gaussian_block");
  // Precision I / 100 + beta X'X / 0.25, mean its inverse times beta X'y / 0.25.
  Eigen::Matrix2d q = Eigen::Matrix2d::Identity() / 100;
  Eigen::Vector2d c = Eigen::Vector2d::Zero();
  for (std::size_t n = 0; n < x.size(); ++n) {
    const Eigen::Vector2d row(1, x[n]);
    q += beta * row * row.transpose() / 0.25;
    c += beta * row * y[n] / 0.25;
  }
  const Eigen::Matrix2d cov = q.inverse();
  const Eigen::Vector2d mean = cov * c;
  check_moments(r.values[0], mean[0], std::sqrt(cov(0, 0)));
  check_moments(r.values[1], mean[1], std::sqrt(cov(1, 1)));
}

TEST_CASE("a tempered collapsed update: z from its tempered blanket, theta then drawn given z") {
  // Observations from N(-1, 1) or N(2, 1), weights theta ~ Dirichlet(1, 1) integrated out:
  // the tempered posterior of z is p(z) prod N(y | mu_z, 1)^beta, with p(z) = c1! c2! / 7!,
  // and E[theta1 | y] its average of (c1 + 1) / 8, by enumeration of the 2^6 assignments.
  const std::vector<double> y = {2.3, -0.7, -1.4, 1.8, -0.9, 0.4};
  double total = 0, weighted = 0, squares = 0;
  for (unsigned z = 0; z < 64; ++z) {
    double log_w = 0, c1 = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const bool second = (z >> i) & 1u;
      c1 += second ? 0 : 1;
      const double r = y[i] - (second ? 2 : -1);
      log_w += -beta * r * r / 2;
    }
    const double w = std::exp(log_w + std::lgamma(c1 + 1) + std::lgamma(7 - c1) - std::lgamma(8));
    const double a = c1 + 1;  // theta1 | z ~ Beta(a, 8 - a): mean a / 8, second moment a (a + 1) / 72
    total += w;
    weighted += w * a / 8;
    squares += w * a * (a + 1) / 72;
  }
  const double mean = weighted / total, sd = std::sqrt(squares / total - mean * mean);
  testing::fixture f("data y: real[N]\ntheta ~ Dirichlet([1, 1])\nfor n in 1:N {\n  z[n] ~ Categorical(theta)\n  y[n] ~ Normal(3 * z[n] - 4, 1)\n}\n",
                     {"y=[2.3,-0.7,-1.4,1.8,-0.9,0.4]"});
  const auto r = run_tempered(f, {{"theta", 0}});
  check_kinds(r, "collapsed");
  check_moments(r.values[0], mean, sd);
}

}  // namespace test_tempered_kernels
