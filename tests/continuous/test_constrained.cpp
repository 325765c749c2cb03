// NUTS on constrained vectors and matrices, end to end: an ordered logistic regression whose
// cut-points are unknowns (`param c: ordered[2]`, Stan's ordered transform) against
// quadrature over (c[1] < c[2], beta); and covariance matrices with Wishart and
// InverseWishart priors observed through MultiNormalPrec and MultiNormal (Stan's
// cov_matrix transform), against their exact conjugate posterior means. Each mean within
// 4 Monte Carlo standard errors of the run's own ESS; seeds fixed.
#include <Eigen/Dense>
#include <cmath>
#include <sstream>

#include "stdlib/link.hpp"
#include "tests/samplers/inference_fixture.hpp"
#include "tests/support/short_run.hpp"

namespace test_constrained {

using namespace ppl::testing;

namespace {

const std::vector<double> xs = {-2.0,  -1.862, -1.724, -1.586, -1.448, -1.31, -1.172, -1.034, -0.897, -0.759,
                                -0.621, -0.483, -0.345, -0.207, -0.069, 0.069, 0.207,  0.345,  0.483,  0.621,
                                0.759,  0.897,  1.034,  1.172,  1.31,   1.448, 1.586,  1.724,  1.862,  2.0};
const std::vector<int> ys = {1, 1, 1, 2, 1, 2, 1, 1, 3, 2, 3, 1, 2, 1, 2, 2, 1, 2, 2, 3, 3, 2, 3, 2, 3, 2, 1, 3, 3, 3};

std::string literal(const std::vector<double>& v) {
  std::ostringstream out;
  out.precision(17);
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "[") << v[i];
  return out.str() + "]";
}

std::string literal(const Eigen::MatrixXd& m) {
  std::ostringstream out;
  out.precision(17);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out << (i ? ", [" : "[[");
    for (Eigen::Index j = 0; j < m.cols(); ++j) out << (j ? ", " : "") << m(i, j);
    out << "]";
  }
  return out.str() + "]";
}

// The unnormalised log posterior of the ordered logistic regression: Normal(0, 5) on each
// cut-point and on beta, on c1 < c2.
double ordered_log_posterior(double c1, double c2, double beta) {
  double lp = -(c1 * c1 + c2 * c2 + beta * beta) / 50;
  for (std::size_t n = 0; n < xs.size(); ++n) {
    const double eta = beta * xs[n];
    if (ys[n] == 1) lp += ppl::stdlib::log_inv_logit(c1 - eta);
    else if (ys[n] == 3) lp += ppl::stdlib::log_inv_logit(eta - c2);
    else lp += std::log(std::max(ppl::stdlib::inv_logit(eta - c1) - ppl::stdlib::inv_logit(eta - c2), 0.0));  // rounding
  }
  return lp;
}

// Posterior means of c1, c2 and beta by midpoint quadrature, on a box found by a coarse pass.
std::array<double, 3> ordered_reference() {
  auto pass = [](std::array<double, 3> lo, std::array<double, 3> hi, int n, std::array<double, 3>& mean, std::array<double, 3>& min,
                 std::array<double, 3>& max) {
    double peak = -INFINITY, total = 0;
    std::vector<std::array<double, 4>> points;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
          const double c1 = lo[0] + (hi[0] - lo[0]) * (i + 0.5) / n, c2 = lo[1] + (hi[1] - lo[1]) * (j + 0.5) / n,
                       b = lo[2] + (hi[2] - lo[2]) * (k + 0.5) / n;
          if (c2 <= c1) continue;
          const double lp = ordered_log_posterior(c1, c2, b);
          peak = std::max(peak, lp);
          points.push_back({c1, c2, b, lp});
        }
    mean = {0, 0, 0}, min = {INFINITY, INFINITY, INFINITY}, max = {-INFINITY, -INFINITY, -INFINITY};
    for (const auto& p : points) {
      const double w = std::exp(p[3] - peak);
      total += w;
      for (int d = 0; d < 3; ++d) {
        mean[static_cast<std::size_t>(d)] += w * p[static_cast<std::size_t>(d)];
        if (w > 1e-10) min[static_cast<std::size_t>(d)] = std::min(min[static_cast<std::size_t>(d)], p[static_cast<std::size_t>(d)]),
                       max[static_cast<std::size_t>(d)] = std::max(max[static_cast<std::size_t>(d)], p[static_cast<std::size_t>(d)]);
      }
    }
    for (double& m : mean) m /= total;
  };
  std::array<double, 3> mean{}, lo{}, hi{};
  pass({-10, -10, -10}, {10, 10, 10}, 60, mean, lo, hi);
  for (int d = 0; d < 3; ++d) lo[static_cast<std::size_t>(d)] -= 0.5, hi[static_cast<std::size_t>(d)] += 0.5;
  std::array<double, 3> ignored_lo{}, ignored_hi{};
  pass(lo, hi, 120, mean, ignored_lo, ignored_hi);
  return mean;
}

