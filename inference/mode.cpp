// `ppl infer --method optimize` and the search both approximations share
// (inference/mode.hpp). LBFGS++ minimises, so the solver sees -log p; a point outside the
// support, or where log p is NaN, is +inf to it, which its backtracking line search steps
// back from.
#include "inference/mode.hpp"

#include <LBFGS.h>
#include <fmt/core.h>

#include <chrono>
#include <functional>
#include <cmath>
#include <stdexcept>

#include "core/interrupt.hpp"
#include "core/source_error.hpp"
#include "draws/psis.hpp"
#include "inference/chain_internal.hpp"
#include "inference/summed_out.hpp"
#include "lang/evidence.hpp"
#include "model/failed_start.hpp"

namespace ppl::inference {

namespace {

constexpr double gradient_tolerance = 1e-8;                 // Stan's tol_grad
constexpr double relative_tolerance = 1e4 * 2.220446e-16;   // Stan's tol_rel_obj, in machine epsilons
constexpr int fresh_starts = 2;                             // of the history, after a failed line search

// -f for the solver, keeping the best point seen: a line search that fails may leave the
// solver's x anywhere along its last direction.
struct objective {
  explicit objective(const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>& f) : log_f(f) {}
  const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>& log_f;
  long evaluations = 0;
  Eigen::VectorXd best, best_gradient;
  double best_value = -INFINITY;

  double operator()(const Eigen::VectorXd& y, Eigen::VectorXd& gradient) {
    if (ppl::interrupted()) throw std::runtime_error("interrupted");
    ++evaluations;
    const double value = log_f(y, gradient);
    if (!std::isfinite(value) || !gradient.allFinite()) {
      gradient.setZero();
      return INFINITY;
    }
    if (value > best_value) best_value = value, best = y, best_gradient = gradient;
    gradient = -gradient;
    return -value;
  }
};

}  // namespace

mode_result maximise(const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>& log_f, const Eigen::VectorXd& start,
                     int max_iterations) {
  LBFGSpp::LBFGSParam<double> p;
  p.m = 6;
  p.epsilon = gradient_tolerance;
  p.epsilon_rel = 0;
  p.past = 1;
  p.delta = relative_tolerance;
  p.max_iterations = max_iterations;
  p.max_linesearch = 60;
  // The weak Wolfe conditions keep every (s, y) pair's curvature positive, so the inverse
  // Hessian the solver builds stays positive definite.
  p.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_WOLFE;
  objective f(log_f);
  mode_result out;
  Eigen::VectorXd y = start, unused(start.size());
  f(y, unused);
  for (int fresh = 0;; ++fresh) {
    const double before = f.best_value;
    try {
      double value = 0;
      LBFGSpp::LBFGSSolver<double> solver(p);
      out.iterations += solver.minimize(f, y, value);
      out.converged = out.iterations < max_iterations;
      out.stopped = !out.converged ? fmt::format("the iteration limit ({})", max_iterations)
                    : f.best_gradient.norm() <= gradient_tolerance ? "the gradient's norm fell below 1e-8"
                                                                     : "the objective changed by less than 1e4 machine epsilons relative";
      break;
    } catch (const ppl::source_error&) {
      throw;
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception& e) {  // the solver's: a line search that failed, a direction not downhill
      if (ppl::interrupted()) {
        out.stopped = "interrupted";
        break;
      }
      // Near the optimum rounding can hide the rise a line search looks for: the history
      // starts afresh from the best point, and a search that then gains nothing is done.
      y = f.best;
      if (fresh == fresh_starts || !(f.best_value > before) || y.size() == 0) {
        out.converged = f.best_gradient.size() > 0 && f.best_gradient.norm() <= 1e-3 * std::max(1.0, std::abs(f.best_value));
        out.stopped = fmt::format("no line search could raise the objective further ({}); the gradient's norm there is {:.3g}", e.what(),
                                  f.best_gradient.norm());
        break;
      }
    }
  }
  out.y = f.best;
  out.objective = f.best_value;
  out.gradient = f.best_gradient;
  out.evaluations = f.evaluations;
  return out;
}

mode_result find_mode(samplers::unconstrained_target& target, int max_iterations) {
  const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)> log_p = [&target](const Eigen::VectorXd& y, Eigen::VectorXd& g) {
    return target.log_density(y, g);
  };
  mode_result out = maximise(log_p, target.position(), max_iterations);
  if (out.y.size() > 0) target.set(out.y);
  return out;
}

