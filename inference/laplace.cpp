// `ppl infer --method laplace`: the normal approximation q = N(y*, P^-1) at the mode y* of
// log p on the unconstrained scale (Jacobian included), P the negative Hessian there, from
// central differences of the reverse-mode gradient. Its draws, mapped back to the
// constrained scale, are the approximate posterior; its log evidence is Laplace's,
//   log p(data) ~ log p(y*) + d/2 log(2 pi) - 1/2 log det P
// (Tierney & Kadane 1986; exact when the posterior is normal on that scale). How far the
// draws can be trusted is the Pareto k-hat of their importance ratios p / q (Yao, Vehtari,
// Simpson & Gelman 2018, "Yes, but did it work?"): above 0.7 the approximation is not to be
// used. The same ratios give a second estimate of the evidence, by importance sampling with
// q as the proposal, whose standard error holds when k-hat is below 0.7.
#include <fmt/core.h>

#include <boost/random/normal_distribution.hpp>
#include <chrono>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "inference/mode.hpp"

namespace ppl::inference {

namespace {

// -d2 log p / dy2 at y, column by column from the gradient at y +- h e_j, h = eps^(1/3)
// times the coordinate's scale (rounding and truncation errors balanced), symmetrised.
Eigen::MatrixXd negative_hessian(samplers::unconstrained_target& target, const Eigen::VectorXd& y, long& evaluations) {
  const long d = y.size();
  Eigen::MatrixXd h(d, d);
  Eigen::VectorXd up(d), down(d), at = y;
  for (long j = 0; j < d; ++j) {
    const double step = 6.055e-6 * std::max(1.0, std::abs(y[j]));
    at[j] = y[j] + step;
    const double a = target.log_density(at, up);
    at[j] = y[j] - step;
    const double b = target.log_density(at, down);
    at[j] = y[j];
    evaluations += 2;
    if (!std::isfinite(a) || !std::isfinite(b))
      throw std::invalid_argument(fmt::format("--method laplace: log p is not finite within {:.2g} of the mode along {}, so its "
                                              "curvature there cannot be measured: the mode is at the support's edge (use --method mcmc)",
                                              step, target.coordinate_label(j)));
    h.col(j) = -(up - down) / (2 * step);
  }
  return (h + h.transpose()) / 2;
}

// The precision's Cholesky factor, or an error naming the direction where log p does not
// curve down: a saddle, a ridge, or a search stopped short of the mode.
Eigen::MatrixXd precision_factor(samplers::unconstrained_target& target, const Eigen::MatrixXd& precision) {
  const Eigen::LLT<Eigen::MatrixXd> llt(precision);
  if (llt.info() == Eigen::Success) return llt.matrixL();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(precision);
  Eigen::Index along = 0;
  eigen.eigenvectors().col(0).cwiseAbs().maxCoeff(&along);
  throw std::invalid_argument(fmt::format("--method laplace: log p does not curve down at the mode along {} (the Hessian's eigenvalue "
                                          "{:.3g}): a ridge, a saddle or a search that stopped short of a mode, where no normal "
                                          "approximation exists (use --method mcmc)",
                                          target.coordinate_label(along), -eigen.eigenvalues()[0]));
}

}  // namespace

normal_approximation laplace_fit(samplers::unconstrained_target& target, const mode_result& mode) {
  normal_approximation out;
  out.mean = mode.y;
  out.factor = precision_factor(target, negative_hessian(target, mode.y, out.evaluations));
  const double d = static_cast<double>(mode.y.size());
  out.log_evidence = mode.objective + 0.5 * d * std::log(2 * std::numbers::pi) - out.factor.diagonal().array().log().sum();
  target.set(mode.y);
  return out;
}

weighted_result laplace_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  if (!o.jacobian)
    throw std::invalid_argument("--jacobian false: the Laplace approximation is a density on the unconstrained scale, which needs the "
                                "Jacobian; without it only --method optimize applies");
  mode_problem problem(m, data, o, "laplace");
  auto& target = problem.target();
  const mode_result found = find_mode(target, iteration_limit(o, 2000));
  weighted_result r;
  report_search(found, o, r);
  report_summed(problem, r);
  r.columns = approximation_columns(problem);
  if (found.stopped == "interrupted") {
    r.interrupted = true;
    r.stopped = "the mode search, before any draw";
    return r;
  }
  const normal_approximation q = laplace_fit(target, found);
  const Eigen::MatrixXd& l = q.factor;
  const long d = found.y.size();
  const double log_det_l = l.diagonal().array().log().sum();
  const double log_normal = -0.5 * static_cast<double>(d) * std::log(2 * std::numbers::pi);
  r.evidence = {q.log_evidence, NAN};
  {
    const Eigen::MatrixXd l_inverse = l.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(d, d));
    keep_approximation(r, q.mean, l_inverse.transpose() * l_inverse);
  }
  r.report.push_back(fmt::format("hessian: central differences of the gradient ({} gradients), {} coordinates", q.evaluations, d));
  r.report.push_back("draws: approximate, from the normal approximation at the mode mapped to the constrained scale; log_p__ is log p "
                     "and log_g__ log q there, on the unconstrained scale");
  std::vector<double> log_ratios;
  ppl::rng rng = particles::item_stream(o.seed, 0, 0x6c61706cu);
  draw_approximation(problem, o.particles, rng, [&](ppl::rng& stream, Eigen::VectorXd& y) {
    boost::random::normal_distribution<double> normal;
    Eigen::VectorXd z(d);
    for (long k = 0; k < d; ++k) z[k] = normal(stream);
    y = found.y + l.transpose().triangularView<Eigen::Upper>().solve(z);
    return log_normal + log_det_l - 0.5 * z.squaredNorm();
  }, r.rows, log_ratios);
  r.row_count = log_ratios.size();
  if (r.row_count < static_cast<std::size_t>(o.particles)) {
    r.interrupted = true;
    r.stopped = fmt::format("{} of {} draws made", r.row_count, o.particles);
  }
  if (r.row_count > 0) {
    const evidence_estimate is = judge_ratios(r, log_ratios, "the normal approximation at the mode");
    if (!(r.pareto_k > 0.7) && std::abs(is.log_z - r.evidence.log_z) > 1)
      r.warnings.push_back(fmt::format("Laplace's log evidence {:.3f} and importance sampling's {:.3f} differ by more than 1: the "
                                       "posterior is not normal on the unconstrained scale; the latter is the better estimate",
                                       r.evidence.log_z, is.log_z));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
