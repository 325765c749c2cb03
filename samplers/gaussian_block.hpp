#pragma once
// The `gaussian_block` sampler as the rest of its kind sees it (samplers/gaussian_block.cpp):
// a draw of the block from its multivariate normal conditional, and the log density of
// its terms with the block integrated out, which the moves of its companions target
// (samplers/gaussian_block_companions.cpp).
#include <Eigen/Dense>
#include <memory>
#include <utility>
#include <vector>

#include "samplers/sampler.hpp"

namespace ppl::samplers {

class gaussian_block_base : public sampler {
 public:
  // log of the integral over the block of exp(its terms' log density), at the other
  // unknowns' current values: the terms at the block's 0, plus c'Q^-1 c / 2 - log|Q| / 2 +
  // d log(2 pi) / 2 for the conditional N(Q^-1 c, Q^-1); -inf where Q is not positive
  // definite. The block is left where it was.
  virtual double integrated_log_density() = 0;
  // Statements whose terms the block holds (its priors and the terms that read it).
  virtual const std::vector<const lang::ir::statement*>& terms() const = 0;

  // For mean-field coordinate ascent (inference/cavi.cpp), which averages the conditional
  // N(Q^-1 c, Q^-1) over the other unknowns and keeps the result as q:
  // Q (the entries of its stored triangle, in the block's order of them) and c at the
  // other unknowns' current values.
  virtual void natural_parameters(std::vector<double>& q, Eigen::VectorXd& c) = 0;
  // Factorises a Q laid out so; false where it is not positive definite. Then `solve` gives
  // Q^-1 c, `spread` a vector S z with S S' = Q^-1 (so S z ~ N(0, Q^-1) for z ~ N(0, I)),
  // and `log_det` log |Q|. A step of the sampler factorises afresh.
  virtual bool factorise(const std::vector<double>& q) = 0;
  virtual Eigen::VectorXd solve(const Eigen::VectorXd& c) = 0;
  virtual Eigen::VectorXd spread(const Eigen::VectorXd& z) = 0;
  virtual double log_det() const = 0;
  // The graph's (variable, element) of each coordinate.
  virtual const std::vector<std::pair<int, ppl::index_t>>& coordinates() const = 0;
};

// Throws std::invalid_argument saying why the variables cannot form a block.
std::unique_ptr<gaussian_block_base> make_gaussian_block(model::graph& g, const std::vector<int>& variables);

}  // namespace ppl::samplers
