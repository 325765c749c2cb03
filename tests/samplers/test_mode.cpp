// The mode search and the Laplace approximation (inference/mode.hpp, laplace.cpp) on
// posteriors whose mode, curvature and evidence have closed forms: exact up to the
// optimiser's tolerance and the finite differences' error (both far below the 1e-6 used),
// a Monte Carlo check of the draws at a fixed seed (4 standard errors), and the Pareto
// k-hat that flags a posterior no normal fits.
#include <doctest/doctest.h>

#include <boost/random/normal_distribution.hpp>

#include "inference/mode.hpp"
#include "tests/samplers/evidence_cases.hpp"

namespace test_mode {

using namespace ppl;
using namespace evidence_cases;

namespace {

double value_of(const inference::weighted_result& r, const std::string& name) { return r.rows[column_of(r, name)]; }

// The regression case's exact posterior: precision X'X / 0.25 + I / 100, mean P^-1 X'y / 0.25.
struct regression_posterior {
  Eigen::Matrix2d precision;
  Eigen::Vector2d mean;
  regression_posterior() {
    Eigen::MatrixXd x(5, 2);
    Eigen::VectorXd y(5);
    for (int i = 0; i < 5; ++i) x(i, 0) = 1, x(i, 1) = regression_x[static_cast<std::size_t>(i)], y[i] = regression_y[static_cast<std::size_t>(i)];
    precision = x.transpose() * x / 0.25 + Eigen::Matrix2d::Identity() / 100;
    mean = precision.ldlt().solve(x.transpose() * y / 0.25);
  }
};

}  // namespace

TEST_CASE("Laplace is exact on a Gaussian linear model: its mode, precision and evidence") {
  const model_case c = regression();
  const compiled m = compile(c);
  auto o = options(4000);
  inference::mode_problem problem(m.model, m.data, o, "laplace");
  const inference::mode_result found = inference::find_mode(problem.target(), 2000);
  INFO("stopped: ", found.stopped);
  CHECK(found.converged);
  const inference::normal_approximation q = inference::laplace_fit(problem.target(), found);
  const regression_posterior exact;
  for (int k = 0; k < 2; ++k) CHECK(q.mean[k] == doctest::Approx(exact.mean[k]).epsilon(1e-6));
  const Eigen::MatrixXd precision = q.factor * q.factor.transpose();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) CHECK(precision(i, j) == doctest::Approx(exact.precision(i, j)).epsilon(1e-6));
  CHECK(q.log_evidence == doctest::Approx(c.log_z).epsilon(1e-8));

  // The draws: means within 4 standard errors of the exact ones, and the ratios p / q all
  // equal (the approximation is the posterior), so nothing is flagged.
  const auto r = inference::laplace_sample(m.model, m.data, o);
  CHECK_FALSE(r.unreliable);
  CHECK(r.warnings.empty());
  CHECK(r.ess == doctest::Approx(static_cast<double>(r.row_count)).epsilon(1e-6));
  CHECK(r.evidence.log_z == doctest::Approx(c.log_z).epsilon(1e-8));
  const Eigen::Matrix2d covariance = exact.precision.inverse();
  for (const auto& [name, k] : {std::pair{"a", 0}, std::pair{"b", 1}}) {
    const auto v = values(r, name);
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    const double se = std::sqrt(covariance(k, k) / static_cast<double>(v.size()));
    INFO(name, ": draws' mean ", mean, ", exact ", exact.mean[k], ", se ", se);
    CHECK(std::abs(mean - exact.mean[k]) < 4 * se);
  }
}

