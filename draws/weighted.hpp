#pragma once
// Summaries of weighted draws (importance sampling, SMC: a `weight__` column): the
// self-normalised estimates of means, spreads and quantiles, with Kish's effective sample
// size (sum w)^2 / sum w^2 in place of autocorrelation-based ESS (Kish 1965; Owen 2013,
// "Monte Carlo theory, methods and examples", §9.3).
#include <vector>

#include "draws/diagnostics.hpp"

namespace ppl::draws {

// The summary of draws x with weights w >= 0 (not all 0; normalised here): the weighted
// mean and sd, the quantiles of the weighted empirical distribution (the smallest x whose
// cumulative weight reaches p), mcse_mean sd / sqrt(ESS), and ess_bulk = ess_tail = Kish's
// ESS; R-hat is NaN (there are no chains to compare). Draws of weight 0 are left out; any
// other non-finite x makes everything NaN.
scalar_summary weighted_summary(const std::vector<double>& x, const std::vector<double>& w);

// Kish's effective sample size of weights w: (sum w)^2 / sum w^2.
double kish_ess(const std::vector<double>& w);

}  // namespace ppl::draws
