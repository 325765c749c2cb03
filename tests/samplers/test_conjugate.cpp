// Exact posteriors of conjugate models, within Monte Carlo error (|z| < 4, fixed seeds).
#include <boost/math/special_functions/beta.hpp>

#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/example_text.hpp"

namespace test_conjugate {

using namespace ppl::testing;

namespace {

ppl::inference::run_options quick(long draws = 2000) {
  ppl::inference::run_options o;
  o.chains = 2;
  o.warmup = 200;
  o.draws = draws;
  o.seed = 11;
  return o;
}

// The exact posterior of y = a + b x + noise (sd 0.5) with N(0, 10^2) priors on the
// regression data used below: means of a and b, and the sd of b.
struct regression_posterior {
  double mean_a, mean_b, sd_b;
};
regression_posterior regression() {
  double sx = 2, sxx = 6, n = 4, sy = 8.4, sxy = 0.8 + 2.9 + 10.4;
  double p11 = n / 0.25 + 0.01, p12 = sx / 0.25, p22 = sxx / 0.25 + 0.01, r1 = sy / 0.25, r2 = sxy / 0.25;
  double det = p11 * p22 - p12 * p12;
  return {(p22 * r1 - p12 * r2) / det, (p11 * r2 - p12 * r1) / det, std::sqrt(p11 / det)};
}

}  // namespace

TEST_CASE("Beta-Binomial: the coin") {
  auto p = infer("data y: int[N]\np ~ Beta(1, 1)\nfor n in 1:N { y[n] ~ Bernoulli(p) }\n",
                 {"y=[1,0,1,1,1,0,1,1,0,1,1,1,0,1,1,0,1,1,0,1]"}, quick());
  CHECK(p.kind("p") == "conjugate");
  // 14 heads in 20: Beta(15, 7).
  check_mean(p, "p", 15.0 / 22);
  check_sd(p, "p", std::sqrt(15.0 * 7 / (22.0 * 22 * 23)));
}

TEST_CASE("Beta-Binomial with Binomial children across a plate of groups") {
  auto p = infer("data n: int[G]\ndata y: int[G]\nfor g in 1:G { t[g] ~ Beta(2, 2) }\nfor g in 1:G { y[g] ~ Binomial(n[g], t[g]) }\n",
                 {"n=[10,20,5]", "y=[3,15,5]"}, quick());
  CHECK(p.kind("t") == "conjugate");
  check_mean(p, "t[1]", 5.0 / 14);
  check_mean(p, "t[2]", 17.0 / 24);
  check_mean(p, "t[3]", 7.0 / 9);
}

TEST_CASE("Gamma-Poisson") {
  auto p = infer("data y: int[N]\nlambda ~ Gamma(2, 0.5)\nfor n in 1:N { y[n] ~ Poisson(lambda) }\n", {"y=[3,5,2,4,6,1]"}, quick());
  CHECK(p.kind("lambda") == "conjugate");
  // Gamma(2 + 21, 0.5 + 6)
  check_mean(p, "lambda", 23 / 6.5);
  check_sd(p, "lambda", std::sqrt(23) / 6.5);
}

TEST_CASE("Gamma rates scaled by known exposures: Poisson(theta[i] * t[i]), Exponential(t[i] * r)") {
  auto p = infer("data t: real[N]\ndata x: int[N]\ndata w: real[N]\nfor i in 1:N { theta[i] ~ Gamma(1.5, 2) }\n"
                 "for i in 1:N { x[i] ~ Poisson(theta[i] * t[i]) }\nr ~ Gamma(2, 1)\nfor i in 1:N { w[i] ~ Exponential(t[i] * r) }\n",
                 {"t=[94.3,15.7,62.9]", "x=[5,1,5]", "w=[0.01,0.2,0.05]"}, quick());
  CHECK(p.kind("theta") == "conjugate");
  CHECK(p.kind("r") == "conjugate");
  // theta[i] | x ~ Gamma(1.5 + x[i], 2 + t[i]); r | w ~ Gamma(2 + 3, 1 + sum t w)
  check_mean(p, "theta[1]", 6.5 / 96.3);
  check_sd(p, "theta[1]", std::sqrt(6.5) / 96.3);
  check_mean(p, "theta[2]", 2.5 / 17.7);
  const double rate = 1 + 94.3 * 0.01 + 15.7 * 0.2 + 62.9 * 0.05;
  check_mean(p, "r", 5 / rate);
  check_sd(p, "r", std::sqrt(5) / rate);
}

TEST_CASE("Normal scales with known weights: precision tau * w[i] under Gamma, variance v * c[i] under InverseGamma") {
  auto p = infer("data y: real[N]\ndata w: real[N]\ndata x: real[N]\ntau ~ Gamma(2, 1)\nv ~ InverseGamma(10, 6)\n"
                 "for i in 1:N {\n  y[i] ~ Normal(1, 1 / sqrt(tau * w[i]))\n  x[i] ~ Normal(0, sqrt(w[i] * v))\n}\n",
                 {"y=[0.2,1.9,1.4,0.5]", "w=[1,4,0.5,2]", "x=[0.8,-2.1,0.4,1.5]"}, quick(4000));
  CHECK(p.kind("tau") == "conjugate");
  CHECK(p.kind("v") == "conjugate");
  // tau | y ~ Gamma(2 + 4/2, 1 + sum w (y - 1)^2 / 2); v | x ~ InverseGamma(10 + 4/2, 6 + sum x^2 / (2 w)) (a
  // shape high enough for the sd check's normal approximation: the inverse Gamma's tail is heavy)
  const double rate = 1 + (1 * 0.64 + 4 * 0.81 + 0.5 * 0.16 + 2 * 0.25) / 2;
  check_mean(p, "tau", 4 / rate);
  check_sd(p, "tau", 2 / rate);
  const double scale = 6 + (0.64 / 1 + 4.41 / 4 + 0.16 / 0.5 + 2.25 / 2) / 2;
  check_mean(p, "v", scale / 11);
  check_sd(p, "v", scale / (11 * std::sqrt(10)));
}

TEST_CASE("Conjugate children through a derived alias: lambda[i] = theta[i] * t[i], sigma[j] = 1 / sqrt(tau[j])") {
  // The BUGS way (pumps' lambda[i] <- theta[i] * t[i]): the same exact posteriors as the
  // case above, the alias recomputed after each draw (test_lp checks lp__ with it).
  auto p = infer("data t: real[N]\ndata x: int[N]\ndata y: real[N]\nfor i in 1:N { theta[i] ~ Gamma(1.5, 2) }\n"
                 "for i in 1:N { lambda[i] = theta[i] * t[i] }\nfor i in 1:N { x[i] ~ Poisson(lambda[i]) }\n"
                 "for j in 1:2 { tau[j] ~ Gamma(2, 1) }\nfor j in 1:2 { sigma[j] = 1 / sqrt(tau[j]) }\n"
                 "for i in 1:N { y[i] ~ Normal(1, sigma[1 + i % 2]) }\n",
                 {"t=[94.3,15.7,62.9]", "x=[5,1,5]", "y=[0.2,1.9,1.4]"}, quick(4000));
  CHECK(p.kind("theta") == "conjugate");
  CHECK(p.kind("tau") == "conjugate");
  check_mean(p, "theta[1]", 6.5 / 96.3);
  check_sd(p, "theta[1]", std::sqrt(6.5) / 96.3);
  check_mean(p, "theta[2]", 2.5 / 17.7);
  check_mean(p, "lambda[3]", 6.5 / 64.9 * 62.9);
  // tau[2] has y[1] and y[3]: Gamma(2 + 1, 1 + (0.64 + 0.16) / 2); tau[1] has y[2].
  check_mean(p, "tau[2]", 3 / 1.4);
  check_sd(p, "tau[2]", std::sqrt(3) / 1.4);
  check_mean(p, "tau[1]", 2.5 / (1 + 0.81 / 2));
  // An alias whose child has an unknown in another argument is no conjugate child.
  auto q = infer("data y: real[N]\nmu ~ Normal(0, 3)\ntau ~ Gamma(2, 1)\nsigma = 1 / sqrt(tau)\n"
                 "for i in 1:N { y[i] ~ Normal(mu, sigma) }\n",
                 {"y=[0.2,1.9,1.4]"}, quick(200));
  CHECK(q.kind("tau") != "conjugate");
}

namespace {

// log of the marginal likelihood of counts x given rates theta * c[i], theta ~ Gamma(a, b),
// without the x[i]! terms: sum x log c + a log b - lgamma(a) + lgamma(a + X) - (a + X) log(b + C).
double gamma_poisson_marginal(const std::vector<int>& x, const std::vector<double>& c, double a, double b) {
  double X = 0, C = 0, out = a * std::log(b) - std::lgamma(a);
  for (std::size_t i = 0; i < x.size(); ++i) out += x[i] * std::log(c[i]), X += x[i], C += c[i];
  return out + std::lgamma(a + X) - (a + X) * std::log(b + C);
}

}  // namespace

TEST_CASE("A rate's factor that reads another unknown: conjugate given it, directly and through an alias") {
  // k in {1, 2} multiplies every exposure; given k, theta and phi are Gamma-Poisson. Their
  // marginal posteriors are mixtures over p(k | x, y), which the Negative Binomial
  // marginals give exactly: the conjugate updates must read k's current value each time.
  const std::vector<int> x = {3, 7, 4}, y = {2, 9};
  const std::vector<double> t = {1.5, 2.0, 0.8}, s = {1.0, 3.0};
  auto p = infer("data x: int[N]\ndata t: real[N]\ndata y: int[M]\ndata s: real[M]\nk ~ Categorical([0.3, 0.7])\n"
                 "theta ~ Gamma(2, 1)\nfor i in 1:N { x[i] ~ Poisson(theta * (t[i] * k)) }\n"
                 "phi ~ Gamma(3, 2)\nfor j in 1:M { lambda[j] = s[j] * k * phi }\nfor j in 1:M { y[j] ~ Poisson(lambda[j]) }\n",
                 {"x=[3,7,4]", "t=[1.5,2.0,0.8]", "y=[2,9]", "s=[1.0,3.0]"}, quick(8000));
  CHECK(p.kind("theta") == "conjugate");
  CHECK(p.kind("phi") == "conjugate");
  CHECK(p.kind("k") == "gibbs");
  double log_w[2], theta_mean[2], phi_mean[2];
  for (int k = 1; k <= 2; ++k) {
    std::vector<double> ct, cs;
    for (double v : t) ct.push_back(v * k);
    for (double v : s) cs.push_back(v * k);
    log_w[k - 1] = std::log(k == 1 ? 0.3 : 0.7) + gamma_poisson_marginal(x, ct, 2, 1) + gamma_poisson_marginal(y, cs, 3, 2);
    theta_mean[k - 1] = (2.0 + 14) / (1 + 4.3 * k);
    phi_mean[k - 1] = (3.0 + 11) / (2 + 4.0 * k);
  }
  const double w2 = 1 / (1 + std::exp(log_w[0] - log_w[1]));
  check_mean(p, "k", 1 + w2);
  check_mean(p, "theta", (1 - w2) * theta_mean[0] + w2 * theta_mean[1]);
  check_mean(p, "phi", (1 - w2) * phi_mean[0] + w2 * phi_mean[1]);
  // A factor that reads the rate itself, through a derived variable, is no such child.
  auto q = infer("data x: int[N]\ntheta ~ Gamma(2, 1)\nu = theta + 1\nfor i in 1:N { x[i] ~ Poisson(theta * u) }\n", {"x=[3,7,4]"}, quick(200));
  CHECK(q.kind("theta") != "conjugate");
}

TEST_CASE("Normal mean with known variance") {
  auto p = infer("data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ Normal(mu, 0.5) }\n", {"y=[0.3,0.9,1.4,0.2]"}, quick());
  CHECK(p.kind("mu") == "conjugate");
  double precision = 1 / 4.0 + 4 / 0.25, mean = (1 / 4.0 + 2.8 / 0.25) / precision;
  check_mean(p, "mu", mean);
  check_sd(p, "mu", 1 / std::sqrt(precision));
}

TEST_CASE("Dirichlet-Multinomial") {
  auto p = infer("data x: int[3]\ntheta ~ Dirichlet([1.0, 2.0, 3.0])\nx ~ Multinomial(sum(x), theta)\n", {"x=[4,0,6]"}, quick());
  CHECK(p.kind("theta") == "conjugate");
  check_mean(p, "theta[1]", 5.0 / 16);
  check_mean(p, "theta[2]", 2.0 / 16);
  check_mean(p, "theta[3]", 9.0 / 16);
}

// a and b each by its own conjugate update (the planner would draw them jointly, by
// gaussian_block: tests/samplers/test_gaussian_block.cpp).
ppl::inference::run_options separately(ppl::inference::run_options o) {
  o.overrides = {{"a", "conjugate"}, {"b", "conjugate"}};
  return o;
}

TEST_CASE("Normal means through a linear expression: regression coefficients") {
  // y[n] ~ Normal(a + b * x[n], 0.5) with Normal(0, 10) priors: each of a and b is
  // conjugate given the other; the joint posterior is Gaussian with known moments.
  auto p = infer("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\n"
                 "for n in 1:N { y[n] ~ Normal(a + b * x[n], 0.5) }\n",
                 {"x=[-1,0,1,2]", "y=[-0.8,1.1,2.9,5.2]"}, separately(quick(4000)));
  CHECK(p.kind("a") == "conjugate");
  CHECK(p.kind("b") == "conjugate");
  auto exact = regression();
  check_mean(p, "a", exact.mean_a);
  check_mean(p, "b", exact.mean_b);
  check_sd(p, "b", exact.sd_b);
}

TEST_CASE("Normal means read through data indices: varying intercepts, each from its own group's children") {
  // y[n] ~ Normal(a[g[n]] + 0.5 * x[n], 1), a[j] ~ Normal(0, 2): given the known slope and
  // scale each a[j] is an independent Normal update from the rows of its group, precision
  // 1/4 + n_j and mean sum(y - 0.5 x) over them divided by it. The rows go as columns
  // (conjugate.cpp, make_rows).
  const std::vector<int> g = {1, 2, 3, 1, 2, 1, 3, 3, 1};
  const std::vector<double> x = {0.5, -1, 2, 0.1, 0.3, -0.7, 1.1, 0, 1.5}, y = {1.2, -0.4, 2.5, 0.9, 0.1, 0.5, 2.9, 1.7, 1.8};
  auto p = infer("data g: int[N]\ndata x: real[N]\ndata y: real[N]\nfor j in 1:3 { a[j] ~ Normal(0, 2) }\n"
                 "for n in 1:N { y[n] ~ Normal(a[g[n]] + 0.5 * x[n], 1) }\n",
                 {"g=[1,2,3,1,2,1,3,3,1]", "x=[0.5,-1,2,0.1,0.3,-0.7,1.1,0,1.5]", "y=[1.2,-0.4,2.5,0.9,0.1,0.5,2.9,1.7,1.8]"},
                 quick(4000));
  CHECK(p.kind("a") == "conjugate");
  for (int j = 1; j <= 3; ++j) {
    double precision = 0.25, sum = 0;
    for (std::size_t n = 0; n < g.size(); ++n)
      if (g[n] == j) precision += 1, sum += y[n] - 0.5 * x[n];
    const std::string name = "a[" + std::to_string(j) + "]";
    check_mean(p, name, sum / precision);
    check_sd(p, name, 1 / std::sqrt(precision));
  }
}

TEST_CASE("Beta-NegativeBinomial through the odds p / (1 - p)") {
  auto p = infer("data y: int[N]\nq ~ Beta(2, 3)\nfor n in 1:N { y[n] ~ NegativeBinomial(4, q / (1 - q)) }\n", {"y=[3,0,5,2]"},
                 quick());
  CHECK(p.kind("q") == "conjugate");
  // Beta(2 + 4 * 4, 3 + 10)
  check_mean(p, "q", 18.0 / 31);
}

TEST_CASE("MultiNormal prior on regression weights, Normal children linear in them") {
  auto p = infer("data X: real[N, 2]\ndata y: real[N]\nw ~ MultiNormal([0.0, 0.0], [[100.0, 0.0], [0.0, 100.0]])\n"
                 "for n in 1:N { y[n] ~ Normal(dot(w, X[n]) + 1, 0.5) }\n",
                 {"X=[[1,-1],[1,0],[1,1],[1,2]]", "y=[0.2,2.1,3.9,6.2]"}, quick(4000));
  CHECK(p.kind("w") == "conjugate");
  auto exact = regression();  // the a + b x regression, with y shifted by the offset 1
  check_mean(p, "w[1]", exact.mean_a);
  check_mean(p, "w[2]", exact.mean_b);
  check_sd(p, "w[2]", exact.sd_b);
}

TEST_CASE("Normal means through a linear deterministic node: mu[n] = a + b * x[n]") {
  auto p = infer("data x: real[N]\ndata y: real[N]\na ~ Normal(0, 10)\nb ~ Normal(0, 10)\n"
                 "for n in 1:N { mu[n] = a + b * x[n] }\nfor n in 1:N { y[n] ~ Normal(mu[n], 0.5) }\n",
                 {"x=[-1,0,1,2]", "y=[-0.8,1.1,2.9,5.2]"}, separately(quick(4000)));
  CHECK(p.kind("a") == "conjugate");
  CHECK(p.kind("b") == "conjugate");
  auto exact = regression();
  check_mean(p, "a", exact.mean_a);
  check_mean(p, "b", exact.mean_b);
}

TEST_CASE("pumps: theta's conjugate update (exposures t[i]) agrees with a long NUTS run of the same model") {
  // Issue 17's check of the scaled Gamma-Poisson pair on the BUGS example: every posterior
  // mean within 4 combined Monte Carlo standard errors of NUTS moving theta, alpha and beta.
  const std::string model = ppl::testing::example_text("bench/models/pumps.ppl");
  const std::vector<std::string> data = {"t=[94.3,15.7,62.9,126,5.24,31.4,1.05,1.05,2.1,10.5]", "x=[5,1,5,14,3,19,1,1,4,22]"};
  auto conj = infer(model, data, quick(5000));
  CHECK(conj.kind("theta") == "conjugate");
  auto o = quick(10000);
  o.seed = 12;
  o.warmup = 1000;
  o.overrides = {{"theta", "nuts"}, {"alpha", "nuts"}, {"beta", "nuts"}};
  auto nuts = infer(model, data, o);
  CHECK(nuts.kind("theta") == "nuts");
  for (const std::string name : {"theta[1]", "theta[5]", "theta[6]", "theta[9]", "theta[10]", "alpha", "beta"}) {
    const auto a = conj.summary(name), b = nuts.summary(name);
    INFO(name, ": conjugate ", a.mean, " (mcse ", a.mcse_mean, "), nuts ", b.mean, " (mcse ", b.mcse_mean, ")");
    CHECK(std::fabs(a.mean - b.mean) < 4 * std::hypot(a.mcse_mean, b.mcse_mean));
  }
}

}  // namespace test_conjugate
