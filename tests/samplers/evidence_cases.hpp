#pragma once
// Models whose evidence p(data) has a closed form (conjugate pairs) or is a sum over every
// value of their unknowns (discrete networks, mixtures), with the helpers the weighted
// methods' tests share: tests/samplers/test_monte_carlo.cpp (importance sampling, SMC)
// and tests/samplers/test_rejection.cpp.
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

namespace evidence_cases {

using namespace ppl;

struct model_case {
  const char* name;
  const char* text;
  std::vector<std::string> sets;
  double log_z;  // exact
};

inline double lbeta(double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); }
inline double log_normal(double y, double mu, double s) { return -0.5 * std::log(2 * M_PI * s * s) - (y - mu) * (y - mu) / (2 * s * s); }

// Beta(2, 3) prior, 3 successes in 4 trials.
inline model_case beta_bernoulli() {
  return {"Beta-Bernoulli", "data y: int[N]\np ~ Beta(2, 3)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n", {"y=[1,0,1,1]"},
          lbeta(2 + 3, 3 + 1) - lbeta(2, 3)};
}

inline const std::vector<double> normal_y = {0.3, 2.1, 1.4, -0.2, 1.9, 0.8};

inline std::vector<double> exp_of(const std::vector<double>& x) {
  std::vector<double> out;
  for (double v : x) out.push_back(std::exp(v));
  return out;
}
constexpr double normal_sigma = 1.5, normal_m0 = 1, normal_s0 = 2;

// y ~ N(m0 1, sigma^2 I + s0^2 1 1'): the marginal of mu ~ N(m0, s0), y[n] ~ N(mu, sigma).
inline double normal_normal_log_z(const std::vector<double>& ys) {
  const double n = static_cast<double>(ys.size());
  const double mean = std::accumulate(ys.begin(), ys.end(), 0.0) / n;
  double ss = 0;
  for (double y : ys) ss += (y - mean) * (y - mean);
  const double s2 = normal_sigma * normal_sigma, t2 = normal_s0 * normal_s0;
  return -n / 2 * std::log(2 * M_PI * s2) - 0.5 * std::log(1 + n * t2 / s2) - ss / (2 * s2) -
         n * (mean - normal_m0) * (mean - normal_m0) / (2 * (s2 + n * t2));
}

