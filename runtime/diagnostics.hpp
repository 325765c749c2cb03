#pragma once
// Convergence diagnostics after Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021),
// "Rank-normalization, folding, and localization: an improved R-hat for assessing
// convergence of MCMC", Bayesian Analysis 16(2): rank-normalised split R-hat (with its
// folded variant for the tails), bulk- and tail-ESS, and the Monte Carlo standard error.
#include <vector>

namespace ppl::runtime {

// draws[c][i]: chain c, iteration i (chains of equal length, at least 4 draws).
struct scalar_summary {
  double mean, sd, q5, q50, q95;
  double mcse_mean;          // sd / sqrt(ESS of the raw split chains)
  double ess_bulk, ess_tail; // ESS of rank-normalised draws; min ESS of I(x <= q5), I(x <= q95)
  double rhat;               // max of rank-normalised split R-hat and of its folded version
};
// Constant draws give NaN R-hat and ESS (nothing to estimate), never a crash.
scalar_summary summarize(const std::vector<std::vector<double>>& draws);

// ESS of chains (already split if wanted): Geyer's initial monotone sequence on the
// combined autocorrelations, computed by FFT.
double effective_sample_size(const std::vector<std::vector<double>>& chains);
// Plain R-hat of chains (already split if wanted).
double split_rhat(const std::vector<std::vector<double>>& chains);
// Integrated autocorrelation time of one series, in iterations: n / ESS.
double autocorrelation_time(const std::vector<double>& series);

}  // namespace ppl::runtime
