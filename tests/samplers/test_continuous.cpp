// Non-conjugate continuous models: slice and rwmh against quadrature, a Normal-Gamma
// model against its Student-t marginal, and reproducibility.
#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>

#include "tests/samplers/inference_fixture.hpp"

namespace test_continuous {

using namespace ppl::testing;

namespace {


// Posterior means of a and b by quadrature on a fine grid.
std::pair<double, double> logistic_reference() {
  double xs[] = {-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5};
  int ys[] = {0, 0, 1, 0, 0, 1, 1, 0, 1, 1};
  double total = 0, ma = 0, mb = 0;
  for (int i = 0; i < 600; ++i)
    for (int j = 0; j < 600; ++j) {
      double a = -6 + 12 * (i + 0.5) / 600, b = -4 + 12 * (j + 0.5) / 600;
      double lp = -a * a / 8 - b * b / 8;
      for (int n = 0; n < 10; ++n) {
        double eta = a + b * xs[n];
        lp += ys[n] ? -std::log1p(std::exp(-eta)) : -std::log1p(std::exp(eta));
      }
      double w = std::exp(lp);
      total += w, ma += w * a, mb += w * b;
    }
  return {ma / total, mb / total};
}

ppl::inference::run_options options(long draws, std::uint64_t seed) { return two_chains(500, draws, seed); }

}  // namespace

TEST_CASE("logistic regression: nuts (the default) and slice against quadrature") {
  auto [ea, eb] = logistic_reference();
  for (const char* kind : {"nuts", "slice"}) {
    INFO(kind);
    auto o = options(2000, 3);
    if (std::string(kind) != "nuts") o.overrides = {{"a", kind}, {"b", kind}};
    auto p = infer(logistic, logistic_data, o);
    CHECK(p.kind("a") == kind);
    check_mean(p, "a", ea);
    check_mean(p, "b", eb);
  }
}

TEST_CASE("logistic regression: rwmh against quadrature") {
  auto [ea, eb] = logistic_reference();
  auto o = options(6000, 4);
  o.overrides = {{"a", "rwmh"}, {"b", "rwmh"}};
  auto p = infer(logistic, logistic_data, o);
  CHECK(p.kind("a") == "rwmh");
  check_mean(p, "a", ea);
  check_mean(p, "b", eb);
}

TEST_CASE("Normal-Gamma: unknown mean and precision; the mean's marginal is Student-t") {
  // mu | tau ~ Normal(0, 1 / sqrt(k0 tau)), tau ~ Gamma(a0, b0); data y.
  auto p = infer("data y: real[N]\ntau ~ Gamma(3, 2)\nmu ~ Normal(0, 1 / sqrt(tau))\nfor n in 1:N { y[n] ~ Normal(mu, 1 / sqrt(tau)) }\n",
                 {"y=[1.2,0.7,2.1,1.5,0.9]"}, options(4000, 9));
  // Posterior: k = 1 + 5, m = sum(y) / 6, a = 3 + 5/2, b = 2 + (sum y^2 - 6 m^2) / 2.
  CHECK(p.kind("tau") == "conjugate");  // Gamma prior on a precision
  CHECK(p.kind("mu") == "conjugate");   // Normal prior on a mean
  double sum = 6.4, sum2 = 1.44 + 0.49 + 4.41 + 2.25 + 0.81, m = sum / 6;
  double a = 5.5, b = 2 + 0.5 * (sum2 - 6 * m * m);
  check_mean(p, "mu", m);
  check_mean(p, "tau", a / b);
  // The marginal of mu is Student-t with 2a degrees of freedom and scale sqrt(b / (a k)).
  double scale = std::sqrt(b / (a * 6)), nu = 2 * a;
  check_sd(p, "mu", scale * std::sqrt(nu / (nu - 2)));
}

TEST_CASE("InverseGamma prior on a Normal variance, the mean known") {
  auto p = infer("data y: real[N]\nv ~ InverseGamma(3, 2)\nfor n in 1:N { y[n] ~ Normal(1, sqrt(v)) }\n",
                 {"y=[1.5,0.2,2.4,1.1]"}, options(4000, 13));
  CHECK(p.kind("v") == "conjugate");
  // InverseGamma(3 + 2, 2 + (0.25 + 0.64 + 1.96 + 0.01) / 2): mean b / (a - 1).
  double a = 5, b = 2 + 2.86 / 2;
  check_mean(p, "v", b / (a - 1));
  check_sd(p, "v", b / ((a - 1) * std::sqrt(a - 2)));
}

TEST_CASE("a hierarchical Gamma-Poisson model") {
  auto p = infer("data y: int[J]\nbeta ~ Gamma(1, 1)\nfor j in 1:J { lambda[j] ~ Gamma(2, beta) }\nfor j in 1:J { y[j] ~ Poisson(lambda[j]) }\n",
                 {"y=[3,7,1,4]"}, options(4000, 21));
  CHECK(p.kind("lambda") == "conjugate");
  // E[lambda_j | y] = E[(2 + y_j) / (1 + beta) | y]; check through the draws of beta.
  auto beta = p.column("beta");
  auto expected = beta;
  for (auto& c : expected)
    for (double& x : c) x = (2 + 7.0) / (1 + x);
  check_mean(p, "lambda[2]", ppl::draws::summarize(expected).mean);
}

TEST_CASE("the same seed gives the same draws") {
  auto o = options(50, 77);
  auto p1 = infer(logistic, logistic_data, o);
  auto p2 = infer(logistic, logistic_data, o);
  CHECK(p1.result.draws.chains == p2.result.draws.chains);
  o.chains = 1;
  auto p3 = infer(logistic, logistic_data, o);  // chain 1 does not depend on how many run
  CHECK(p3.result.draws.chains[0] == p1.result.draws.chains[0]);
  CHECK(p1.result.draws.chains[0] != p1.result.draws.chains[1]);
}

TEST_CASE("rwmh on a simplex (stick-breaking) recovers a Dirichlet") {
  // The factor adds nothing, but makes p informed and not conjugate: rwmh claims it, and
  // with the right Jacobian the draws follow the Dirichlet(2, 3, 5) prior.
  auto o = options(8000, 17);
  o.overrides = {{"p", "rwmh"}};
  auto p = infer("p ~ Dirichlet([2.0, 3.0, 5.0])\nfactor 0 * p[1]\n", {}, o);
  CHECK(p.kind("p") == "rwmh");
  check_mean(p, "p[1]", 0.2);
  check_mean(p, "p[3]", 0.5);
  check_sd(p, "p[3]", std::sqrt(0.5 * 0.5 / 11));
}

TEST_CASE("nuts on a simplex (the stick-breaking gradient) recovers a Dirichlet") {
  auto p = infer("p ~ Dirichlet([2.0, 3.0, 5.0])\nfactor 0 * p[1]\n", {}, options(3000, 18));
  CHECK(p.kind("p") == "nuts");
  check_mean(p, "p[1]", 0.2);
  check_mean(p, "p[3]", 0.5);
  check_sd(p, "p[3]", std::sqrt(0.5 * 0.5 / 11));
}

TEST_CASE("slice on an unbounded count: a Binomial's n with a Poisson prior, against the exact sum") {
  // n ~ Poisson(20), y[k] ~ Binomial(n, 1/2) for y = 15, 12, 18: n's support is too large
  // for gibbs, so slice samples it on its continuous extension; its posterior (n >= 18) is
  // summed exactly over n < 200.
  const std::vector<int> ys = {15, 12, 18};
  std::vector<double> weight;
  for (int n = 18; n < 200; ++n) {
    double lp = n * std::log(20.0) - std::lgamma(n + 1.0);
    for (int y : ys) lp += std::lgamma(n + 1.0) - std::lgamma(n - y + 1.0) + n * std::log(0.5);
    weight.push_back(std::exp(lp));
  }
  double total = 0, first = 0, second = 0;
  for (std::size_t i = 0; i < weight.size(); ++i) {
    const double n = 18.0 + static_cast<double>(i);
    total += weight[i], first += n * weight[i], second += n * n * weight[i];
  }
  const double mean = first / total, sd = std::sqrt(second / total - mean * mean);
  auto p = infer("data y: int[K]\nn ~ Poisson(20)\nfor k in 1:K { y[k] ~ Binomial(n, 0.5) }\n", {"y=[15, 12, 18]"}, options(4000, 31));
  CHECK(p.kind("n") == "slice");
  check_mean(p, "n", mean);
  check_sd(p, "n", sd);
  for (const auto& c : p.column("n"))
    for (double x : c) REQUIRE(x == std::floor(x));
}

namespace {

// An AR(1) series observed with noise: x[1] ~ N(0, 1), x[t] ~ N(0.8 x[t-1], 0.5^2),
// y[t] ~ N(x[t], 1). The posterior is Gaussian: precision Q and mean Q^-1 y.
const char* ar1 = "data y: real[T]\nx[1] ~ Normal(0, 1)\nfor t in 2:T { x[t] ~ Normal(0.8 * x[t - 1], 0.5) }\n"
                  "for t in 1:T { y[t] ~ Normal(x[t], 1) }\n";
const std::vector<double> ar1_y = {1.0, 2.0, 0.5, -1.0, 0.3};

std::pair<Eigen::VectorXd, Eigen::VectorXd> ar1_exact() {
  const long n = static_cast<long>(ar1_y.size());
  Eigen::MatrixXd q = Eigen::MatrixXd::Identity(n, n);  // the observations
  q(0, 0) += 1;                                          // x[1]'s prior
  for (long t = 1; t < n; ++t) {
    q(t, t) += 4, q(t - 1, t - 1) += 0.64 * 4, q(t, t - 1) -= 0.8 * 4, q(t - 1, t) -= 0.8 * 4;
  }
  const Eigen::MatrixXd cov = q.inverse();
  return {cov * Eigen::Map<const Eigen::VectorXd>(ar1_y.data(), n), cov.diagonal().cwiseSqrt()};
}

void check_ar1(const posterior& p) {
  const auto [mean, sd] = ar1_exact();
  for (long t = 0; t < mean.size(); ++t) {
    check_mean(p, "x[" + std::to_string(t + 1) + "]", mean[t]);
    check_sd(p, "x[" + std::to_string(t + 1) + "]", sd[t]);
  }
}

}  // namespace

TEST_CASE("an AR(1) series: each element's update sees its successor's term (slice, and the default plan's joint draw)") {
  std::string data = "y=[";
  for (std::size_t i = 0; i < ar1_y.size(); ++i) data += (i ? ", " : "") + std::to_string(ar1_y[i]);
  data += "]";
  auto o = options(4000, 41);
  o.overrides = {{"x", "slice"}};
  auto sliced = infer(ar1, {data}, o);
  CHECK(sliced.kind("x") == "slice");
  check_ar1(sliced);
  // conjugate declines (its pairs see other variables' children only); the path's terms are
  // Normal and affine in it, and the default plan draws it whole (gaussian_block).
  auto p = infer(ar1, {data}, options(4000, 42));
  CHECK(p.kind("x") == "gaussian_block");
  check_ar1(p);
}

TEST_CASE("supports that follow other unknowns: x ~ Uniform(0, theta) and k ~ Binomial(n, 1/2) with n unknown") {
  // theta ~ Gamma(2, 1), x ~ Uniform(0, theta), y ~ Normal(x, 0.3) with y = 2.5: theta's
  // density times 1/theta is exp(-theta), so theta = x + Exp(1) and x's posterior is
  // proportional to exp(-x) N(2.5; x, 0.3) on x > 0, a N(2.41, 0.3) (the cut at 0 is
  // 8 sd away): E theta = 3.41, sd sqrt(1.09).
  auto p = infer("data y: real\ntheta ~ Gamma(2, 1)\nx ~ Uniform(0, theta)\ny ~ Normal(x, 0.3)\n", {"y=2.5"}, options(6000, 43));
  CHECK(p.kind("x") == "nuts");
  check_mean(p, "x", 2.41);
  check_sd(p, "x", 0.3);
  check_mean(p, "theta", 3.41);
  // n ~ Poisson(20) by slice, k ~ Binomial(n, 1/2) by gibbs over 0..n as n moves,
  // y ~ Normal(k, 1) with y = 25: summed exactly over n < 150.
  double total = 0, mean_n = 0, mean_k = 0;
  for (int n = 0; n < 150; ++n)
    for (int k = 0; k <= n; ++k) {
      const double w = std::exp(n * std::log(20.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + n * std::log(0.5) -
                                (25.0 - k) * (25.0 - k) / 2);
      total += w, mean_n += n * w, mean_k += k * w;
    }
  auto q = infer("data y: real\nn ~ Poisson(20)\nk ~ Binomial(n, 0.5)\ny ~ Normal(k, 1)\n", {"y=25"}, options(6000, 44));
  CHECK(q.kind("n") == "slice");
  CHECK(q.kind("k") == "gibbs");
  check_mean(q, "n", mean_n / total);
  check_mean(q, "k", mean_k / total);
}

TEST_CASE("bounds that follow other unknowns move jointly in NUTS: the triangle a + b < 1") {
  // Stan's param a: real<lower=0, upper=1>, b: real<lower=0, upper=1 - a>, flat priors, and
  // a factor N(b; 0.2, 0.1): on the triangle a, b > 0, a + b < 1 the posterior of b is
  // proportional to N(b; 0.2, 0.1) (1 - b), and a given b is uniform on (0, 1 - b);
  // integrated by the midpoint rule below. b's transform follows 1 - a within each
  // trajectory, so none meets the wall a + b = 1: no divergences (with b's bounds fixed
  // per transition, most transitions diverged). c above a with an Exp(1) excess:
  // E c = E a + 1.
  auto p = infer("param a: real<lower=0, upper=1>\nparam b: real<lower=0, upper=1 - a>\nparam c: real<lower=a>\n"
                 "factor -square(b - 0.2) / 0.02 - (c - a)\n", {}, options(4000, 45));
  CHECK(p.kind("b") == "nuts");
  double z = 0, eb = 0, eb2 = 0, ea = 0, ea2 = 0;
  const int n = 100000;
  for (int k = 0; k < n; ++k) {
    const double b = (k + 0.5) / n, w = std::exp(-(b - 0.2) * (b - 0.2) / 0.02) * (1 - b);
    z += w, eb += b * w, eb2 += b * b * w, ea += (1 - b) / 2 * w, ea2 += (1 - b) * (1 - b) / 3 * w;
  }
  eb /= z, eb2 /= z, ea /= z, ea2 /= z;
  check_mean(p, "a", ea);
  check_mean(p, "b", eb);
  check_sd(p, "a", std::sqrt(ea2 - ea * ea));
  check_sd(p, "b", std::sqrt(eb2 - eb * eb));
  check_mean(p, "c", ea + 1);
  const auto& cols = p.result.draws.columns;
  const auto at = std::find(cols.begin(), cols.end(), "divergent__");
  REQUIRE(at != cols.end());
  double divergent = 0;
  for (const auto& chain : p.result.draws.column(static_cast<std::size_t>(at - cols.begin())))
    for (double d : chain) divergent += d;
  CHECK(divergent == 0);
}

TEST_CASE("a support that follows the variable's own elements: x[i] ~ Uniform(0, x[i - 1])") {
  // x[1] ~ U(0, 1), x[2] ~ U(0, x[1]), x[3] ~ U(0, x[2]), y ~ N(x[3], 0.1) with y = 0.3;
  // the exact means by the midpoint rule on the nested intervals (200^3 cells).
  const int cells = 200;
  double total = 0, mean[3] = {};
  for (int i = 0; i < cells; ++i) {
    const double a = (i + 0.5) / cells;
    for (int j = 0; j < cells; ++j) {
      const double b = a * (j + 0.5) / cells;
      for (int k = 0; k < cells; ++k) {
        const double c = b * (k + 0.5) / cells, w = std::exp(-(0.3 - c) * (0.3 - c) / 0.02);  // densities 1/a, 1/b cancel the widths
        total += w, mean[0] += a * w, mean[1] += b * w, mean[2] += c * w;
      }
    }
  }
  auto p = infer("data y: real\nx[1] ~ Uniform(0, 1)\nfor i in 2:3 { x[i] ~ Uniform(0, x[i - 1]) }\ny ~ Normal(x[3], 0.1)\n",
                 {"y=0.3"}, options(6000, 45));
  CHECK(p.kind("x") == "slice");
  for (int i = 0; i < 3; ++i) check_mean(p, "x[" + std::to_string(i + 1) + "]", mean[i] / total);
}

}  // namespace test_continuous
