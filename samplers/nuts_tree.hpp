#pragma once
// One transition of the No-U-Turn sampler (Hoffman & Gelman 2014, JMLR 15) in the form
// Stan uses: the trajectory doubles forwards or backwards in time until it turns back on
// itself — the generalised criterion on the sum of momenta (Betancourt 2017, "A conceptual
// introduction to Hamiltonian Monte Carlo", §A.4.2), checked across merged subtrees too —
// or reaches the maximum depth; the next state is drawn from the trajectory with weights
// exp(-H), uniformly within a new subtree and biased towards the new subtree when it is
// merged (multinomial sampling, ibid. §A.3.2), rather than by slice sampling.
//
// The tree's working storage (a proposal, two edges and two momentum sums per depth) is
// kept from one transition to the next, so a transition allocates nothing once the tree
// has been as deep before.
#include <Eigen/Dense>
#include <vector>

#include "samplers/hamiltonian_dynamics.hpp"

namespace ppl::samplers::hamiltonian {

class nuts_tree {
 public:
  // One transition from z, whose momentum is redrawn, with steps of size eps and at most
  // 2^max_depth - 1 of them; z becomes the state drawn.
  transition_result transition(dynamics& dyn, point& z, ppl::rng& rng, double eps, int max_depth);

 private:
  struct edge {  // the momentum and velocity at one end of a (sub)trajectory
    Eigen::VectorXd p, v;
  };
  struct level {  // what building a subtree of one depth holds while its halves are built
    point proposal;
    edge first_end, second_begin;
    Eigen::VectorXd rho_first, rho_second;
  };
  struct walk {  // the transition's running totals
    dynamics& dyn;
    ppl::rng& rng;
    double h0, eps;
    long leapfrogs = 0;
    double sum_metro = 0;
    bool divergent = false;
  };

  bool build(int depth, point& end, point& proposal, edge& begin, edge& last, Eigen::VectorXd& rho, double& log_weight, walk& w);
  static bool turns(const edge& a_begin, const edge& a_end, const Eigen::VectorXd& rho_a, const edge& b_begin, const edge& b_end,
                    const Eigen::VectorXd& rho_b);

  std::vector<level> levels_;  // by depth
  point forward_, backward_, proposal_;
  edge forward_end_, backward_end_, new_begin_, new_end_;
  Eigen::VectorXd rho_, rho_new_;
};

}  // namespace ppl::samplers::hamiltonian
