// NUTS and static HMC against known posteriors: a 100-dimensional correlated Gaussian, the
// non-centred eight-schools model against quadrature over tau, a Gaussian mixture whose
// indicators are updated by gibbs and whose means and scale by nuts in the same sweep
// (against a long run of other kinds), and the plan's choices. SBC for NUTS is in
// test_calibration.cpp. Tolerances are Monte Carlo standard errors from the runs' own ESS;
// seeds are fixed.
#include <Eigen/Dense>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>
#include <sstream>

#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/example_text.hpp"
#include "tests/support/short_run.hpp"

namespace test_hamiltonian {

using namespace ppl::testing;

namespace {

std::string matrix_literal(const Eigen::MatrixXd& m) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (long i = 0; i < m.rows(); ++i) {
    out << (i ? ", [" : "[");
    for (long j = 0; j < m.cols(); ++j) out << (j ? ", " : "") << m(i, j);
    out << "]";
  }
  out << "]";
  return out.str();
}

std::string vector_literal(const std::vector<double>& v) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
  return out.str() + "]";
}

// |mean - exact| / mcse, for the largest-deviation check over many coordinates.
double z_mean(const posterior& p, const std::string& name, double exact) {
  auto s = p.summary(name);
  return std::fabs(s.mean - exact) / s.mcse_mean;
}

}  // namespace

TEST_CASE("nuts: a 100-dimensional correlated Gaussian, scales 0.1 to 10") {
  // Sigma_ij = s_i s_j 0.8^|i - j|: correlated neighbours and scales over two orders of
  // magnitude (the diagonal metric takes the scales, the trajectories the correlation).
  const int d = 100;
  Eigen::MatrixXd sigma(d, d);
  std::vector<double> scale(d), mean(d);
  for (int i = 0; i < d; ++i) {
    scale[static_cast<std::size_t>(i)] = std::pow(10.0, -1 + 2.0 * i / (d - 1));
    mean[static_cast<std::size_t>(i)] = std::sin(i);
  }
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j)
      sigma(i, j) = scale[static_cast<std::size_t>(i)] * scale[static_cast<std::size_t>(j)] * std::pow(0.8, std::abs(i - j));
  const Eigen::MatrixXd precision = sigma.inverse();
  auto p = infer("data P: real[D, D]\ndata m: real[D]\nfor i in 1:D { x[i] ~ Normal(0, 100) }\n"
                 "factor(-0.5 * dot(x - m, P * (x - m)) + 0.5 * dot(x, x) / 10000)\n",
                 {"P=" + matrix_literal(precision), "m=" + vector_literal(mean)},
                 two_chains(shortened(1000, 2), shortened(1000, 4), 11));
  CHECK(p.kind("x") == "nuts");
  double worst_mean = 0, worst_sd = 0;
  for (int i = 0; i < d; ++i) {
    const std::string name = "x[" + std::to_string(i + 1) + "]";
    worst_mean = std::max(worst_mean, z_mean(p, name, mean[static_cast<std::size_t>(i)]));
    auto s = p.summary(name);
    const double exact = scale[static_cast<std::size_t>(i)];
    worst_sd = std::max(worst_sd, std::fabs(s.sd - exact) / (exact / std::sqrt(2 * s.ess_bulk)));
  }
  // 100 coordinates: 4.5 standard errors bounds each with probability 1 - 7e-6.
  INFO("largest |mean error| / mcse ", worst_mean, ", largest |sd error| / se ", worst_sd);
  CHECK(worst_mean < 4.5);
  CHECK(worst_sd < 4.5);
}

