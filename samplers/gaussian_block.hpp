#pragma once
// The `gaussian_block` sampler as the rest of its kind sees it (samplers/gaussian_block.cpp):
// a draw of the block from its multivariate normal conditional, and the log density of
// its terms with the block integrated out, which the moves of its companions target
// (samplers/gaussian_block_companions.cpp).
#include <memory>
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
};

// Throws std::invalid_argument saying why the variables cannot form a block.
std::unique_ptr<gaussian_block_base> make_gaussian_block(model::graph& g, const std::vector<int>& variables);

}  // namespace ppl::samplers
