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

#include "core/interrupt.hpp"
#include "draws/psis.hpp"
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

// The k-hat of the ratios and the importance-sampling evidence; warnings where they say
// the approximation cannot be trusted.
void judge(weighted_result& r, const std::vector<double>& log_ratios, long outside) {
  std::vector<double> finite;
  for (double x : log_ratios)
    if (std::isfinite(x)) finite.push_back(x);
  if (finite.size() >= 5) r.pareto_k = draws::psis_smooth(finite, 1.0).pareto_k;
  const evidence_estimate is = particles::log_mean_exp(log_ratios);
  r.ess = particles::effective_size(log_ratios);
  r.report.push_back(fmt::format("log_evidence_importance: {:.6f} (se {}; q as the proposal, its ratios' ESS {:.1f} of {})", is.log_z,
                                 r.pareto_k > 0.7 || !std::isfinite(is.se) ? std::string("n/a") : fmt::format("{:.6f}", is.se), r.ess,
                                 log_ratios.size()));
  r.report.push_back(fmt::format("pareto_k: {:.3f}", r.pareto_k));
  if (outside > 0)
    r.warnings.push_back(fmt::format("{} of the {} draws fell where log p is not finite: the normal approximation reaches outside the "
                                     "posterior's support", outside, log_ratios.size()));
  if (r.pareto_k > 0.7) {
    r.unreliable = true;
    r.warnings.push_back(fmt::format("the draws' Pareto k-hat is {:.2f}, above 0.7: the normal approximation at the mode is far from "
                                     "the posterior (its tails, or a skew, or another mode), so its draws, means and evidence are not "
                                     "to be trusted; use --method mcmc",
                                     r.pareto_k));
  } else if (std::abs(is.log_z - r.evidence.log_z) > 1) {
    r.warnings.push_back(fmt::format("Laplace's log evidence {:.3f} and importance sampling's {:.3f} differ by more than 1: the posterior "
                                     "is not normal on the unconstrained scale; the latter is the better estimate",
                                     r.evidence.log_z, is.log_z));
  }
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
  const mode_result found = find_mode(target, o.iterations);
  weighted_result r;
  report_search(found, o, r);
  r.columns = {"lp__", "log_p__", "log_g__"};
  for (auto& c : problem.graph().columns(false))
    if (c != "lp__") r.columns.push_back(std::move(c));
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
  r.report.push_back(fmt::format("hessian: central differences of the gradient ({} gradients), {} coordinates", q.evaluations, d));
  r.report.push_back("draws: approximate, from the normal approximation at the mode mapped to the constrained scale; log_p__ is log p "
                     "and log_g__ log q there, on the unconstrained scale");
  std::vector<double> log_ratios, row, gradient(static_cast<std::size_t>(d));
  Eigen::VectorXd z(d), y(d), g(d);
  long outside = 0;
  for (long i = 0; i < o.particles && !ppl::interrupted(); ++i) {
    ppl::rng rng = particles::item_stream(o.seed, static_cast<std::size_t>(i), 0x6c61706cu);
    boost::random::normal_distribution<double> normal;
    for (long k = 0; k < d; ++k) z[k] = normal(rng);
    y = found.y + l.transpose().triangularView<Eigen::Upper>().solve(z);
    const double log_q = log_normal + log_det_l - 0.5 * z.squaredNorm();
    const double log_p = d > 0 ? target.log_density(y, g) : found.objective;
    problem.set(y, rng);
    problem.graph().row(false, 0, row);
    row.insert(row.begin() + 1, {log_p, log_q});
    r.rows.insert(r.rows.end(), row.begin(), row.end());
    log_ratios.push_back(std::isfinite(log_p) ? log_p - log_q : -INFINITY);
    outside += !std::isfinite(log_p);
  }
  r.row_count = log_ratios.size();
  if (r.row_count < static_cast<std::size_t>(o.particles)) {
    r.interrupted = true;
    r.stopped = fmt::format("{} of {} draws made", r.row_count, o.particles);
  }
  if (r.row_count > 0) judge(r, log_ratios, outside);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