TEST_CASE("optimize: the mode with the Jacobian, and without it the constrained posterior's") {
  // Beta(2, 3) and 3 of 4: the posterior is Beta(5, 4), whose mode is 4/7; on the logit
  // scale, with the Jacobian p (1 - p), the mode is at p = 5/9.
  const compiled coin = compile(beta_bernoulli());
  auto o = options(10);
  CHECK(value_of(inference::optimize_mode(coin.model, coin.data, o), "p") == doctest::Approx(5.0 / 9).epsilon(1e-7));
  o.jacobian = false;
  CHECK(value_of(inference::optimize_mode(coin.model, coin.data, o), "p") == doctest::Approx(4.0 / 7).epsilon(1e-7));
  // A simplex, through the stick-breaking transform: the posterior Dirichlet(2, 4, 2.5)'s
  // mode (a - 1) / (sum(a) - 3) without the Jacobian, a / sum(a) with it.
  const compiled dirichlet = compile(dirichlet_categorical());
  const double a[3] = {2, 4, 2.5};
  for (bool jacobian : {true, false}) {
    o.jacobian = jacobian;
    const auto r = inference::optimize_mode(dirichlet.model, dirichlet.data, o);
    for (int k = 0; k < 3; ++k) {
      const double expected = jacobian ? a[k] / 8.5 : (a[k] - 1) / 5.5;
      INFO("jacobian ", jacobian, ", theta[", k + 1, "]");
      CHECK(value_of(r, "theta[" + std::to_string(k + 1) + "]") == doctest::Approx(expected).epsilon(1e-6));
    }
  }
}

TEST_CASE("Laplace's k-hat flags a funnel, and what a mode search cannot take is refused by name") {
  // Neal's funnel, v and nine x: at the mode (v = -40.5, x = 0) the x's scale is
  // fixed at one value of v, where the posterior's spans e^(+-3); the ratios' tail is heavy
  // (k-hat 0.97-1.51 over seeds 1-8 from the command line, ppl 0.2.0).
  const compiled funnel = compile({"funnel", "v ~ Normal(0, 3)\nfor i in 1:9 { x[i] ~ Normal(0, exp(v / 2)) }\n", {}, 0});
  auto o = options(2000);
  const auto r = inference::laplace_sample(funnel.model, funnel.data, o);
  INFO("k-hat ", r.pareto_k);
  CHECK(r.pareto_k > 0.7);
  CHECK(r.unreliable);
  REQUIRE_FALSE(r.warnings.empty());
  CHECK(r.warnings.back().find("k-hat") != std::string::npos);

  // Discrete unknowns that cannot be summed element by element: the mark network's
  // knowledge reads its study; a count's support is not finite.
  for (const auto& [c, why] : {std::pair{mark(), "pkw cannot be summed out: stu and pkw share a term (line 5)"},
                               std::pair{model_case{"count", "data y: real\nn ~ Poisson(3)\ny ~ Normal(n, 1)\n", {"y=0.3"}, 0},
                                         "n cannot be summed out: its support is not a small finite set"}}) {
    const compiled refused = compile(c);
    try {
      inference::optimize_mode(refused.model, refused.data, o);
      FAIL("a discrete unknown was taken");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  }
  const compiled coin = compile(beta_bernoulli());
  o.jacobian = false;
  CHECK_THROWS_AS(inference::laplace_sample(coin.model, coin.data, o), std::invalid_argument);
}

TEST_CASE("a prediction is drawn given the mode, not sought") {
  const compiled m = compile({"prediction", "data y: real[N]\nmu ~ Normal(1, 2)\nfor n in 1:N { y[n] ~ Normal(mu, 1.5) }\n"
                              "yrep ~ Normal(mu, 1.5)\n", {"y=[0.3,2.1,1.4,-0.2,1.9,0.8]"}, 0});
  auto o = options(4000);
  inference::mode_problem problem(m.model, m.data, o, "laplace");
  CHECK(problem.sought_names() == "mu");
  // mu's posterior is normal, N(m, s^2); yrep's predictive N(m, s^2 + 1.5^2).
  const double precision = 1.0 / 4 + 6 / 2.25, s2 = 1 / precision;
  const double m_post = s2 * (1.0 / 4 + std::accumulate(normal_y.begin(), normal_y.end(), 0.0) / 2.25);
  const auto r = inference::laplace_sample(m.model, m.data, o);
  const auto v = values(r, "yrep");
  const double n = static_cast<double>(v.size());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  const double sd = std::sqrt(s2 + 2.25);
  CHECK(std::abs(mean - m_post) < 4 * sd / std::sqrt(n));
  CHECK(value_of(inference::optimize_mode(m.model, m.data, o), "mu") == doctest::Approx(m_post).epsilon(1e-7));
}

}  // namespace test_mode

