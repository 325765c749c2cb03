#pragma once
// The posterior's mode, the ground of the seeds' simplest approximations ("approximate p
// with the closest q from a tractable family", the variational half): `--method optimize`
// reports it, `--method laplace` (inference/laplace.cpp) fits a normal there. The search is
// L-BFGS (Nocedal & Wright 2006, ch. 7; LBFGS++'s solver) on the unconstrained scale of
// every continuous unknown at once, where the target is smooth and has no bounds.
#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inference/monte_carlo.hpp"
#include "inference/particles.hpp"
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

// L-BFGS up the target from its current position until the gradient's norm falls below
// 1e-8, or log p changes by less than 1e4 machine epsilons relative over an iteration
// (Stan's tol_grad and tol_rel_obj), or `max_iterations` pass. A line search that cannot
// go up (rounding near the mode) starts the history afresh from the best point, at most
// twice. Leaves the target at the best point; Ctrl-C stops the search there.
mode_result find_mode(samplers::unconstrained_target& target, int max_iterations);

// A model set for a search of its mode: one graph started as chain 1 starts (--init
// included, repaired until its density is finite), the continuous unknowns sought, and
// the predictions (`~` statements no evidence reaches, lang::predictive_statements),
// which are drawn given the rest at every point written. Throws std::invalid_argument
// naming the unknowns a mode cannot be sought for: discrete ones, or ones that reach the
// density through a function without a gradient.
class mode_problem {
 public:
  mode_problem(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o, const std::string& method);
  particles::particle_graph& graph() { return *graph_; }
  samplers::unconstrained_target& target() { return *target_; }
  // Sets the unknowns sought to y, draws the predictions from `rng` and recomputes the
  // derived variables.
  void set(const Eigen::VectorXd& y, ppl::rng& rng);
  // The unknowns sought, by name, for the report.
  std::string sought_names() const;

 private:
  std::unique_ptr<particles::particle_graph> graph_;
  std::vector<int> sought_, predicted_;
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

// The report's lines of a search: the target's value, the iterations and evaluations, and
// why it stopped; a warning when it did not converge.
void report_search(const mode_result& found, const monte_carlo_options& o, weighted_result& r);

}  // namespace ppl::inference
