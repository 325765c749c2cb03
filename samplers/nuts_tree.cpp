#include "samplers/nuts_tree.hpp"

#include <boost/random/uniform_01.hpp>
#include <cmath>

namespace ppl::samplers::hamiltonian {

namespace {

double log_sum_exp(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// A trajectory keeps going while its ends' velocities both point along rho, the sum of the
// momenta between them. `rho` may be a sum not yet evaluated: it is read element by element.
template <class Sum>
bool no_u_turn(const Eigen::VectorXd& v_back, const Eigen::VectorXd& v_front, const Sum& rho) {
  return v_front.dot(rho) > 0 && v_back.dot(rho) > 0;
}

}  // namespace

transition_result nuts_tree::transition(dynamics& dyn, point& z, ppl::rng& rng, double eps, int max_depth) {
  boost::random::uniform_01<double> uniform;
  if (levels_.size() < static_cast<std::size_t>(max_depth) + 1) levels_.resize(static_cast<std::size_t>(max_depth) + 1);
  dyn.draw_momentum(z, rng);
  walk w{dyn, rng, dynamics::hamiltonian(z), eps};
  // z is also the state drawn so far; the two ends start there.
  forward_ = z;
  backward_ = z;
  forward_end_.p = z.p;
  forward_end_.v = z.v;
  backward_end_ = forward_end_;
  rho_ = z.p;
  double log_weight = 0;  // log of the sum of exp(H0 - H) over the trajectory
  int depth = 0;
  while (depth < max_depth) {
    const bool go_forward = uniform(rng) > 0.5;
    double log_weight_new = -INFINITY;
    point& end = go_forward ? forward_ : backward_;
    w.eps = go_forward ? eps : -eps;
    if (!build(depth, end, proposal_, new_begin_, new_end_, rho_new_, log_weight_new, w)) break;
    ++depth;
    // Biased progressive sampling: move to the new subtree with probability
    // min(1, its weight / the old trajectory's weight).
    if (log_weight_new > log_weight || uniform(rng) < std::exp(log_weight_new - log_weight)) swap(z, proposal_);
    log_weight = log_sum_exp(log_weight, log_weight_new);
    // The merged trajectory, in time order: [backward end ... forward end].
    const bool turning = go_forward ? turns(backward_end_, forward_end_, rho_, new_begin_, new_end_, rho_new_)
                                    : turns(new_end_, new_begin_, rho_new_, backward_end_, forward_end_, rho_);
    rho_ += rho_new_;
    std::swap(go_forward ? forward_end_ : backward_end_, new_end_);
    if (turning) break;
  }
  transition_result r;
  r.depth = depth;
  r.leapfrogs = w.leapfrogs;
  r.divergent = w.divergent;
  r.accept_stat = w.leapfrogs > 0 ? w.sum_metro / static_cast<double>(w.leapfrogs) : 0;
  return r;
}

// Whether the trajectory [a_begin .. a_end][b_begin .. b_end] (in time order, with rho_a and
// rho_b the sums of the two parts' momenta) turns back on itself: as a whole, or across the
// join, where each part with the nearest state of the other must not turn either.
bool nuts_tree::turns(const edge& a_begin, const edge& a_end, const Eigen::VectorXd& rho_a, const edge& b_begin,
                      const edge& b_end, const Eigen::VectorXd& rho_b) {
  return !no_u_turn(a_begin.v, b_end.v, rho_a + rho_b) || !no_u_turn(a_begin.v, b_begin.v, rho_a + b_begin.p) ||
         !no_u_turn(a_end.v, b_end.v, rho_b + a_end.p);
}

// Extends the trajectory from `end` by 2^depth leapfrog steps of size w.eps, leaving `end`
// at the new end. `begin` and `last` get the momenta and velocities at the subtree's first
// and last states (in the direction of travel), `rho` the sum of its momenta, `log_weight`
// the log of its sum of exp(H0 - H), `proposal` a state drawn from it with those weights.
// False when it diverged or a sub-trajectory turned.
bool nuts_tree::build(int depth, point& end, point& proposal, edge& begin, edge& last, Eigen::VectorXd& rho,
                      double& log_weight, walk& w) {
  if (depth == 0) {
    w.dyn.leapfrog(end, w.eps);
    ++w.leapfrogs;
    const double h = dynamics::hamiltonian(end);
    if (h - w.h0 > max_energy_error) w.divergent = true;
    log_weight = w.h0 - h;
    w.sum_metro += log_weight > 0 ? 1 : std::exp(log_weight);
    proposal = end;
    begin.p = end.p;
    begin.v = end.v;
    last = begin;
    rho = end.p;
    return !w.divergent;
  }
  level& l = levels_[static_cast<std::size_t>(depth)];
  double log_weight_first = -INFINITY, log_weight_second = -INFINITY;
  if (!build(depth - 1, end, proposal, begin, l.first_end, l.rho_first, log_weight_first, w)) return false;
  if (!build(depth - 1, end, l.proposal, l.second_begin, last, l.rho_second, log_weight_second, w)) return false;
  // Within a subtree the draw is uniform in the weights.
  log_weight = log_sum_exp(log_weight_first, log_weight_second);
  if (boost::random::uniform_01<double>()(w.rng) < std::exp(log_weight_second - log_weight)) swap(proposal, l.proposal);
  rho = l.rho_first + l.rho_second;
  // In time order the subtree is [begin .. first_end][second_begin .. last] whatever the
  // direction, and the criterion is symmetric in it.
  return !turns(begin, l.first_end, l.rho_first, l.second_begin, last, l.rho_second);
}

}  // namespace ppl::samplers::hamiltonian
