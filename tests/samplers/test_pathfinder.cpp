// Pathfinder's parts (inference/pathfinder.*): the L-BFGS inverse Hessian in compact form,
// its draws and their log density, the diagonal update, and the path on posteriors whose
// answer is known.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "data/data.hpp"
#include "inference/pathfinder.hpp"
#include "lang/checker.hpp"
#include "model/graph.hpp"
#include "samplers/unconstrained.hpp"
#include "stdlib/registry.hpp"

namespace test_pathfinder {

using namespace ppl;
using inference::inverse_hessian;

namespace {

// A positive definite Hessian and (s, y = H s) pairs along three steps of a quadratic.
struct quadratic {
  Eigen::MatrixXd hessian;
  std::deque<Eigen::VectorXd> s, y;
  Eigen::VectorXd diagonal;
  quadratic() {
    hessian.resize(4, 4);
    hessian << 4, 1, 0, 0.5, 1, 3, 0.2, 0, 0, 0.2, 0.5, 0.1, 0.5, 0, 0.1, 2;
    diagonal = Eigen::VectorXd::Ones(4);
    const double steps[3][4] = {{1, 0, 0.5, -1}, {0, 1, 1, 0.3}, {-0.4, 0.2, 1, 1}};
    for (const auto& step : steps) {
      s.emplace_back(Eigen::Map<const Eigen::Vector4d>(step));
      y.push_back(hessian * s.back());
      inference::update_diagonal(diagonal, s.back(), y.back());
    }
  }
};

Eigen::MatrixXd dense(const inverse_hessian& h, long d) {
  Eigen::MatrixXd out(d, d);
  for (long i = 0; i < d; ++i) out.col(i) = h.times(Eigen::VectorXd::Unit(d, i));
  return out;
}

}  // namespace

TEST_CASE("inverse_hessian: the last secant equation holds, the matrix is symmetric and positive definite") {
  quadratic q;
  CHECK((q.diagonal.array() > 0).all());
  const inverse_hessian h(q.s, q.y, q.diagonal);
  CHECK((h.times(q.y.back()) - q.s.back()).norm() < 1e-12 * q.s.back().norm());
  const Eigen::MatrixXd m = dense(h, 4);
  CHECK((m - m.transpose()).norm() < 1e-12 * m.norm());
  CHECK(Eigen::LLT<Eigen::MatrixXd>(m).info() == Eigen::Success);
  // Without the low-rank part (no pairs) the matrix is the diagonal alone, which does not
  // meet the secant equation: the check above can fail.
  const inverse_hessian diagonal_only({}, {}, q.diagonal);
  CHECK((diagonal_only.times(q.y.back()) - q.s.back()).norm() > 0.1);
}

TEST_CASE("inverse_hessian: a draw's log q is the normal density of the matrix times() applies") {
  quadratic q;
  inverse_hessian h(q.s, q.y, q.diagonal);
  REQUIRE(h.factor());
  const Eigen::MatrixXd sigma = dense(h, 4);
  const Eigen::LLT<Eigen::MatrixXd> llt(sigma);
  const Eigen::VectorXd mean = Eigen::Vector4d(1, -2, 0.5, 3);
  ppl::rng rng(5);
  Eigen::VectorXd y, sum = Eigen::VectorXd::Zero(4);
  Eigen::MatrixXd squares = Eigen::MatrixXd::Zero(4, 4);
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    const double log_q = h.draw(rng, mean, y);
    const Eigen::VectorXd z = llt.matrixL().solve(y - mean);
    const double exact = -0.5 * z.squaredNorm() - Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum() - 2 * std::log(2 * std::numbers::pi);
    if (k < 100) CHECK(log_q == doctest::Approx(exact).epsilon(1e-10));
    sum += y - mean;
    squares += (y - mean) * (y - mean).transpose();
  }
  // The draws' covariance is that matrix: each entry within 5 standard errors, sqrt((s_ii
  // s_jj + s_ij^2) / n) for a normal sample.
  const Eigen::MatrixXd estimate = squares / n;
  for (long i = 0; i < 4; ++i)
    for (long j = 0; j < 4; ++j) {
      const double se = std::sqrt((sigma(i, i) * sigma(j, j) + sigma(i, j) * sigma(i, j)) / n);
      CHECK(std::abs(estimate(i, j) - sigma(i, j)) < 5 * se);
    }
}

TEST_CASE("find_path: on a correlated Gaussian posterior from a start 1000 sds away, the approximation is the posterior") {
  const lang::ir::model m = lang::compile({"test.ppl", R"(
data S: real[3, 3]
data mu: real[3]
x ~ MultiNormal(mu, S)
)"}, stdlib::library());
  data::data_table data;
  data::apply_set(data, "S=[[1, 0.8, 0.3], [0.8, 2, 0.5], [0.3, 0.5, 0.5]]");
  data::apply_set(data, "mu=[3, -1, 2]");
  ppl::rng rng(3);
  model::graph g(m, data, rng);
  int x = -1;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].name == "x") x = static_cast<int>(v);
  auto& values = g.values()[static_cast<std::size_t>(x)].data;
  values = {1000, -1000, 700};
  samplers::unconstrained_target target(g, {x});
  const inference::path_result path = inference::find_path(target, rng);
  INFO("iterations ", path.iterations, ", chosen ", path.chosen, ", ELBO ", path.elbo, ", stopped: ", path.stopped);
  REQUIRE(path.chosen > 0);
  CHECK((path.mean - Eigen::Vector3d(3, -1, 2)).norm() < 1e-3);
  // The density is normalised, so the ELBO is at most 0, and 0 only when q is p; with 8
  // draws, an approximation a tenth off in its variances would lose about 0.015 a coordinate.
  CHECK(path.elbo > -0.05);
  CHECK(path.elbo < 0.05);
}

}  // namespace test_pathfinder