const char* const ordered_model = R"(
data x: real[N]
data y: int[N]
param c: ordered[2]
c ~ Normal(0, 5)
beta ~ Normal(0, 5)
for n in 1:N { y[n] ~ OrderedLogistic(beta * x[n], c) }
)";

std::vector<std::string> ordered_data() {
  std::vector<double> y(ys.begin(), ys.end());
  return {"x=" + literal(xs), "y=" + literal(y)};
}

// K = 2 observations with a known mean, and their scatter R = sum (y - mu)(y - mu)'.
const Eigen::MatrixXd observations = (Eigen::MatrixXd(12, 2) << 1.2, 0.4, -0.8, -1.1, 0.3, 0.9, 2.1, 1.4, -1.5, -0.2, 0.6, -0.7, -0.4,
                                      -0.9, 1.7, 1.9, -0.2, 0.5, 0.9, 0.1, -1.3, -1.6, 0.1, -0.3)
                                         .finished();
const Eigen::Matrix2d scale = (Eigen::Matrix2d() << 1.0, 0.3, 0.3, 0.5).finished();

Eigen::Matrix2d scatter() { return observations.transpose() * observations; }  // mu = 0

void check_matrix_mean(const posterior& p, const std::string& name, const Eigen::Matrix2d& exact) {
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) check_mean(p, name + "[" + std::to_string(i + 1) + "," + std::to_string(j + 1) + "]", exact(i, j));
}

// A matrix unknown under `prior` (reading the data S) observed as the rows of Y by
// `rows` (a statement for Y[n]), by two chains of nuts from `seed` (forced: the plan's
// own choice for the conjugate forms is the exact update, tests/samplers/test_normal_wishart.cpp).
posterior matrix_run(const std::string& name, const std::string& prior, const std::string& rows, std::uint64_t seed) {
  const std::string model = "data Y: real[N, 2]\ndata S: real[2, 2]\n" + name + " ~ " + prior + "\nfor n in 1:N { " + rows + " }\n";
  auto o = two_chains(1000, shortened(2000, 4), seed);
  o.overrides = {{name, "nuts"}};
  auto p = infer(model, {"Y=" + literal(Eigen::MatrixXd(observations)), "S=" + literal(Eigen::MatrixXd(scale))}, o);
  CHECK(p.kind(name) == "nuts");
  return p;
}

}  // namespace

TEST_CASE("nuts: ordered logistic regression with unknown cut-points, against quadrature") {
  const auto exact = ordered_reference();
  auto p = infer(ordered_model, ordered_data(), two_chains(1000, shortened(2000, 4), 41));
  CHECK(p.kind("c") == "nuts");
  check_mean(p, "c[1]", exact[0]);
  check_mean(p, "c[2]", exact[1]);
  check_mean(p, "beta", exact[2]);
  const auto c1 = p.column("c[1]"), c2 = p.column("c[2]");
  for (std::size_t k = 0; k < c1.size(); ++k)
    for (std::size_t i = 0; i < c1[k].size(); ++i) REQUIRE(c1[k][i] < c2[k][i]);
}

TEST_CASE("slice and rwmh keep the order too: the same regression") {
  const auto exact = ordered_reference();
  auto o = two_chains(1000, shortened(4000, 4), 42);
  o.overrides = {{"c", "slice"}};
  auto s = infer(ordered_model, ordered_data(), o);
  CHECK(s.kind("c") == "slice");
  check_mean(s, "c[1]", exact[0]);
  check_mean(s, "c[2]", exact[1]);
  o.overrides = {{"c", "rwmh"}};
  o.seed = 43;
  auto r = infer(ordered_model, ordered_data(), o);
  CHECK(r.kind("c") == "rwmh");
  check_mean(r, "c[1]", exact[0]);
  check_mean(r, "c[2]", exact[1]);
}

TEST_CASE("nuts: a precision matrix with a Wishart prior and MultiNormalPrec observations, against Wishart(nu + N, (S^-1 + R)^-1)") {
  const double nu = 4, n = static_cast<double>(observations.rows());
  const Eigen::Matrix2d exact = (nu + n) * (scale.inverse() + scatter()).inverse();
  check_matrix_mean(matrix_run("Omega", "Wishart(4, S)", "Y[n] ~ MultiNormalPrec([0, 0], Omega)", 51), "Omega", exact);
  // The same unknown observed through MultiNormal with inverse(Omega) as the covariance.
  check_matrix_mean(matrix_run("Omega", "Wishart(4, S)", "Y[n] ~ MultiNormal([0, 0], inverse(Omega))", 52), "Omega", exact);
}

TEST_CASE("nuts: a covariance matrix with an InverseWishart prior and MultiNormal observations, against InverseWishart(nu + N, S + R)") {
  const double nu = 5, n = static_cast<double>(observations.rows());
  const Eigen::Matrix2d exact = (scale + scatter()) / (nu + n - 2 - 1);
  check_matrix_mean(matrix_run("Sigma", "InverseWishart(5, S)", "Y[n] ~ MultiNormal([0, 0], Sigma)", 53), "Sigma", exact);
}

}  // namespace test_constrained