namespace {

// Eight schools (Rubin 1981; BDA3 §5.5), non-centred: theta_j = mu + tau eta_j. Exact
// posterior moments by quadrature over tau: given tau, mu and the thetas are Gaussian in
// closed form (BDA3 §5.4, with mu's prior N(0, 5^2) instead of flat).
const double school_y[] = {28, 8, -3, 7, -1, 1, 18, 12};
const double school_sigma[] = {15, 10, 16, 11, 9, 11, 10, 18};

struct eight_moments {
  double mu, mu_sd, tau, theta1;
};

eight_moments eight_schools_exact() {
  double total = 0, e_mu = 0, e_mu2 = 0, e_tau = 0, e_theta1 = 0;
  for (int k = 0; k < 40000; ++k) {
    const double u = -12 + 20 * (k + 0.5) / 40000, tau = std::exp(u);
    double precision = 1.0 / 25, weighted = 0, log_marginal = 0;
    Eigen::MatrixXd cov = Eigen::MatrixXd::Constant(8, 8, 25.0);
    for (int j = 0; j < 8; ++j) {
      const double v = school_sigma[j] * school_sigma[j] + tau * tau;
      cov(j, j) += v;
      precision += 1 / v;
      weighted += school_y[j] / v;
    }
    Eigen::Map<const Eigen::VectorXd> y(school_y, 8);
    Eigen::LLT<Eigen::MatrixXd> llt(cov);
    const Eigen::MatrixXd l = llt.matrixL();
    log_marginal = -0.5 * y.dot(llt.solve(y)) - l.diagonal().array().log().sum();
    // HalfCauchy(5) prior on tau, times the Jacobian tau of u = log tau.
    const double w = std::exp(log_marginal) * tau / (1 + tau * tau / 25);
    const double mu_mean = weighted / precision, mu_var = 1 / precision;
    const double a = 1 / (school_sigma[0] * school_sigma[0]), b = 1 / (tau * tau);
    total += w;
    e_mu += w * mu_mean;
    e_mu2 += w * (mu_var + mu_mean * mu_mean);
    e_tau += w * tau;
    e_theta1 += w * (a * school_y[0] + b * mu_mean) / (a + b);
  }
  e_mu /= total;
  return {e_mu, std::sqrt(e_mu2 / total - e_mu * e_mu), e_tau / total, e_theta1 / total};
}

const std::string eight_schools = ppl::testing::example_text("examples/eight_schools/eight_schools.ppl");
const std::vector<std::string> eight_data = {"y=[28, 8, -3, 7, -1, 1, 18, 12]", "sigma=[15, 10, 16, 11, 9, 11, 10, 18]"};

// The means of mu, tau and theta[1] and the sd of mu against quadrature.
void check_eight(const ppl::testing::posterior& p, const eight_moments& exact) {
  check_mean(p, "mu", exact.mu);
  check_sd(p, "mu", exact.mu_sd);
  check_mean(p, "tau", exact.tau);
  check_mean(p, "theta[1]", exact.theta1);
}

}  // namespace

TEST_CASE("nuts: non-centred eight schools against quadrature over tau") {
  auto o = two_chains(1000, 4000, 5);
  o.overrides = {{"mu", "nuts"}, {"tau", "nuts"}, {"eta", "nuts"}};  // Stan's plan: one block, mu, tau and eta together
  auto p = infer(eight_schools, eight_data, o);
  CHECK(p.kind("mu") == "nuts");
  CHECK(p.kind("tau") == "nuts");
  CHECK(p.kind("eta") == "nuts");
  check_eight(p, eight_schools_exact());
  // The report counts divergences after warmup; the non-centred form has few or none.
  REQUIRE(!p.result.reports.empty());
  CHECK(p.result.reports[0].front().find("divergent after warmup") != std::string::npos);
}

TEST_CASE("the default plan on eight schools: mu and eta drawn jointly given tau, tau by slice, against quadrature") {
  auto p = infer(eight_schools, eight_data, two_chains(1000, 4000, 7));
  CHECK(p.kind("mu") == "gaussian_block");
  CHECK(p.kind("eta") == "gaussian_block");
  CHECK(p.kind("tau") == "slice");
  check_eight(p, eight_schools_exact());
}

TEST_CASE("nuts: conjugate mu (by --sampler) mixed with nuts for tau and eta, dense metric") {
  const eight_moments exact = eight_schools_exact();
  auto o = two_chains(1000, 4000, 6);
  o.metric = ppl::samplers::metric_choice::dense;
  o.overrides = {{"mu", "conjugate"}};
  auto p = infer(eight_schools, eight_data, o);
  CHECK(p.kind("mu") == "conjugate");
  CHECK(p.kind("tau") == "nuts");
  check_mean(p, "mu", exact.mu);
  check_mean(p, "tau", exact.tau);
  check_mean(p, "theta[1]", exact.theta1);
}

TEST_CASE("hmc: static HMC on the eight schools when asked for") {
  const eight_moments exact = eight_schools_exact();
  auto o = two_chains(1000, 4000, 7);
  o.overrides = {{"mu", "hmc"}, {"tau", "hmc"}, {"eta", "hmc"}};
  auto p = infer(eight_schools, eight_data, o);
  CHECK(p.kind("tau") == "hmc");
  check_mean(p, "mu", exact.mu);
  check_mean(p, "tau", exact.tau);
}

