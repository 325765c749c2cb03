#pragma once
// Hamiltonian dynamics on a block's unconstrained scale (samplers/unconstrained.hpp) in the
// adapted metric: the leapfrog integrator, the energy, Stan's initial step-size heuristic,
// and the static HMC transition (Neal 2011, "MCMC using Hamiltonian dynamics", §5.3). The
// points live in storage the caller keeps from one transition to the next, so a leapfrog
// step allocates nothing.
#include <Eigen/Dense>
#include <cmath>

#include "core/random.hpp"
#include "samplers/hamiltonian_metric.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::samplers::hamiltonian {

// An energy error beyond which a transition is divergent: the trajectory has left the
// region where the integrator follows the dynamics.
constexpr double max_energy_error = 1000;

struct point {
  Eigen::VectorXd q, p, g, v;  // position, momentum, gradient of log p at q, velocity M^-1 p
  double lp = -INFINITY;       // log p at q, the Jacobian included
  double log_jacobian = 0;     // that Jacobian term alone
  long evaluation = 0;         // which of the target's evaluations gave lp and g (from 1; 0: none)
};

// Exchanges two points' storage without copying.
inline void swap(point& a, point& b) {
  a.q.swap(b.q);
  a.p.swap(b.p);
  a.g.swap(b.g);
  a.v.swap(b.v);
  std::swap(a.lp, b.lp);
  std::swap(a.log_jacobian, b.log_jacobian);
  std::swap(a.evaluation, b.evaluation);
}

// What one transition did.
struct transition_result {
  double accept_stat = 0;  // for step-size adaptation and the draws' accept_stat__
  int depth = 0;           // NUTS's tree depth; 0 for static HMC
  long leapfrogs = 0;
  bool divergent = false;
};

class dynamics {
 public:
  dynamics(unconstrained_target& target, const metric& m) : target_(target), metric_(m) {}

  // The log density and its gradient at z.q; the graph moves there.
  void evaluate(point& z);
  // Whether the graph holds z: the last evaluation was z's.
  bool holds(const point& z) const { return z.evaluation != 0 && z.evaluation == evaluations_; }
  // A new momentum p ~ N(0, M) for z, and its velocity.
  void draw_momentum(point& z, ppl::rng& rng) const;
  // One leapfrog step of size eps (negative: backwards in time). When the new position's
  // density is not finite the momentum keeps its half step: the energy is infinite anyway.
  void leapfrog(point& z, double eps);
  // -log p(q) + 1/2 p' M^-1 p, infinite where it is NaN.
  static double hamiltonian(const point& z) {
    const double h = -z.lp + metric::kinetic(z.p, z.v);
    return std::isnan(h) ? INFINITY : h;
  }
  // Stan's heuristic: double or halve eps until one leapfrog step's acceptance probability
  // from `start` (a new momentum each time) crosses 0.8. The graph is left at a trial point.
  double find_step_size(const point& start, ppl::rng& rng, double eps);
  // Static HMC from z: a new momentum, `steps` leapfrog steps of size eps and a Metropolis
  // correction; z becomes the state kept.
  transition_result static_transition(point& z, ppl::rng& rng, double eps, long steps);

 private:
  unconstrained_target& target_;
  const metric& metric_;
  long evaluations_ = 0;
  point trial_;  // find_step_size's and static_transition's scratch point
};

}  // namespace ppl::samplers::hamiltonian