namespace test_mode {

TEST_CASE("Pathfinder's draws: a Gaussian posterior recovered, one path or four resampled, and a funnel flagged") {
  const model_case c = regression();
  const compiled m = compile(c);
  const regression_posterior exact;
  const Eigen::Matrix2d covariance = exact.precision.inverse();
  for (int paths : {1, 4}) {
    auto o = options(2000);
    o.paths = paths;
    const auto r = inference::pathfinder_sample(m.model, m.data, o);
    INFO(paths, " paths: k-hat ", r.pareto_k);
    CHECK(r.row_count == static_cast<std::size_t>(o.particles));
    CHECK_FALSE(r.unreliable);
    // L-BFGS's inverse Hessian of a quadratic in two coordinates is exact after two steps:
    // the approximation is the posterior, up to the history the path chose.
    CHECK(r.evidence.log_z == doctest::Approx(c.log_z).epsilon(0.01));
    for (const auto& [name, k] : {std::pair{"a", 0}, std::pair{"b", 1}}) {
      const auto v = values(r, name);
      const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
      // Resampled draws repeat: their standard error is at most that of the ratios' ESS.
      const double se = std::sqrt(covariance(k, k) / std::min(static_cast<double>(v.size()), r.ess));
      INFO(name, ": draws' mean ", mean, ", exact ", exact.mean[k], ", se ", se);
      CHECK(std::abs(mean - exact.mean[k]) < 4 * se);
    }
  }
  const compiled funnel = compile({"funnel", "v ~ Normal(0, 3)\nfor i in 1:9 { x[i] ~ Normal(0, exp(v / 2)) }\n", {}, 0});
  const auto f = inference::pathfinder_sample(funnel.model, funnel.data, options(2000));
  INFO("funnel: k-hat ", f.pareto_k);
  CHECK(f.pareto_k > 0.7);
  CHECK(f.unreliable);
}

}  // namespace test_mode

