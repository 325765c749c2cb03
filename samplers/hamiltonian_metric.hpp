#pragma once
// The metric of Hamiltonian Monte Carlo and its estimate during warmup (samplers/
// hamiltonian.cpp). The kinetic energy is 1/2 p' M^-1 p with M^-1 the adapted inverse
// metric: the posterior's variances on the unconstrained scale, or with --metric dense its
// covariance (held with its Cholesky factor L, M^-1 = L L'), or with --metric auto
// whichever each window's estimate calls for (metric_estimate::update). Every
// operation writes into storage the caller owns: a leapfrog step allocates nothing.
#include <Eigen/Dense>
#include <map>
#include <string>
#include <vector>

#include "core/archive.hpp"
#include "core/random.hpp"
#include "samplers/sampler.hpp"

namespace ppl::samplers::hamiltonian {

// A normal approximation's covariance on the unconstrained scale by coordinate (variable,
// element: unconstrained_target::coordinate_keys), from which a block starts its metric
// (inference/chain_start.cpp, --init pathfinder): its variances, and the whole matrix
// where the path has at most metric_estimate::dense_limit coordinates.
struct path_metric {
  std::map<std::pair<int, ppl::index_t>, long> row;
  Eigen::VectorXd variances;
  Eigen::MatrixXd covariance;  // empty: the variances alone
};

class metric {
 public:
  void reset(long d, bool dense);
  bool dense() const { return dense_; }
  long dimension() const { return diagonal_.size(); }
  // Either makes the metric of that kind.
  void set_diagonal(const Eigen::VectorXd& v);
  // Keeps the previous metric when c is not positive definite.
  void set_covariance(const Eigen::MatrixXd& c);
  // p ~ N(0, M): p = z / sqrt(diagonal), or p = L'^-1 z; d standard normal draws either way.
  void draw(ppl::rng& rng, Eigen::VectorXd& p) const;
  // v = M^-1 p, the velocity dq/dt (v must not be p).
  void velocity(const Eigen::VectorXd& p, Eigen::VectorXd& v) const {
    if (dense_) v.noalias() = covariance_ * p;
    else v = diagonal_.cwiseProduct(p);
  }
  // 1/2 p' M^-1 p, given v = M^-1 p.
  static double kinetic(const Eigen::VectorXd& p, const Eigen::VectorXd& v) { return 0.5 * p.dot(v); }
  void persist(ppl::archive& a);
  // As Stan's adaptation block gives it: the diagonal on one line, or the matrix by rows.
  std::vector<std::string> lines() const;

 private:
  bool dense_ = false;
  Eigen::VectorXd diagonal_, sqrt_diagonal_;
  Eigen::MatrixXd covariance_, chol_;
};

// The running (co)variance of the positions drawn in one adaptation window (Welford's
// algorithm), and the metric it gives: the sample (co)variance shrunk towards 1e-3 I as
// Stan does, n / (n + 5) of the estimate and 5 / (n + 5) of the regulariser.
//
// `automatic` (blocks of at most dense_limit coordinates) keeps the covariance and makes
// the metric dense when the window has at least ten draws a coordinate and its
// correlations are strong: when the condition number
// of its correlation matrix exceeds both 10 and three times what n draws of d uncorrelated
// coordinates give by chance, ((1 + sqrt(d/n)) / (1 - sqrt(d/n)))^2 (the edges of the
// Marchenko-Pastur law). A diagonal metric leaves NUTS's trajectories about sqrt of that
// number longer, so a dense one pays for its d^2 work per leapfrog step there; elsewhere
// the metric stays diagonal, as Stan's default. A block in which a prior's scale is an
// unknown, or a product of factors that both read the block (samplers::funnel_shaped: a
// funnel, a non-centred scale, a latent GP, whose correlations change with that
// scale) stays diagonal too (samplers/hamiltonian.cpp): on the BUGS Seeds model a dense
// metric there raised the divergent transitions from 18 to 280 in 4,000, and on
// posteriordb's latent GP gp_pois_regr it took the ESS from 1,277 to 38.
class metric_estimate {
 public:
  static constexpr long dense_limit = 100;
  void reset(long d, metric_choice choice);
  void add(const Eigen::VectorXd& q);
  // Sets the metric from the window's draws (when there are at least 3) and starts a new window.
  void update(metric& m);
  // With automatic, correlations known before the windows (a path's, from which the metric
  // started): a window with too few draws a coordinate to estimate a dense metric gives
  // one with its own variances and these correlations, in place of a diagonal one that
  // would lose them until a window long enough.
  void guide(Eigen::MatrixXd correlation) { guide_ = std::move(correlation); }
  bool automatic() const { return automatic_; }
  void persist(ppl::archive& a) { a(count_, mean_, m2_diag_, m2_, guide_); }
  // Whether a window's regularised covariance calls for a dense metric (automatic).
  static bool strongly_correlated(const Eigen::MatrixXd& covariance, long draws);

 private:
  bool guide_fits(const Eigen::VectorXd& variances) const;

 public:

 private:
  bool dense_ = false, automatic_ = false;
  long count_ = 0;
  Eigen::VectorXd mean_, m2_diag_, delta_, after_;
  Eigen::MatrixXd m2_, guide_;
};

}  // namespace ppl::samplers::hamiltonian