namespace {

// Forty points from 0.3 N(-2, 0.8^2) + 0.7 N(2, 0.8^2), fixed.
std::vector<double> mixture_data() {
  std::vector<double> y;
  boost::math::normal n;
  for (int i = 0; i < 40; ++i) {
    const double q = boost::math::quantile(n, (i + 0.5) / 40);
    y.push_back(i % 10 < 3 ? -2 + 0.8 * q : 2 + 0.8 * q);
  }
  return y;
}

const char* mixture = R"(
data y: real[N]
data w: real[2]
mu[1] ~ Normal(-2, 1)
mu[2] ~ Normal(2, 1)
s ~ HalfNormal(2)
for n in 1:N {
  z[n] ~ Categorical(w)
  y[n] ~ Normal(mu[z[n]], s)
}
)";

}  // namespace

TEST_CASE("gibbs and nuts in one sweep: a two-component mixture against a long slice run") {
  const std::vector<std::string> data = {"y=" + vector_literal(mixture_data()), "w=[0.3, 0.7]"};
  auto o = two_chains(500, 2000, 21);
  o.overrides = {{"mu", "nuts"}};
  auto mixed = infer(mixture, data, o);
  CHECK(mixed.kind("z") == "gibbs");
  CHECK(mixed.kind("mu") == "nuts");
  CHECK(mixed.kind("s") == "nuts");
  auto r = two_chains(500, 15000, 22);
  r.overrides = {{"mu", "slice"}, {"s", "slice"}};
  auto reference = infer(mixture, data, r);
  CHECK(reference.kind("s") == "slice");
  for (const char* name : {"mu[1]", "mu[2]", "s"}) {
    auto a = mixed.summary(name), b = reference.summary(name);
    INFO(name, ": gibbs+nuts ", a.mean, " (mcse ", a.mcse_mean, "), reference ", b.mean, " (mcse ", b.mcse_mean, ")");
    CHECK(std::fabs(a.mean - b.mean) < 4 * std::hypot(a.mcse_mean, b.mcse_mean));
  }
}

TEST_CASE("nuts is not offered where the density is not differentiable") {
  auto o = two_chains(10, 10, 1);
  o.overrides = {{"a", "nuts"}};
  CHECK_THROWS_WITH_AS(infer("a ~ Normal(0, 1)\nfactor(-abs(a) * (a > 0))\n", {}, o),
                       doctest::Contains("reaches the density through `>` (line 2), which has no gradient"),
                       std::invalid_argument);
}

TEST_CASE("nuts: an unknown that bounds the data's support (serial numbers seen, how many made)") {
  // y[i] ~ Uniform(0, theta) with theta ~ Uniform(0, 1000) and max y = 700: the posterior
  // is proportional to theta^-3 on [700, 1000], a density with a cliff at 700. Starts from
  // the prior land below it half the time and must be drawn again, and warmup's trial
  // steps that cross it must not move the chain. Exact moments: E theta = I(-2) / I(-3),
  // E theta^2 = I(-1) / I(-3), with I(k) the integral of theta^k over [700, 1000].
  const double lo = 700, hi = 1000;
  const double i1 = std::log(hi / lo), i2 = 1 / lo - 1 / hi, i3 = (1 / (lo * lo) - 1 / (hi * hi)) / 2;
  const double mean = i2 / i3, sd = std::sqrt(i1 / i3 - mean * mean);
  auto o = two_chains(1000, 4000, 3);
  o.chains = 4;
  o.overrides = {{"theta", "nuts"}};  // a lone scalar: the default would be slice
  auto p = infer("data y: real[N]\ntheta ~ Uniform(0, 1000)\nfor i in 1:N { y[i] ~ Uniform(0, theta) }\n",
                 {"y=[600, 700, 650]"}, o);
  CHECK(p.kind("theta") == "nuts");
  check_mean(p, "theta", mean);
  check_sd(p, "theta", sd);
  for (const auto& chain : p.result.reports) {
    REQUIRE(!chain.empty());
    CHECK(chain.front().find("skipped") == std::string::npos);
  }
}

}  // namespace test_hamiltonian
