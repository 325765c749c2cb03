#include "samplers/hamiltonian_dynamics.hpp"

#include <boost/random/uniform_01.hpp>

namespace ppl::samplers::hamiltonian {

void dynamics::evaluate(point& z) {
  z.lp = target_.log_density(z.q, z.g);
  z.log_jacobian = target_.log_jacobian();
  z.evaluation = ++evaluations_;
}

void dynamics::draw_momentum(point& z, ppl::rng& rng) const {
  metric_.draw(rng, z.p);
  metric_.velocity(z.p, z.v);
}

void dynamics::leapfrog(point& z, double eps) {
  z.p += 0.5 * eps * z.g;
  metric_.velocity(z.p, z.v);
  z.q += eps * z.v;
  evaluate(z);
  if (std::isfinite(z.lp)) z.p += 0.5 * eps * z.g;
  metric_.velocity(z.p, z.v);
}

double dynamics::find_step_size(const point& start, ppl::rng& rng, double eps) {
  int direction = 0;
  for (int tries = 0; tries < 100; ++tries) {
    trial_ = start;
    draw_momentum(trial_, rng);
    const double h0 = hamiltonian(trial_);
    leapfrog(trial_, eps);
    const double delta = h0 - hamiltonian(trial_);
    const int want = delta > std::log(0.8) ? 1 : -1;
    if (direction == 0) direction = want;
    else if (want != direction) break;
    eps = direction > 0 ? 2 * eps : eps / 2;
    if (eps > 1e7 || eps < 1e-12) break;
  }
  return eps;
}

transition_result dynamics::static_transition(point& z, ppl::rng& rng, double eps, long steps) {
  draw_momentum(z, rng);
  trial_ = z;  // the start, kept in case the proposal is rejected
  const double h0 = hamiltonian(z);
  transition_result r;
  for (long s = 0; s < steps; ++s) {
    leapfrog(z, eps);
    ++r.leapfrogs;
    if (hamiltonian(z) - h0 > max_energy_error) {
      r.divergent = true;
      break;
    }
  }
  r.accept_stat = r.divergent ? 0 : std::min(1.0, std::exp(h0 - hamiltonian(z)));
  if (boost::random::uniform_01<double>()(rng) >= r.accept_stat) swap(z, trial_);
  return r;
}

}  // namespace ppl::samplers::hamiltonian