namespace test_mode {

namespace {

Eigen::MatrixXd covariance_of(const inference::weighted_result& r) {
  const auto d = static_cast<Eigen::Index>(r.q_mean.size());
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(r.q_covariance.data(), d, d);
}

}  // namespace

TEST_CASE("full-rank ADVI recovers a Gaussian posterior; mean-field understates its variances by the closed form") {
  const compiled m = compile(regression());
  const regression_posterior exact;
  const Eigen::Matrix2d covariance = exact.precision.inverse();
  auto o = options(1000);
  o.family = "fullrank";
  const auto full = inference::advi_sample(m.model, m.data, o);
  REQUIRE(full.q_mean.size() == 2);
  INFO(full.report[2]);
  const Eigen::MatrixXd q = covariance_of(full);
  for (int i = 0; i < 2; ++i) {
    INFO("coordinate ", i, ": mean ", full.q_mean[static_cast<std::size_t>(i)], " exact ", exact.mean[i], "; variance ", q(i, i), " exact ",
         covariance(i, i));
    CHECK(std::abs(full.q_mean[static_cast<std::size_t>(i)] - exact.mean[i]) < 0.01 * std::sqrt(covariance(i, i)));
    CHECK(q(i, i) == doctest::Approx(covariance(i, i)).epsilon(0.05));
  }
  CHECK(q(0, 1) == doctest::Approx(covariance(0, 1)).epsilon(0.05));
  CHECK_FALSE(full.unreliable);
  // Mean-field's optimum for a normal posterior with precision P: the exact means, and
  // variances 1 / P_ii, far below the marginal variances where a and b are correlated.
  o.family = "meanfield";
  const auto mean_field = inference::advi_sample(m.model, m.data, o);
  const Eigen::MatrixXd v = covariance_of(mean_field);
  for (int i = 0; i < 2; ++i) {
    INFO("coordinate ", i, ": mean-field variance ", v(i, i), ", 1 / P_ii ", 1 / exact.precision(i, i));
    CHECK(std::abs(mean_field.q_mean[static_cast<std::size_t>(i)] - exact.mean[i]) < 0.01 * std::sqrt(covariance(i, i)));
    CHECK(v(i, i) == doctest::Approx(1 / exact.precision(i, i)).epsilon(0.05));
    CHECK(v(i, i) < 0.25 * covariance(i, i));
  }
  CHECK(v(0, 1) == 0);
}

TEST_CASE("discrete unknowns summed out: log p, its gradient, the mode and Laplace's evidence are the marginalised model's") {
  // Indicators z[n] with a derived mean read through them, and instances (d[n] = 0) whose
  // term reads no indicator; against the same model written with the sum by hand, as
  // Stan's users write it.
  const char* sets[] = {"y=[2.3,-0.7,-1.4,1.8,-0.9,0.4,3.1,-1.2]", "d=[1,1,1,0,1,0,1,1]"};
  const compiled indicators = compile({"indicators",
                                       "data y: real[N]\ndata d: int[N]\np ~ Beta(2, 2)\nfor k in 1:2 { mu[k] ~ Normal(0, 5) }\n"
                                       "sigma ~ HalfNormal(2)\nfor n in 1:N {\n  z[n] ~ Bernoulli(p)\n  m[n] = mu[z[n] + 1]\n"
                                       "  y[n] ~ Normal(ifelse(d[n] == 1, m[n], mu[1]), sigma)\n}\n",
                                       {sets[0], sets[1]}, 0});
  const compiled by_hand = compile({"by hand",
                                    "data y: real[N]\ndata d: int[N]\np ~ Beta(2, 2)\nfor k in 1:2 { mu[k] ~ Normal(0, 5) }\n"
                                    "sigma ~ HalfNormal(2)\nfor n in 1:N {\n  factor ifelse(d[n] == 1, log_sum_exp(log1m(p) + "
                                    "normal_lpdf(y[n] | mu[1], sigma), log(p) + normal_lpdf(y[n] | mu[2], sigma)), normal_lpdf(y[n] | mu[1], "
                                    "sigma))\n}\n",
                                    {sets[0], sets[1]}, 0});
  auto o = options(1000);
  inference::mode_problem summed(indicators.model, indicators.data, o, "laplace");
  inference::mode_problem written(by_hand.model, by_hand.data, o, "laplace");
  REQUIRE(summed.summed() != nullptr);
  CHECK(summed.sought_names() == "p, mu, sigma");
  CHECK(written.sought_names() == "p, mu, sigma");
  ppl::rng rng(5);
  boost::random::normal_distribution<double> normal;
  for (int point = 0; point < 5; ++point) {
    Eigen::VectorXd y(4), g1(4), g2(4);
    for (long k = 0; k < 4; ++k) y[k] = normal(rng);
    const double a = summed.target().log_density(y, g1), b = written.target().log_density(y, g2);
    CHECK(a == doctest::Approx(b).epsilon(1e-12));
    for (long k = 0; k < 4; ++k) CHECK(g1[k] == doctest::Approx(g2[k]).epsilon(1e-10));
  }
  const inference::mode_result m1 = inference::find_mode(summed.target(), 2000), m2 = inference::find_mode(written.target(), 2000);
  CHECK(m1.objective == doctest::Approx(m2.objective).epsilon(1e-10));
  for (long k = 0; k < 4; ++k) CHECK(m1.y[k] == doctest::Approx(m2.y[k]).epsilon(1e-6));
  CHECK(inference::laplace_fit(summed.target(), m1).log_evidence ==
        doctest::Approx(inference::laplace_fit(written.target(), m2).log_evidence).epsilon(1e-8));
  // The mode's row gives each indicator its most probable value given the rest: z[n] = 1
  // where the second component's term is larger, and z[4], z[6], which nothing reads but
  // their prior, follow p.
  const auto r = inference::optimize_mode(indicators.model, indicators.data, o);
  const double p = value_of(r, "p"), mu1 = value_of(r, "mu[1]"), mu2 = value_of(r, "mu[2]"), sigma = value_of(r, "sigma");
  const std::vector<double> ys = {2.3, -0.7, -1.4, 1.8, -0.9, 0.4, 3.1, -1.2};
  const std::vector<int> ds = {1, 1, 1, 0, 1, 0, 1, 1};
  for (std::size_t n = 0; n < ys.size(); ++n) {
    const double l0 = std::log1p(-p) + (ds[n] ? log_normal(ys[n], mu1, sigma) : 0), l1 = std::log(p) + (ds[n] ? log_normal(ys[n], mu2, sigma) : 0);
    CHECK(value_of(r, "z[" + std::to_string(n + 1) + "]") == (l1 > l0 ? 1 : 0));
  }
}

}  // namespace test_mode