mode_problem::mode_problem(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o, const std::string& method,
                           std::size_t start) {
  graph_ = std::make_unique<particles::particle_graph>(m, data, o.monitors);
  model::graph& g = graph_->graph();
  const std::vector<char> predictive = lang::predictive_statements(m);
  std::vector<char> predicted(m.variables.size(), 0);
  for (std::size_t s = 0; s < m.statements.size(); ++s)
    if (predictive[s] && m.statements[s].target >= 0) predicted[static_cast<std::size_t>(m.statements[s].target)] = 1;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown && predicted[v]) predicted_.push_back(static_cast<int>(v));
  const unknown_split split = split_unknowns(g, predicted);
  sought_ = split.smooth;
  if (!split.rough.empty())
    throw std::invalid_argument("--method " + method + " follows the gradient of log p, and " + split.rough + " (use --method mcmc)");
  if (!split.discrete.empty()) {
    try {
      summed_ = std::make_unique<summed_out>(g, split.discrete);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("--method " + method + " seeks the mode of the continuous unknowns on the unconstrained scale, with " +
                                  "the discrete ones summed out, and " + e.what() + " (sum it out in the model, as Stan's users do, or " +
                                  "use --method mcmc)");
    }
    g.take_terms(summed_.get());
  }
  ppl::rng rng = particles::item_stream(o.seed, start, 0x6d6f6465u);
  g.start(rng, o.start);
  start_where_finite(g, rng, o.start, [&g] {
    g.update_derived();
    return g.log_density();
  });
  target_.emplace(g, sought_);
  if (!o.jacobian) target_->drop_jacobian();
}

void mode_problem::set(const Eigen::VectorXd& y, ppl::rng& rng, bool most_probable) {
  model::graph& g = graph_->graph();
  if (y.size() > 0) target_->set(y);
  if (summed_) summed_->set(most_probable ? nullptr : &rng);
  for (int v : predicted_) g.draw_variable(v, rng);
  g.update_derived();
}

std::string mode_problem::sought_names() const {
  std::string out;
  for (int v : sought_) out += (out.empty() ? "" : ", ") + graph_->graph().model().variables[static_cast<std::size_t>(v)].name;
  return out;
}

void report_summed(const mode_problem& problem, weighted_result& r) {
  if (problem.summed()) r.report.push_back("summed out: " + problem.summed()->names());
}

std::vector<std::string> approximation_columns(mode_problem& problem) {
  std::vector<std::string> out = {"lp__", "log_p__", "log_g__"};
  for (auto& c : problem.graph().columns(false))
    if (c != "lp__") out.push_back(std::move(c));
  return out;
}

void draw_approximation(mode_problem& problem, long n, ppl::rng& rng, const std::function<double(ppl::rng&, Eigen::VectorXd&)>& draw,
                        std::vector<double>& rows, std::vector<double>& log_ratios) {
  auto& target = problem.target();
  Eigen::VectorXd y(target.dimension()), gradient(target.dimension());
  std::vector<double> row;
  for (long i = 0; i < n && !ppl::interrupted(); ++i) {
    const double log_q = draw(rng, y);
    const double log_p = target.log_density(y, gradient);
    problem.set(y, rng);
    problem.graph().row(false, 0, row);
    row.insert(row.begin() + 1, {log_p, log_q});
    rows.insert(rows.end(), row.begin(), row.end());
    log_ratios.push_back(std::isfinite(log_p) ? log_p - log_q : -INFINITY);
  }
}

