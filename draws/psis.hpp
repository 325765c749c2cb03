#pragma once
// Pareto smoothed importance sampling (Vehtari, Simpson, Gelman, Yao & Gabry 2024, "Pareto
// smoothed importance sampling", JMLR 25(72)), as the R package loo 2.5.1 computes it:
// the largest importance ratios are replaced by the expected order statistics of a
// generalized Pareto distribution fitted to them, which stabilises the weights, and the fit's
// shape k says how far the estimate can be trusted. draws/loo.hpp applies it to leave-one-out
// cross-validation; tests/draws/test_loo_reference.cpp holds both to loo's figures.
#include <cstddef>
#include <vector>

namespace ppl::draws {

// A generalized Pareto distribution with location 0: shape k, scale sigma > 0.
struct pareto_estimate {
  double k, sigma;
};

// The fit of Zhang & Stephens (2009), "A new and efficient estimation method for the
// generalized Pareto distribution", Technometrics 51(3): the posterior mean of
// theta = -k / sigma over a grid of 30 + floor(sqrt(n)) points placed by the sample's
// largest value and first quartile, under their weak prior (3), each point weighted by the
// profile likelihood; then k = mean(log(1 - theta x)) and sigma = -k / theta. With
// `regularise`, k is pulled towards 0.5 as loo does, (n k + 10 * 0.5) / (n + 10): a prior
// worth 10 observations, a Gaussian prior in effect, which steadies the estimate from short
// tails (few draws, or a low r_eff; the 2024 paper's weakly informative prior).
// `exceedances` are positive and sorted in increasing order, at least 2 of them. k is +inf
// when the fit is undefined (NaN on the way), as in loo.
pareto_estimate pareto_fit(const std::vector<double>& exceedances, bool regularise = true);

// The p-quantile of the distribution, sigma ((1 - p)^-k - 1) / k (its limit -sigma log(1 - p)
// at k = 0).
double pareto_quantile(double p, const pareto_estimate& g);

// The draws in the tail that is fitted: ceil(min(0.2 S, 3 sqrt(S / r_eff))) of S, as loo's
// n_pareto (2024 paper, Appendix H: M grows as sqrt(S), and dividing by the draws' relative
// efficiency r_eff counts what S correlated draws are worth; posterior's ps_tail_length
// rounds down instead).
std::size_t psis_tail_length(std::size_t draws, double r_eff);

// The largest k at which PSIS is reliable with S draws: min(1 - 1 / log10(S), 0.7) (2024
// paper, Section 3.2.4, equation 13: the inverse of the draws a reliable estimate needs,
// 10^(1 / (1 - k)) (Section 3.2.3), capped where the smoothed estimate's bias grows large
// whatever S). loo 2.5.1 uses 0.7 for every S; the two agree from S = 2154.
double pareto_k_threshold(std::size_t draws);

// log(sum(exp(x))) without overflow: -inf for no terms or all -inf.
double log_sum_exp(const std::vector<double>& x);

struct psis_weights {
  std::vector<double> log_weights;  // normalised: their exponentials sum to 1
  // The shape of the fitted tail; NaN when the tail's ratios are all equal (the weights are
  // then bounded and left as they are: there is no tail to fit; loo 2.5.1 says +inf).
  double pareto_k;
  std::size_t tail_length;
};

// PSIS of one set of finite log importance ratios (at least 2): the tail_length largest
// (psis_tail_length) are replaced by log(cutoff + the fitted quantiles at (i - 1/2) / M)
// above the cutoff, the largest ratio outside the tail (each in the order of the ratios it
// replaces); then every weight is truncated at the largest raw ratio and the weights are
// normalised in log space. A tail fit with k = inf (undefined) leaves the ratios raw.
psis_weights psis_smooth(const std::vector<double>& log_ratios, double r_eff);

}  // namespace ppl::draws
