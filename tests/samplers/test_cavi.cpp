// Mean-field coordinate ascent (inference/cavi.hpp) against fixed points worked by hand
// (with the factors the engine makes: one per scalar element, one multivariate normal for
// what the planner blocks):
// each test iterates the closed-form updates of its model, with the expectations written
// out (E[(y - a)^2] = (y - m)^2 + v and the like), to 1e-13, and asks ppl's fixed point,
// found through the conjugate pairs' own statistics averaged over designs, to agree to
// 1e-8 relative. Where q can be the posterior itself (one unknown), the ELBO equals the
// exact log evidence. Coordinate ascent never lowers the ELBO: checked at every sweep.
#include <doctest/doctest.h>

#include <array>

#include <boost/math/special_functions/digamma.hpp>

#include "inference/cavi.hpp"
#include "model/graph.hpp"
#include "tests/samplers/evidence_cases.hpp"

namespace test_cavi {

using namespace ppl;
using namespace evidence_cases;

namespace {

// Sweeps to convergence, checking that the ELBO never falls; returns the last ELBO.
double converge(inference::cavi& engine) {
  double elbo = engine.elbo();
  for (int sweep = 0; sweep < 10000; ++sweep) {
    const double change = engine.sweep();
    const double next = engine.elbo();
    INFO("sweep ", sweep + 1, ": ", elbo, " to ", next);
    if (sweep > 0) CHECK(next >= elbo - 1e-10 * std::abs(elbo));
    elbo = next;
    if (change < 1e-12) return elbo;
  }
  FAIL("no convergence in 10000 sweeps");
  return elbo;
}

struct fitted {
  compiled c;
  ppl::rng rng{7};
  model::graph g;
  inference::cavi engine;
  explicit fitted(const model_case& m) : c(with_missing(m)), g(c.model, c.data, rng), engine(g) {}
  // Compiled as the CLI compiles a model whose data have missing values: checked again
  // with the partly observed variables split.
  static compiled with_missing(const model_case& m) {
    compiled out = compile(m);
    if (auto options = model::missing_values(out.model, out.data); !options.partly_observed.empty())
      out.model = lang::compile({"test.ppl", m.text}, stdlib::library(), std::move(options));
    return out;
  }
  const inference::q_factor& q(const std::string& name, std::size_t element = 0) {
    const auto& vars = c.model.variables;
    for (std::size_t v = 0; v < vars.size(); ++v)
      if (vars[v].name == name) return engine.factors(static_cast<int>(v))[element];
    FAIL("no variable " << name);
    return engine.factors(0)[0];
  }
};

void check_factor(const inference::q_factor& f, const char* family, double a, double b) {
  CHECK(std::string(f.family) == family);
  CHECK(f.a == doctest::Approx(a).epsilon(1e-8));
  CHECK(f.b == doctest::Approx(b).epsilon(1e-8));
}

}  // namespace

TEST_CASE("CAVI's fixed point for a Normal mean and Gamma precision (Bishop 2006, 10.1.3), and for a variance") {
  const std::vector<double>& y = normal_y;
  const double n = static_cast<double>(y.size());
  fitted f({"normal, unknown precision",
            "data y: real[N]\nmu ~ Normal(1, 2)\ntau ~ Gamma(2, 3)\nfor n in 1:N { y[n] ~ Normal(mu, 1 / sqrt(tau)) }\n",
            {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
  converge(f.engine);
  // q(mu) = N(m, v): precision 1/4 + n E[tau], mean (1/4 + E[tau] sum y) / precision;
  // q(tau) = Gamma(2 + n/2, 3 + sum((y - m)^2 + v) / 2).
  double m = 0, v = 0, shape = 2 + n / 2, rate = 1;
  for (int k = 0; k < 10000; ++k) {
    const double e_tau = shape / rate, precision = 0.25 + n * e_tau;
    m = (0.25 + e_tau * std::accumulate(y.begin(), y.end(), 0.0)) / precision, v = 1 / precision;
    rate = 3;
    for (double x : y) rate += 0.5 * ((x - m) * (x - m) + v);
  }
  check_factor(f.q("mu"), "Normal", m, std::sqrt(v));
  check_factor(f.q("tau"), "Gamma", shape, rate);

  // The same with an InverseGamma on the variance: E[1 / s2] and E[log s2] are its design's.
  fitted g({"normal, unknown variance",
            "data y: real[N]\nmu ~ Normal(1, 2)\ns2 ~ InverseGamma(2, 3)\nfor n in 1:N { y[n] ~ Normal(mu, sqrt(s2)) }\n",
            {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
  converge(g.engine);
  check_factor(g.q("mu"), "Normal", m, std::sqrt(v));
  check_factor(g.q("s2"), "InverseGamma", shape, rate);
}

TEST_CASE("CAVI's fixed point for random effects: mean and effects one normal factor, as the planner blocks them") {
  const std::vector<double> y = {4.1, 5.3, 6.0, 2.2, 3.1, 7.9, 8.4, 6.6, 7.7};
  const std::vector<int> group = {0, 0, 0, 1, 1, 2, 2, 2, 2};
  fitted f({"random effects",
            "data y: real[N]\ndata g: int[N]\ndata J: int\nmu ~ Normal(0, 10)\ntau_a ~ Gamma(1, 1)\ntau_y ~ Gamma(1, 1)\n"
            "for j in 1:J { a[j] ~ Normal(mu, 1 / sqrt(tau_a)) }\nfor n in 1:N { y[n] ~ Normal(a[g[n]], 1 / sqrt(tau_y)) }\n",
            {"y=[4.1,5.3,6.0,2.2,3.1,7.9,8.4,6.6,7.7]", "g=[1,1,1,2,2,3,3,3,3]", "J=3"}, 0});
  converge(f.engine);
  // q(mu, a) = N(P^-1 h, P^-1) over (mu, a[1..3]): P from mu's prior (1/100), each a[j]'s
  // prior (E[tau_a] (a_j - mu)^2) and the observations (E[tau_y] (y - a_g)^2); then
  // q(tau_a) = Gamma(1 + 3/2, 1 + sum E[(a_j - mu)^2] / 2) with the covariance's terms, and
  // q(tau_y) = Gamma(1 + N/2, 1 + sum E[(y - a_g)^2] / 2).
  const int groups = 3;
  const double n = static_cast<double>(y.size()), shape_a = 1 + groups / 2.0, shape_y = 1 + n / 2;
  double rate_a = 1, rate_y = 1;
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
  for (int k = 0; k < 20000; ++k) {
    const double e_a = shape_a / rate_a, e_y = shape_y / rate_y;
    Eigen::MatrixXd p = Eigen::MatrixXd::Zero(groups + 1, groups + 1);
    Eigen::VectorXd h = Eigen::VectorXd::Zero(groups + 1);
    p(0, 0) = 0.01;
    for (int j = 1; j <= groups; ++j) p(0, 0) += e_a, p(j, j) += e_a, p(0, j) -= e_a, p(j, 0) -= e_a;
    for (std::size_t i = 0; i < y.size(); ++i) p(group[i] + 1, group[i] + 1) += e_y, h[group[i] + 1] += e_y * y[i];
    cov = p.inverse();
    mean = cov * h;
    rate_a = 1;
    for (int j = 1; j <= groups; ++j)
      rate_a += 0.5 * ((mean[j] - mean[0]) * (mean[j] - mean[0]) + cov(j, j) + cov(0, 0) - 2 * cov(0, j));
    rate_y = 1;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const int j = group[i] + 1;
      rate_y += 0.5 * ((y[i] - mean[j]) * (y[i] - mean[j]) + cov(j, j));
    }
  }
  CHECK(f.engine.blocks().size() == 1);
  check_factor(f.q("mu"), "Normal", mean[0], std::sqrt(cov(0, 0)));
  check_factor(f.q("tau_a"), "Gamma", shape_a, rate_a);
  check_factor(f.q("tau_y"), "Gamma", shape_y, rate_y);
  for (int j = 0; j < groups; ++j) check_factor(f.q("a", static_cast<std::size_t>(j)), "Normal", mean[j + 1], std::sqrt(cov(j + 1, j + 1)));
}

TEST_CASE("CAVI's fixed point for Poisson rates with exposures and a Gamma rate of their prior") {
  const std::vector<double> x = {5, 1, 5, 14, 3}, t = {94.3, 15.7, 62.9, 126, 5.24};
  fitted f({"rates", "data x: int[N]\ndata t: real[N]\nb ~ Gamma(0.1, 1)\nfor i in 1:N {\n  theta[i] ~ Gamma(1.5, b)\n  x[i] ~ Poisson(theta[i] * t[i])\n}\n",
            {"x=[5,1,5,14,3]", "t=[94.3,15.7,62.9,126,5.24]"}, 0});
  converge(f.engine);
  // q(theta[i]) = Gamma(1.5 + x[i], E[b] + t[i]); q(b) = Gamma(0.1 + 1.5 N, 1 + sum E[theta]).
  const double shape_b = 0.1 + 1.5 * 5;
  double rate_b = 1;
  for (int k = 0; k < 10000; ++k) {
    double sum = 0;
    for (std::size_t i = 0; i < x.size(); ++i) sum += (1.5 + x[i]) / (shape_b / rate_b + t[i]);
    rate_b = 1 + sum;
  }
  check_factor(f.q("b"), "Gamma", shape_b, rate_b);
  for (std::size_t i = 0; i < x.size(); ++i) check_factor(f.q("theta", i), "Gamma", 1.5 + x[i], shape_b / rate_b + t[i]);
}

TEST_CASE("a coefficient vector is one multivariate normal factor: its fixed point with a Gamma precision") {
  const std::vector<double> x = {-1.5, -0.5, 0.2, 1.0, 2.0}, y = {-2.1, 0.4, 0.3, 1.9, 2.6};
  fitted f({"regression", "data x: real[N]\ndata y: real[N]\ntau ~ Gamma(1, 1)\nfor k in 1:2 { b[k] ~ Normal(0, 10) }\n"
                          "for n in 1:N { y[n] ~ Normal(b[1] + b[2] * x[n], 1 / sqrt(tau)) }\n",
            {"x=[-1.5,-0.5,0.2,1.0,2.0]", "y=[-2.1,0.4,0.3,1.9,2.6]"}, 0});
  converge(f.engine);
  // q(b) = N(P^-1 h, P^-1), P = I / 100 + E[tau] X'X, h = E[tau] X'y;
  // q(tau) = Gamma(1 + N/2, 1 + (|y - X m|^2 + tr(X'X P^-1)) / 2).
  Eigen::MatrixXd X(5, 2);
  Eigen::VectorXd Y(5);
  for (int i = 0; i < 5; ++i) X(i, 0) = 1, X(i, 1) = x[static_cast<std::size_t>(i)], Y[i] = y[static_cast<std::size_t>(i)];
  const double shape = 1 + 2.5;
  double rate = 1;
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
  for (int k = 0; k < 10000; ++k) {
    const Eigen::MatrixXd precision = Eigen::MatrixXd::Identity(2, 2) / 100 + shape / rate * X.transpose() * X;
    covariance = precision.inverse();
    mean = covariance * (shape / rate * X.transpose() * Y);
    rate = 1 + 0.5 * ((Y - X * mean).squaredNorm() + (X.transpose() * X * covariance).trace());
  }
  check_factor(f.q("tau"), "Gamma", shape, rate);
  for (int k = 0; k < 2; ++k) check_factor(f.q("b", static_cast<std::size_t>(k)), "Normal", mean[k], std::sqrt(covariance(k, k)));
}

TEST_CASE("two blocks read together through a derived mean (rats' shape): each element's code keeps the design exact") {
  const std::vector<double> y = {1.2, 2.3, 3.1, 0.4, 0.9, 1.8, 2.2, 4.0};
  const std::vector<double> x = {-1, 0, 1, -1, 0, 1, -1, 1};
  const std::vector<int> g = {0, 0, 0, 1, 1, 1, 2, 2};
  fitted f({"lines", "data x: real[N]\ndata y: real[N]\ndata g: int[N]\ndata J: int\ntau ~ Gamma(1, 1)\n"
                     "for j in 1:J {\n  a[j] ~ Normal(0, 10)\n  c[j] ~ Normal(0, 10)\n}\n"
                     "for n in 1:N {\n  mu[n] = a[g[n]] + c[g[n]] * x[n]\n  y[n] ~ Normal(mu[n], 1 / sqrt(tau))\n}\n",
            {"x=[-1,0,1,-1,0,1,-1,1]", "y=[1.2,2.3,3.1,0.4,0.9,1.8,2.2,4.0]", "g=[1,1,1,2,2,2,3,3]", "J=3"}, 0});
  converge(f.engine);
  // Each block's precision is diagonal: a[j]: 1/100 + E[tau] n_j, mean E[tau] sum (y - E[c_j] x) / that;
  // c[j]: 1/100 + E[tau] sum x^2, mean E[tau] sum x (y - E[a_j]) / that.
  const double shape = 1 + 4;
  double rate = 1;
  std::vector<double> ma(3, 0), va(3, 0), mc(3, 0), vc(3, 0);
  for (int k = 0; k < 20000; ++k) {
    const double e = shape / rate;
    for (int j = 0; j < 3; ++j) {
      double n = 0, s = 0, xx = 0, xr = 0;
      for (std::size_t i = 0; i < y.size(); ++i)
        if (g[i] == j) n += 1, s += y[i] - mc[j] * x[i], xx += x[i] * x[i];
      va[j] = 1 / (0.01 + e * n), ma[j] = e * s * va[j];
      for (std::size_t i = 0; i < y.size(); ++i)
        if (g[i] == j) xr += x[i] * (y[i] - ma[j]);
      vc[j] = 1 / (0.01 + e * xx), mc[j] = e * xr * vc[j];
    }
    rate = 1;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double r = y[i] - ma[g[i]] - mc[g[i]] * x[i];
      rate += 0.5 * (r * r + va[g[i]] + x[i] * x[i] * vc[g[i]]);
    }
  }
  check_factor(f.q("tau"), "Gamma", shape, rate);
  for (std::size_t j = 0; j < 3; ++j) {
    check_factor(f.q("a", j), "Normal", ma[j], std::sqrt(va[j]));
    check_factor(f.q("c", j), "Normal", mc[j], std::sqrt(vc[j]));
  }
}

TEST_CASE("a Gaussian mixture: indicators, weights, means and precision at the hand-written updates' fixed point") {
  const std::vector<double> y = {-2.3, -1.6, -2.9, -1.2, -2.4, -1.8, 2.7, 3.4, 2.2, 3.9, 3.1};
  fitted f({"mixture", "data y: real[N]\ndata K: int\npi ~ Dirichlet(rep_vector(1, K))\ntau ~ Gamma(1, 1)\n"
                       "for k in 1:K { mu[k] ~ Normal(0, 10) }\n"
                       "for n in 1:N {\n  z[n] ~ Categorical(pi)\n  y[n] ~ Normal(mu[z[n]], 1 / sqrt(tau))\n}\n",
            {"y=[-2.3,-1.6,-2.9,-1.2,-2.4,-1.8,2.7,3.4,2.2,3.9,3.1]", "K=2"}, 0});
  converge(f.engine);
  // One sweep of the updates written out (Bishop 2006, 10.2), from ppl's q, must leave it:
  // r[n][k] proportional to exp(E log pi_k + E log tau / 2 - E[tau] ((y_n - m_k)^2 + v_k) / 2);
  // alpha_k = 1 + sum_n r[n][k]; mu_k's precision 1/100 + E[tau] sum_n r[n][k], its mean
  // E[tau] sum_n r[n][k] y_n / that; tau ~ Gamma(1 + N/2, 1 + sum_n sum_k r[n][k] ((y_n - m_k)^2 + v_k) / 2).
  using boost::math::digamma;
  double alpha[2], m[2], v[2];  // alpha from the report's line on pi
  for (int k = 0; k < 2; ++k) m[k] = f.q("mu", static_cast<std::size_t>(k)).a, v[k] = std::pow(f.q("mu", static_cast<std::size_t>(k)).b, 2);
  const double shape = f.q("tau").a, rate = f.q("tau").b;
  int pi_index = -1;
  for (std::size_t k = 0; k < f.c.model.variables.size(); ++k)
    if (f.c.model.variables[k].name == "pi") pi_index = static_cast<int>(k);
  const std::string line = f.engine.describe(pi_index, 10);
  REQUIRE(std::sscanf(line.c_str(), "pi (Dirichlet): alpha %lf, alpha %lf", &alpha[0], &alpha[1]) == 2);
  double next_alpha[2] = {1, 1}, sum_r[2] = {0, 0}, sum_ry[2] = {0, 0}, next_rate = 1;
  const double e_tau = shape / rate, e_log_tau = digamma(shape) - std::log(rate);
  for (double x : y) {
    double r[2], total = 0;
    for (int k = 0; k < 2; ++k) {
      r[k] = std::exp(digamma(alpha[k]) - digamma(alpha[0] + alpha[1]) + 0.5 * e_log_tau - 0.5 * e_tau * ((x - m[k]) * (x - m[k]) + v[k]));
      total += r[k];
    }
    for (int k = 0; k < 2; ++k) {
      r[k] /= total;
      next_alpha[k] += r[k], sum_r[k] += r[k], sum_ry[k] += r[k] * x;
      next_rate += 0.5 * r[k] * ((x - m[k]) * (x - m[k]) + v[k]);
    }
  }
  for (int k = 0; k < 2; ++k) {
    CHECK(alpha[k] == doctest::Approx(next_alpha[k]).epsilon(1e-7));
    const double precision = 0.01 + e_tau * sum_r[k];
    CHECK(m[k] == doctest::Approx(e_tau * sum_ry[k] / precision).epsilon(1e-7));
    CHECK(v[k] == doctest::Approx(1 / precision).epsilon(1e-7));
  }
  CHECK(shape == doctest::Approx(1 + y.size() / 2.0));
  CHECK(rate == doctest::Approx(next_rate).epsilon(1e-7));
  // The components found are the data's two groups (one start suffices on data this
  // separated): means near -2 and 3 in some order.
  CHECK(std::min(m[0], m[1]) == doctest::Approx(-2.0).epsilon(0.1));
  CHECK(std::max(m[0], m[1]) == doctest::Approx(3.06).epsilon(0.1));
}

namespace {

// The mean, sd and E[1/s^2] of q(s) proportional to prior(s) s^-n exp(-q / (2 s^2)): a
// Normal scale's optimal factor given the expected squared residuals q, by quadrature on
// 20000 points of log s from -8 to 4 (the Jacobian s included).
struct scale_moments {
  double mean, sd, inverse_square;
};
scale_moments scale_quadrature(double (*log_prior)(double), double n, double q) {
  std::vector<double> log_w, s;
  double top = -INFINITY;
  for (int j = 0; j < 20000; ++j) {
    const double u = -8 + 12.0 * j / 19999, v = std::exp(u);
    s.push_back(v);
    log_w.push_back(log_prior(v) - n * u - q / (2 * v * v) + u);
    top = std::max(top, log_w.back());
  }
  double total = 0, first = 0, second = 0, inv = 0;
  for (std::size_t j = 0; j < s.size(); ++j) {
    const double w = std::exp(log_w[j] - top);
    total += w, first += w * s[j], second += w * s[j] * s[j], inv += w / (s[j] * s[j]);
  }
  const double mean = first / total;
  return {mean, std::sqrt(second / total - mean * mean), inv / total};
}

}  // namespace

TEST_CASE("a scale without a conjugate update (half-Cauchy) on a grid: the fixed point that fine quadrature gives") {
  const std::vector<double> x = {-1.5, -0.5, 0.2, 1.0, 2.0, 0.7, -0.9}, y = {-2.1, 0.4, 0.3, 1.9, 2.6, 1.1, -0.8};
  fitted f({"half-Cauchy scale", "data x: real[N]\ndata y: real[N]\nparam b: real[2]\ns ~ HalfCauchy(5)\n"
                                 "for n in 1:N { y[n] ~ Normal(b[1] + b[2] * x[n], s) }\n",
            {"x=[-1.5,-0.5,0.2,1.0,2.0,0.7,-0.9]", "y=[-2.1,0.4,0.3,1.9,2.6,1.1,-0.8]"}, 0});
  converge(f.engine);
  // By hand: q(b) = N(P^-1 X'y E[1/s^2], P^-1) with P = X'X E[1/s^2] (the prior flat);
  // q(s) proportional to HalfCauchy(s | 5) s^-N exp(-Q / (2 s^2)), Q = |y - X m|^2 + tr(X'X P^-1),
  // its moments by quadrature.
  const auto n = static_cast<Eigen::Index>(y.size());
  Eigen::MatrixXd X(n, 2);
  Eigen::VectorXd Y(n);
  for (Eigen::Index i = 0; i < n; ++i) X(i, 0) = 1, X(i, 1) = x[static_cast<std::size_t>(i)], Y[i] = y[static_cast<std::size_t>(i)];
  double inverse_square = 1, s_mean = 0, s_sd = 0;
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
  for (int k = 0; k < 200; ++k) {
    covariance = (X.transpose() * X * inverse_square).inverse();
    mean = covariance * X.transpose() * Y * inverse_square;
    const double q = (Y - X * mean).squaredNorm() + (X.transpose() * X * covariance).trace();
    const scale_moments m = scale_quadrature([](double v) { return -std::log1p(v * v / 25); }, static_cast<double>(n), q);
    s_mean = m.mean, s_sd = m.sd, inverse_square = m.inverse_square;
  }
  const inference::q_factor& scale = f.q("s");
  CHECK(scale.a == doctest::Approx(s_mean).epsilon(2e-3));  // the grid's resolution: 64 points over 12 sd
  CHECK(scale.b == doctest::Approx(s_sd).epsilon(1e-2));
  for (int k = 0; k < 2; ++k) {
    CHECK(f.q("b", static_cast<std::size_t>(k)).a == doctest::Approx(mean[k]).epsilon(2e-3));
    CHECK(f.q("b", static_cast<std::size_t>(k)).b == doctest::Approx(std::sqrt(covariance(k, k))).epsilon(2e-3));
  }
}

TEST_CASE("indicators beside a scale on a grid (one design over both): the fixed point that fine quadrature gives") {
  // Known components N(-2, s) and N(2, s) with weights 0.4 and 0.6, indicators z[n], and
  // a half-normal scale, which has no conjugate update.
  const std::vector<double> y = {-2.3, -1.1, 1.7, 2.9, 0.2, -2.8, 2.2, 1.4, -0.4, 2.6};
  fitted f({"indicators and a grid", "data y: real[N]\ns ~ HalfNormal(2)\nfor n in 1:N {\n  z[n] ~ Bernoulli(0.6)\n"
                                     "  y[n] ~ Normal(4 * z[n] - 2, s)\n}\n",
            {"y=[-2.3,-1.1,1.7,2.9,0.2,-2.8,2.2,1.4,-0.4,2.6]"}, 0});
  converge(f.engine);
  // By hand: q(z[n] = 1) proportional to 0.6 exp(-(y - 2)^2 E[1/s^2] / 2), against 0.4
  // exp(-(y + 2)^2 E[1/s^2] / 2) (E log s is common to both); q(s) proportional to
  // HalfNormal(s | 2) s^-N exp(-Q / (2 s^2)), Q = sum_n E(y_n - mu_z[n])^2, by quadrature.
  double inverse_square = 1, s_mean = 0, s_sd = 0;
  std::vector<double> r(y.size());
  for (int k = 0; k < 200; ++k) {
    double q = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double up = std::log(0.6) - 0.5 * (y[i] - 2) * (y[i] - 2) * inverse_square;
      const double down = std::log(0.4) - 0.5 * (y[i] + 2) * (y[i] + 2) * inverse_square;
      r[i] = 1 / (1 + std::exp(down - up));
      q += r[i] * (y[i] - 2) * (y[i] - 2) + (1 - r[i]) * (y[i] + 2) * (y[i] + 2);
    }
    const scale_moments m = scale_quadrature([](double v) { return -v * v / 8; }, static_cast<double>(y.size()), q);
    s_mean = m.mean, s_sd = m.sd, inverse_square = m.inverse_square;
  }
  const inference::q_factor& scale = f.q("s");
  CHECK(scale.a == doctest::Approx(s_mean).epsilon(2e-3));  // the grid's resolution
  CHECK(scale.b == doctest::Approx(s_sd).epsilon(1e-2));
  // Each indicator's most probable value is the hand-written one's.
  for (std::size_t i = 0; i < y.size(); ++i) CHECK(f.q("z", i).a == (r[i] > 0.5 ? 1 : 0));
}

TEST_CASE("the funnel's mean-field q (v on a grid) is flagged as unreliable, by k-hat or by the ratios' ESS") {
  // q(v)'s sd is 0.49 against the posterior's 3. Whether the draws show it depends on them:
  // at 2,000 and at 4,000 draws, seeds 1-12 from the command line flag it at 11 seeds (seed
  // 10: k-hat 0.57, ESS 12%); at 250 it can pass unseen. So a fixed seed and 4,000 draws,
  // not shortened for the sanitized build.
  const compiled funnel = compile({"funnel", "v ~ Normal(0, 3)\nfor i in 1:9 { x[i] ~ Normal(0, exp(v / 2)) }\n", {}, 0});
  auto o = options(1000);
  o.particles = 4000;
  const auto r = inference::vb_sample(funnel.model, funnel.data, o);
  INFO("k-hat ", r.pareto_k, ", ESS ", r.ess, " of ", r.row_count);
  CHECK(r.unreliable);
  CHECK_FALSE(std::isfinite(r.evidence.se));
}

TEST_CASE("with one unknown q is the posterior, and the ELBO the exact log evidence") {
  // Dirichlet(1, 1, 1) and Multinomial(6, theta) counts (1, 2, 3): p(y) = 6! / (1! 2! 3!) B(2, 3, 4) / B(1, 1, 1).
  const double multinomial_log_z = std::log(60.0) + std::lgamma(2) + std::lgamma(3) + std::lgamma(4) - std::lgamma(9) - (-std::lgamma(3));
  const model_case dirichlet_multinomial{"dirichlet-multinomial", "data y: int[3]\ntheta ~ Dirichlet([1, 1, 1])\ny ~ Multinomial(6, theta)\n",
                                         {"y=[1,2,3]"}, multinomial_log_z};
  for (const model_case& m : {beta_bernoulli(), normal_normal(), gamma_poisson(), dirichlet_categorical(), dirichlet_multinomial}) {
    INFO(m.name);
    fitted f(m);
    CHECK(converge(f.engine) == doctest::Approx(m.log_z).epsilon(1e-10));
  }
}

namespace {

// log of the Wishart's normaliser, (nu K / 2) log 2 + (nu / 2) log |S| + log Gamma_K(nu / 2).
double log_wishart_normaliser(double nu, const Eigen::MatrixXd& s) {
  const auto k = static_cast<double>(s.rows());
  double out = 0.5 * nu * k * std::log(2.0) + 0.5 * nu * std::log(s.determinant()) + 0.25 * k * (k - 1) * std::log(M_PI);
  for (int j = 1; j <= s.rows(); ++j) out += std::lgamma(0.5 * nu + 0.5 * (1 - j));
  return out;
}

}  // namespace

TEST_CASE("a Wishart precision (and an InverseWishart covariance): q is the posterior with a known mean, and the hand-written fixed point with a normal mean") {
  const std::vector<std::array<double, 2>> x = {{1.2, 0.4}, {-0.3, -0.9}, {0.8, 1.5}, {2.1, 0.7}, {0.1, -0.2}, {1.0, 1.1}};
  const char* data = "x=[[1.2,0.4],[-0.3,-0.9],[0.8,1.5],[2.1,0.7],[0.1,-0.2],[1.0,1.1]]";
  const double nu0 = 4;
  Eigen::Matrix2d s0;
  s0 << 0.5, 0.1, 0.1, 0.3;
  const Eigen::Matrix2d s0_inverse = s0.inverse();
  const double n = static_cast<double>(x.size());
  auto scatter_about = [&](const Eigen::Vector2d& m) {
    Eigen::Matrix2d a = Eigen::Matrix2d::Zero();
    for (const auto& xi : x) {
      const Eigen::Vector2d r(xi[0] - m[0], xi[1] - m[1]);
      a += r * r.transpose();
    }
    return a;
  };
  auto check_wishart = [&](fitted& f, double nu, const Eigen::Matrix2d& scale) {
    for (int i = 0; i < 4; ++i) {
      const inference::q_factor& e = f.q("W", static_cast<std::size_t>(i));
      CHECK(e.a == doctest::Approx(nu * scale(i / 2, i % 2)).epsilon(1e-8));
    }
    CHECK(f.engine.family(static_cast<int>(std::find_if(f.c.model.variables.begin(), f.c.model.variables.end(),
                                                         [](const auto& v) { return v.name == "W"; }) - f.c.model.variables.begin())) == "Wishart");
  };
  // A known mean: q(W) is the posterior Wishart(nu0 + n, (S0^-1 + A)^-1), and the ELBO the
  // log evidence, -(n K / 2) log(2 pi) + log Z(nu_n, S_n) - log Z(nu0, S0).
  {
    fitted f({"known mean", "data x: real[N, 2]\nW ~ Wishart(4, [[0.5, 0.1], [0.1, 0.3]])\n"
                            "for i in 1:N { x[i] ~ MultiNormalPrec([0.5, 0.3], W) }\n", {data}, 0});
    const double elbo = converge(f.engine);
    const Eigen::Matrix2d scale = (s0_inverse + scatter_about(Eigen::Vector2d(0.5, 0.3))).inverse();
    check_wishart(f, nu0 + n, scale);
    const double log_z = -n * std::log(2 * M_PI) + log_wishart_normaliser(nu0 + n, scale) - log_wishart_normaliser(nu0, s0);
    CHECK(elbo == doctest::Approx(log_z).epsilon(1e-10));
  }
  // The same data with an InverseWishart(4, S0^-1) covariance C = W^-1: the same
  // posterior, so q(C) = InverseWishart(nu0 + n, S0^-1 + A), whose mean is its scale over
  // nu - K - 1, and the ELBO is the same log evidence.
  {
    fitted f({"known mean, covariance", "data x: real[N, 2]\nC ~ InverseWishart(4, inverse([[0.5, 0.1], [0.1, 0.3]]))\n"
                                        "for i in 1:N { x[i] ~ MultiNormal([0.5, 0.3], C) }\n", {data}, 0});
    const double elbo = converge(f.engine);
    const Eigen::Matrix2d scale = s0_inverse + scatter_about(Eigen::Vector2d(0.5, 0.3));
    for (int i = 0; i < 4; ++i) CHECK(f.q("C", static_cast<std::size_t>(i)).a == doctest::Approx(scale(i / 2, i % 2) / (nu0 + n - 3)).epsilon(1e-8));
    const double log_z = -n * std::log(2 * M_PI) + log_wishart_normaliser(nu0 + n, scale.inverse()) - log_wishart_normaliser(nu0, s0);
    CHECK(elbo == doctest::Approx(log_z).epsilon(1e-10));
  }
  // An unknown mean mu ~ MultiNormalPrec(0, I / 4): q(mu) = N(m, L^-1), L = I / 4 + n E[W],
  // m = L^-1 E[W] sum x_i; q(W) = Wishart(nu0 + n, (S0^-1 + A(m) + n L^-1)^-1).
  fitted f({"unknown mean", "data x: real[N, 2]\nmu ~ MultiNormalPrec([0, 0], [[0.25, 0], [0, 0.25]])\n"
                            "W ~ Wishart(4, [[0.5, 0.1], [0.1, 0.3]])\nfor i in 1:N { x[i] ~ MultiNormalPrec(mu, W) }\n", {data}, 0});
  converge(f.engine);
  Eigen::Vector2d total = Eigen::Vector2d::Zero();
  for (const auto& xi : x) total += Eigen::Vector2d(xi[0], xi[1]);
  Eigen::Matrix2d scale = s0, covariance;
  Eigen::Vector2d mean;
  for (int k = 0; k < 10000; ++k) {
    const Eigen::Matrix2d expected_w = (nu0 + n) * scale;
    covariance = (Eigen::Matrix2d::Identity() / 4 + n * expected_w).inverse();
    mean = covariance * expected_w * total;
    scale = (s0_inverse + scatter_about(mean) + n * covariance).inverse();
  }
  check_wishart(f, nu0 + n, scale);
  for (int k = 0; k < 2; ++k) check_factor(f.q("mu", static_cast<std::size_t>(k)), "Normal", mean[k], std::sqrt(covariance(k, k)));
}

TEST_CASE("a missing covariate is a factor of its own; the given values stay as they are") {
  fitted f({"missing covariate",
            "data x: real[N]\ndata y: real[N]\nb ~ Normal(0, 5)\nfor n in 1:N {\n  x[n] ~ Normal(0, 2)\n  y[n] ~ Normal(1 + b * x[n], 1)\n}\n",
            {"x=[1,null,2]", "y=[2,3,4]"}, 0});
  converge(f.engine);
  // q(b): precision 1/25 + sum E[x^2], mean sum (y - 1) E[x] / precision;
  // q(x[2]): precision 1/4 + E[b^2], mean E[b] (3 - 1) / precision.
  double m2 = 0, v2 = 0, mb = 0, vb = 0;
  for (int k = 0; k < 10000; ++k) {
    const double p = 1.0 / 25 + 1 + m2 * m2 + v2 + 4;
    mb = (1 + 2 * m2 + 6) / p, vb = 1 / p;
    const double p2 = 0.25 + mb * mb + vb;
    m2 = 2 * mb / p2, v2 = 1 / p2;
  }
  check_factor(f.q("b"), "Normal", mb, std::sqrt(vb));
  check_factor(f.q("x", 1), "Normal", m2, std::sqrt(v2));
  CHECK(f.q("x", 0).family == nullptr);
  CHECK(f.q("x", 0).mean() == 1);
  CHECK(f.q("x", 2).mean() == 2);
}

TEST_CASE("CAVI refuses, by name, an unknown with no update: a vector that is neither conjugate, nor Normal and affine, nor a scalar") {
  try {
    fitted f({"logistic", "data x: real[N]\ndata y: int[N]\nfor k in 1:2 { b[k] ~ Normal(0, 1) }\n"
                          "for n in 1:N { y[n] ~ Bernoulli(inv_logit(b[1] + b[2] * x[n])) }\n",
              {"x=[1,2,3]", "y=[0,1,1]"}, 0});
    FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("`b` has none of these updates") != std::string::npos);
  }
}

}  // namespace test_cavi