inline model_case normal_normal() {
  return {"Normal-Normal", "data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ Normal(mu, 1.5) }\n", {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"},
          normal_normal_log_z(normal_y)};
}

// The same with y = exp(normal_y) observed as LogNormal(mu, 1.5): the evidence is the
// Normal-Normal one of log y times the Jacobian prod 1 / y.
inline model_case log_normal_normal() {
  double jacobian = 0;
  for (double y : normal_y) jacobian -= y;
  return {"LogNormal-Normal", "data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ LogNormal(mu, 1.5) }\n",
          {"y=[" + fmt::format("{}", fmt::join(exp_of(normal_y), ",")) + "]"}, normal_normal_log_z(normal_y) + jacobian};
}

// The largest log-likelihood of normal_normal: at mu = mean(y).
inline double normal_bound() {
  const double mean = std::accumulate(normal_y.begin(), normal_y.end(), 0.0) / static_cast<double>(normal_y.size());
  double out = 0;
  for (double y : normal_y) out += log_normal(y, mean, normal_sigma);
  return out;
}

// Gamma(3, 0.5) prior on a Poisson rate, counts 4, 7, 3, 6, 5.
inline model_case gamma_poisson() {
  const std::vector<double> y = {4, 7, 3, 6, 5};
  const double a = 3, b = 0.5, n = 5, s = 25;
  double log_z = a * std::log(b) - std::lgamma(a) + std::lgamma(a + s) - (a + s) * std::log(b + n);
  for (double v : y) log_z -= std::lgamma(v + 1);
  return {"Gamma-Poisson", "data y: int[N]\nlam ~ Gamma(3, 0.5)\nfor n in 1:N { y[n] ~ Poisson(lam) }\n", {"y=[4,7,3,6,5]"}, log_z};
}

// Dirichlet(1, 2, 1.5) prior, categories 1, 2, 2, 3.
inline model_case dirichlet_categorical() {
  const std::vector<double> alpha = {1, 2, 1.5}, counts = {1, 2, 1};
  double log_z = std::lgamma(4.5) - std::lgamma(4.5 + 4);
  for (std::size_t k = 0; k < 3; ++k) log_z += std::lgamma(alpha[k] + counts[k]) - std::lgamma(alpha[k]);
  return {"Dirichlet-Categorical", "data y: int[N]\ntheta ~ Dirichlet([1, 2, 1.5])\nfor n in 1:N { y[n] ~ Categorical(theta) }\n",
          {"y=[1,2,2,3]"}, log_z};
}

inline const std::vector<double> mixture_y = {2.3, -0.7, -1.4, 1.8, -0.9, 0.4};

// Each observation from N(2, 1) with probability 0.3, else N(-1, 1): the evidence is the
// product over observations of the sum over the two components.
inline model_case mixture() {
  double log_z = 0;
  for (double y : mixture_y) log_z += std::log(0.3 * std::exp(log_normal(y, 2, 1)) + 0.7 * std::exp(log_normal(y, -1, 1)));
  return {"two-component mixture",
          "data y: real[N]\nfor n in 1:N {\n  z[n] ~ Bernoulli(0.3)\n  y[n] ~ Normal(3 * z[n] - 1, 1)\n}\n",
          {"y=[2.3,-0.7,-1.4,1.8,-0.9,0.4]"}, log_z};
}

// The mark network of examples/mark with its tables, mark 4 observed: the evidence is the
// sum over the 3 x 3 x 2 values of study, knowledge and motivation.
inline model_case mark() {
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
inline model_case collapsed_mixture(double* theta1_mean = nullptr) {
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

inline const std::vector<double> regression_x = {1.0, 2.0, 3.0, 4.0, 5.0}, regression_y = {2.9, 5.2, 6.8, 9.1, 11.2};

// y ~ N(a + b x, 0.5) with a, b ~ N(0, 10), on x far from centred (MCMC's plan draws a and
// b together, gaussian_block): y is N(0, 0.25 I + 100 (1 1' + x x')).
inline model_case regression() {
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

inline const std::vector<double> logistic_x = {-1.5, -0.5, 0.2, 1.0, 2.0}, logistic_y = {-2.1, 0.4, 0.3, 1.9, 2.6};

// A regression with Logistic errors and Normal priors on its two coefficients, which no
// conjugate pair takes (MCMC's plan gives a and b to nuts): the evidence by quadrature on a
// 600 x 600 grid over +-6 prior sds, whose error is far below the tests' tolerance.
inline model_case logistic_regression() {
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

inline compiled compile(const model_case& c) {
  compiled out{lang::compile({"test.ppl", c.text}, stdlib::library()), {}};
  for (const auto& s : c.sets) data::apply_set(out.data, s);
  return out;
}

inline inference::monte_carlo_options options(long particles) {
  inference::monte_carlo_options o;
  o.particles = testing::shortened(particles, 4);
  o.threads = 2;
  o.seed = 11;
  return o;
}

inline void check_evidence(const char* method, const model_case& c, const inference::weighted_result& r) {
  INFO(method, ": ", c.name, ": log evidence ", r.evidence.log_z, " (se ", r.evidence.se, "), exact ", c.log_z);
  REQUIRE(std::isfinite(r.evidence.se));
  CHECK(r.evidence.se < 0.15);
  CHECK(std::abs(r.evidence.log_z - c.log_z) < 3 * r.evidence.se);
}

inline std::size_t column_of(const inference::weighted_result& r, const std::string& name) {
  const auto it = std::find(r.columns.begin(), r.columns.end(), name);
  REQUIRE(it != r.columns.end());
  return static_cast<std::size_t>(it - r.columns.begin());
}

// The largest distance between the draws' empirical distribution function and `cdf`.
template <class F>
inline double ks_distance(std::vector<double> x, F cdf) {
  std::sort(x.begin(), x.end());
  const auto n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

inline std::vector<double> values(const inference::weighted_result& r, const std::string& name) {
  const std::size_t k = column_of(r, name), width = r.columns.size();
  std::vector<double> out;
  for (std::size_t i = 0; i < r.row_count; ++i) out.push_back(r.rows[i * width + k]);
  return out;
}

}  // namespace evidence_cases