evidence_estimate judge_ratios(weighted_result& r, const std::vector<double>& log_ratios, const std::string& what,
                               std::vector<double>* smoothed) {
  std::vector<double> finite;
  for (double x : log_ratios)
    if (std::isfinite(x)) finite.push_back(x);
  if (smoothed) smoothed->assign(log_ratios.size(), -INFINITY);  // a draw outside the support weighs 0
  if (finite.size() >= 2) {
    const draws::psis_weights w = draws::psis_smooth(finite, 1.0);
    if (finite.size() >= 5) r.pareto_k = w.pareto_k;
    if (smoothed)
      for (std::size_t i = 0, f = 0; i < log_ratios.size(); ++i)
        if (std::isfinite(log_ratios[i])) (*smoothed)[i] = w.log_weights[f++];
  }
  r.ess = particles::effective_size(log_ratios);
  evidence_estimate is = particles::log_mean_exp(log_ratios);
  // k-hat is an estimate from the draws, and can come out low where q is far too narrow in
  // some direction (the funnel's mean-field q: 0.57-0.69 at some seeds, its tail index
  // about 1): a tenth of the draws carrying the weight says so too.
  const bool few = log_ratios.size() >= 100 && r.ess < 0.1 * static_cast<double>(log_ratios.size());
  if (r.pareto_k > 0.7 || few) is.se = NAN;
  if (std::isnan(r.pareto_k) && finite.size() >= 5)
    r.report.push_back(fmt::format("pareto_k: n/a (the ratios p / q are equal to rounding: q is the posterior; ESS {:.1f} of {})", r.ess,
                                   log_ratios.size()));
  else
    r.report.push_back(fmt::format("pareto_k: {:.3f} (of the ratios p / q, ESS {:.1f} of {})", r.pareto_k, r.ess, log_ratios.size()));
  r.report.push_back(fmt::format("log_evidence_importance: {:.6f} (se {}; q as the proposal)", is.log_z,
                                 std::isfinite(is.se) ? fmt::format("{:.6f}", is.se) : std::string("n/a")));
  if (const std::size_t outside = log_ratios.size() - finite.size(); outside > 0)
    r.warnings.push_back(fmt::format("{} of the {} draws fell where log p is not finite: {} reaches outside the posterior's support", outside,
                                     log_ratios.size(), what));
  if (few && !(r.pareto_k > 0.7)) {
    r.unreliable = true;
    r.warnings.push_back(fmt::format("the ratios p / q have an ESS of {:.1f} of {} draws: {} covers the posterior poorly (too narrow, or "
                                     "missing a region), so its draws, means and evidence are not to be trusted; use --method mcmc",
                                     r.ess, log_ratios.size(), what));
  }
  if (r.pareto_k > 0.7) {
    r.unreliable = true;
    r.warnings.push_back(fmt::format("the draws' Pareto k-hat is {:.2f}, above 0.7: {} is far from the posterior (its tails, a skew, a "
                                     "funnel or another mode), so its draws, means and evidence are not to be trusted; use --method mcmc",
                                     r.pareto_k, what));
  }
  return is;
}

void keep_approximation(weighted_result& r, const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance) {
  r.q_mean.assign(mean.data(), mean.data() + mean.size());
  r.q_covariance.resize(static_cast<std::size_t>(covariance.size()));
  Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(r.q_covariance.data(), covariance.rows(), covariance.cols()) =
      covariance;
}

void report_search(const mode_result& found, const monte_carlo_options& o, weighted_result& r) {
  r.report.push_back(fmt::format("log_p_mode: {:.6f} ({})", found.objective,
                                 o.jacobian ? "on the unconstrained scale, with the Jacobian" : "on the constrained scale, without the Jacobian"));
  r.report.push_back(fmt::format("iterations: {}, gradients: {}", found.iterations, found.evaluations));
  r.report.push_back("stopped: " + found.stopped);
  if (!found.converged && found.stopped != "interrupted")
    r.warnings.push_back("the mode search did not converge (" + found.stopped + "): the point reported is the best it reached, "
                         "not a mode (raise --iterations, or start elsewhere with --init)");
}

weighted_result optimize_mode(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  mode_problem problem(m, data, o, "optimize");
  weighted_result r;
  const mode_result found = find_mode(problem.target(), iteration_limit(o, 2000));
  ppl::rng rng = particles::item_stream(o.seed, 1, 0x6d6f6465u);
  problem.set(found.y, rng, true);
  r.columns = problem.graph().columns(false);
  std::vector<double> row;
  problem.graph().row(false, 0, row);
  r.rows = row;
  r.row_count = 1;
  report_search(found, o, r);
  if (found.stopped == "interrupted") {
    r.interrupted = true;
    r.stopped = fmt::format("the search after {} iterations, at the best point it had reached", found.iterations);
  }
  if (!problem.sought_names().empty())
    r.notes.push_back("the row written is the mode of " + problem.sought_names() + ", not a draw: a point estimate without "
                      "uncertainty (--method laplace adds the normal approximation around it)");
  report_summed(problem, r);
  if (problem.summed()) {
    r.notes.push_back(problem.summed()->names() + " summed out of log p: " +
                      (problem.sought_names().empty() ? std::string("there is no continuous unknown, and ")
                                                      : "the mode is that of the rest's marginal, and ") +
                      "the row gives each element its most probable value given the rest");
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
