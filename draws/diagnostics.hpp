#pragma once
// Convergence diagnostics after Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021),
// "Rank-normalization, folding, and localization: an improved R-hat for assessing
// convergence of MCMC", Bayesian Analysis 16(2): rank-normalised split R-hat with its
// folded variant (Sections 3.1, 4.1, 4.2), bulk- and tail-ESS (Sections 3.2, 4.3), and the
// Monte Carlo standard error of the mean. The figures are those of the R package posterior
// 1.4.0 (summarise_draws, mcse_mean) and of Stan 2.21, down to their reading of the paper's
// ESS (see diagnostics_ess.cpp), so that a Stan user sees the same numbers;
// tests/draws/test_diagnostics_posterior.cpp holds them to posterior's within 1e-9.
// Where posterior gives NA, ppl gives a figure in two cases, on purpose:
// - one half of R-hat or of tail-ESS is undefined because its transform of the draws is
//   constant (see summarize): posterior's max or min is then NA, ppl's the other half;
// - draws that differ by less than 2.2e-16 in all are constant to posterior (no ESS or
//   MCSE), but to ppl only if they are all equal.
#include <memory>
#include <vector>

namespace ppl::draws {

// Draws of one quantity by chain: chains[c][i] is chain c's i-th draw.
using chains_t = std::vector<std::vector<double>>;

// draws[c][i]: chain c, iteration i (chains of equal length, at least 4 draws).
struct scalar_summary {
  double mean, sd, q5, q50, q95;  // over all draws pooled; quantiles interpolate as R's type 7
  double mcse_mean;               // sd / sqrt(ESS of the raw split chains)
  double ess_bulk, ess_tail;      // ESS of rank-normalised draws; min ESS of I(x <= q5), I(x <= q95)
  double rhat;                    // max of rank-normalised split R-hat and of its folded version
};
// Never throws. What cannot be estimated is NaN, never a crash:
// - constant draws: mean and quantiles are the value, sd and mcse_mean are 0 (the mean is
//   exact), R-hat and both ESS are NaN;
// - any non-finite draw: everything is NaN;
// - fewer than 4 draws per chain: mean, sd and quantiles only; fewer than 6: no ESS and
//   no mcse_mean either (split chains of fewer than 3 draws, where posterior gives none);
// - chains of different lengths (an interrupted run): all are cut to the shortest, so
//   that every statistic describes the same draws.
// A constant transform inside the diagnostics (folded draws of a two-valued quantity, a
// tail indicator that is always 1) carries no information; it is left out of the max
// (R-hat) or min (tail-ESS) instead of turning the result into NaN.
scalar_summary summarize(const std::vector<std::vector<double>>& draws);

// summarize for many columns in turn (a summary table): the buffers, the FFT plans and the
// normal scores of the ranks are kept from one column to the next. Not thread-safe.
class summariser {
 public:
  summariser();
  ~summariser();
  summariser(const summariser&) = delete;
  summariser& operator=(const summariser&) = delete;
  scalar_summary operator()(const std::vector<std::vector<double>>& draws);

 private:
  struct workspace;
  std::unique_ptr<workspace> w_;
};

// ESS of chains as given (split them first for split-chain ESS; posterior's ess_basic with
// split = FALSE): combined autocorrelations (summed directly as far as Geyer's sequence
// reads them, or all at once by FFT when that is cheaper), Geyer's initial monotone
// sequence, capped at S log10 S (Section 3.2). NaN for constant or non-finite draws and for
// chains of 2 draws. Throws std::invalid_argument unless there is at least one chain and
// all have the same length, at least 2.
double effective_sample_size(const std::vector<std::vector<double>>& chains);
// Plain R-hat of chains as given (split them first for split-R-hat; Section 3.1). NaN for
// constant or non-finite draws. Throws std::invalid_argument unless there are at least
// two chains of the same length, at least 2.
double split_rhat(const std::vector<std::vector<double>>& chains);

// The p-quantile of values sorted in increasing order, interpolated as R's type 7 (the
// summary's own); NaN for none.
double quantile_type7(const std::vector<double>& sorted, double p);
// Energy Bayesian fraction of missing information of one chain's Hamiltonian energies
// (Betancourt 2016, "Diagnosing suboptimal cotangent disintegrations in Hamiltonian Monte
// Carlo", eq. 3): the mean squared change of energy between transitions over the
// energies' variance. Non-finite energies are left out; NaN with fewer than 3.
double energy_bfmi(const std::vector<double>& energy);
// Integrated autocorrelation time of one series, in iterations: n / ESS of the series as
// one unsplit chain (so at least 1 / log10(n), from the ESS cap).
double autocorrelation_time(const std::vector<double>& series);

}  // namespace ppl::draws
