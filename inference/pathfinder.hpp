#pragma once
// Pathfinder (Zhang, Carpenter, Gelman and Vehtari 2022, JMLR 23(306)), single path: L-BFGS
// from a start toward the mode of log p on the unconstrained scale, a normal
// approximation at each iterate (mean one quasi-Newton step ahead, covariance L-BFGS's
// inverse Hessian), and the one whose ELBO, estimated from a few draws, is largest.
// A chain's start is drawn from it (inference/chain_start.cpp): a point in the bulk, not
// at a vague prior's typical value, where a sampler's adaptation strands, nor at the mode,
// which in a hierarchical model is a funnel's neck.
#include <Eigen/Dense>
#include <deque>
#include <string>

#include "core/random.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::inference {

struct pathfinder_options {
  int max_iterations = 200;
  int history = 6;        // (s, y) pairs L-BFGS keeps (Stan's default is 5, the paper's 6)
  int elbo_draws = 8;     // draws that estimate each iterate's ELBO
  int patience = 30;      // iterations without a better ELBO after which the path stops
  double relative_tolerance = 2.2e-12;  // on the change of log p between iterates (Stan's 1e4 machine epsilons)
};

// L-BFGS's inverse Hessian from its last (s, y) pairs in the compact form (Byrd, Nocedal
// and Schnabel 1994) Pathfinder draws from: diag(a) + B G B', with B = [diag(a) Y, S] and G
// of size 2J, a the diagonal estimate the path updates (update_diagonal). Empty history:
// diag(a) alone.
class inverse_hessian {
 public:
  inverse_hessian() = default;
  inverse_hessian(const std::deque<Eigen::VectorXd>& s, const std::deque<Eigen::VectorXd>& y, const Eigen::VectorXd& diagonal);
  Eigen::VectorXd times(const Eigen::VectorXd& v) const;
  // Its diagonal: the approximation's variances.
  Eigen::VectorXd diagonal() const;
  // Factors it for drawing; false (and the draws then take diag(a) alone) when rounding
  // left the low-rank part indefinite.
  bool factor();
  // A draw y of N(mean, this); returns log q(y).
  double draw(ppl::rng& rng, const Eigen::VectorXd& mean, Eigen::VectorXd& y) const;

 private:
  Eigen::VectorXd a_;
  Eigen::MatrixXd b_, g_;
  Eigen::MatrixXd q_, l_;  // thin Q of diag(a)^(-1/2) B and the Cholesky factor of I + R G R'
  double log_det_l_ = 0;
};

// The diagonal a after the pair (s, y), by the paper's Algorithm 3 (after Gilbert and
// Lemarechal 1989); `a` starts at ones.
void update_diagonal(Eigen::VectorXd& a, const Eigen::VectorXd& s, const Eigen::VectorXd& y);

struct path_result {
  Eigen::VectorXd mean;  // the chosen approximation's
  inverse_hessian covariance;
  double elbo = -INFINITY;
  int chosen = 0;        // its iterate (0: none had a finite ELBO; the mean is the last iterate)
  int iterations = 0;
  long evaluations = 0;  // of the log density and its gradient
  std::string stopped;   // why the path ended
};

// Runs the path from the target's current position. Leaves the target's variables at the
// last point evaluated.
path_result find_path(samplers::unconstrained_target& target, ppl::rng& rng, const pathfinder_options& o = {});

}  // namespace ppl::inference
