// The likelihood's terms apart from the prior's, and a temperature on them: the tempered
// target prior x likelihood^beta of annealed importance sampling and tempered SMC (Neal
// 2001; Del Moral, Doucet & Jasra 2006), read by every sampler through the graph's densities.
#include <cmath>
#include <stdexcept>

#include "model/graph.hpp"

namespace ppl::model {

void graph::set_temperature(double beta) {
  if (!(beta >= 0 && beta <= 1)) throw std::invalid_argument("a temperature must lie in [0, 1]");
  temperature_ = beta;
}

double graph::tempered_term(const lang::ir::statement& s, double term) const {
  if (!likelihood_[static_cast<std::size_t>(&s - model_.statements.data())]) return term;
  // At beta = 0 the likelihood is left out altogether, even where it is -inf: the prior.
  return temperature_ == 0 ? 0.0 : temperature_ * term;
}

double graph::log_likelihood() {
  double total = 0;
  for (std::size_t i = 0; i < model_.statements.size(); ++i)
    if (likelihood_[i] && !(own_terms_ && own_terms_->statements[i])) total += statement_terms(model_.statements[i]);
  if (own_terms_) total += own_terms_->total();  // the discrete unknowns' priors with their children: one likelihood
  return total;
}

}  // namespace ppl::model
