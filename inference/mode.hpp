#pragma once
// The posterior's mode, the ground of the seeds' simplest approximations ("approximate p
// with the closest q from a tractable family", the variational half): `--method optimize`
// reports it, `--method laplace` (inference/laplace.cpp) fits a normal there. The search is
// L-BFGS (Nocedal & Wright 2006, ch. 7; LBFGS++'s solver) on the unconstrained scale of
// every continuous unknown at once, where the target is smooth and has no bounds.
#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inference/monte_carlo.hpp"
#include "inference/particles.hpp"
#include "inference/summed_out.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::inference {

struct mode_result {
  Eigen::VectorXd y;            // the best point found, unconstrained
  double objective = -INFINITY; // the target there: log p, with the Jacobian unless dropped
  Eigen::VectorXd gradient;     // the target's gradient there
  int iterations = 0;
  long evaluations = 0;         // of the target and its gradient
  bool converged = false;       // stopped by a tolerance, not by the iteration limit or a failed line search
  std::string stopped;          // why, in words
};

// L-BFGS (LBFGS++) up a smooth function f from `start` (f returns its value and gradient;
// -inf or NaN where it is not defined, which the line search steps back from) until the
// gradient's norm falls below 1e-8, or f changes by less than 1e4 machine epsilons relative
// over an iteration, or `max_iterations` pass. A line search that cannot go up (rounding
// near the optimum) starts the history afresh from the best point, at most twice. Ctrl-C
// stops it at the best point.
mode_result maximise(const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>& log_f, const Eigen::VectorXd& start,
                     int max_iterations);

// maximise up log p from the target's current position (Stan's tol_grad and tol_rel_obj
// are its tolerances). Leaves the target at the best point.
mode_result find_mode(samplers::unconstrained_target& target, int max_iterations);

// A model set for a search of its mode: one graph started as chain 1 starts (--init
// included, repaired until its density is finite), the continuous unknowns sought, and
// the predictions (`~` statements no evidence reaches, lang::predictive_statements),
// which are drawn given the rest at every point written. Discrete unknowns are summed out
// of log p (inference/summed_out.hpp). Throws std::invalid_argument naming the unknowns a
// mode cannot be sought for: discrete ones that cannot be summed so, or ones that reach
// the density through a function without a gradient.
class mode_problem {
 public:
  // `start`: which of several starts (Pathfinder's paths), each from a stream of its own.
  mode_problem(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o, const std::string& method,
               std::size_t start = 0);
  particles::particle_graph& graph() { return *graph_; }
  samplers::unconstrained_target& target() { return *target_; }
  // Sets the unknowns sought to y, the discrete unknowns summed out to a draw from their
  // conditional given y (or with `most_probable` to their most probable values), draws the
  // predictions from `rng` and recomputes the derived variables.
  void set(const Eigen::VectorXd& y, ppl::rng& rng, bool most_probable = false);
  // The discrete unknowns summed out of log p (inference/summed_out.hpp), or null.
  const summed_out* summed() const { return summed_.get(); }
  // The unknowns sought, by name, for the report.
  std::string sought_names() const;

 private:
  std::unique_ptr<particles::particle_graph> graph_;
  std::vector<int> sought_, predicted_;
  std::unique_ptr<summed_out> summed_;  // after graph_: it reads the graph, and goes first
  std::optional<samplers::unconstrained_target> target_;
};

// The Laplace approximation N(mean, (L L')^-1) on the unconstrained scale at a mode the
// search found, and Laplace's log evidence (inference/laplace.cpp). Throws
// std::invalid_argument where log p does not curve down there along some coordinate, or
// is not finite beside the mode.
struct normal_approximation {
  Eigen::VectorXd mean;
  Eigen::MatrixXd factor;  // L, lower triangular: the precision, minus log p's Hessian, is L L'
  double log_evidence = NAN;
  long evaluations = 0;    // gradients the Hessian took
};
normal_approximation laplace_fit(samplers::unconstrained_target& target, const mode_result& mode);

// The report's line naming the discrete unknowns summed out of log p, if any.
void report_summed(const mode_problem& problem, weighted_result& r);

// The columns of an approximation's draws: lp__, log_p__ and log_g__ (log p and log q on the
// unconstrained scale), then the recorded ones.
std::vector<std::string> approximation_columns(mode_problem& problem);

// n draws of an approximation q written as rows of those columns (appended to `rows`),
// each with its log ratio p / q (appended to `log_ratios`; -inf where log p is not
// finite). `draw` makes a point y and returns log q(y). Ctrl-C stops it early.
void draw_approximation(mode_problem& problem, long n, ppl::rng& rng, const std::function<double(ppl::rng&, Eigen::VectorXd&)>& draw,
                        std::vector<double>& rows, std::vector<double>& log_ratios);

// What the ratios p / q say (Yao, Vehtari, Simpson & Gelman 2018): their Pareto k-hat and
// ESS (in r), the importance-sampling evidence with q as the proposal (returned; no
// standard error above k = 0.7), their report lines, and the warnings: draws outside the
// support, and above k = 0.7 that `what` is far from the posterior (r.unreliable).
// `smoothed`, when given, gets the ratios' PSIS weights, normalised logs in their order
// (-inf for a draw outside the support; all -inf with fewer than two finite ratios).
evidence_estimate judge_ratios(weighted_result& r, const std::vector<double>& log_ratios, const std::string& what,
                               std::vector<double>* smoothed = nullptr);

// Keeps q's mean and covariance in r (weighted_result::q_mean, q_covariance).
void keep_approximation(weighted_result& r, const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance);

// The report's lines of a search: the target's value, the iterations and evaluations, and
// why it stopped; a warning when it did not converge.
void report_search(const mode_result& found, const monte_carlo_options& o, weighted_result& r);

}  // namespace ppl::inference
