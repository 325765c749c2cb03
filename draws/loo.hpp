#pragma once
// Leave-one-out cross-validation from posterior draws by Pareto smoothed importance sampling
// (Vehtari, Gelman & Gabry 2017, "Practical Bayesian model evaluation using leave-one-out
// cross-validation and WAIC", Statistics and Computing 27(5)): the draws of the full
// posterior, weighted by 1 / p(y_i | theta) and smoothed (draws/psis.hpp), stand in for
// draws of the posterior without y_i. The figures are those of the R package loo 2.5.1,
// which tests/draws/test_loo_reference.cpp holds them to; the Pareto k threshold, the
// table of k and the MCSE of elpd_loo are those of Vehtari, Simpson, Gelman, Yao & Gabry
// (2024), as loo 2.6 and later print them.
#include <cstddef>
#include <vector>

namespace ppl::draws {

// One observation's figures.
struct loo_point {
  double elpd_loo;       // log p(y_i | y_-i) estimated: log sum_s w_s p(y_i | theta_s), weights normalised
  double mcse_elpd_loo;  // its Monte Carlo standard error
  double p_loo;          // lpd_i - elpd_loo_i, lpd_i = log mean_s p(y_i | theta_s): what leaving y_i out costs
  double looic;          // -2 elpd_loo
  double pareto_k;       // of the smoothed tail (NaN for a flat one: see psis_weights)
  double n_eff;          // the weights' effective sample size, r_eff / sum_s w_s^2
  double r_eff;          // relative_efficiency of the draws
};

// The relative efficiency of the draws of p(y_i | theta) (loo's relative_eff of
// exp(log_lik)): their ESS over the chains as given (unsplit; draws/diagnostics.hpp) divided
// by the number of draws, as loo 2.6 to 2.8 compute it. loo 2.5.1 agrees where the chains'
// length N is a product of 2, 3 and 5 (its own autocovariance divides by 2 N^2 where its FFT
// is 2 M long, M the next such product from N); loo 2.9 splits the chains (posterior's
// ess_mean), which lowers r_eff a little for chains that drift. The likelihood is scaled by its largest value first, which leaves
// the ESS as it is and keeps exp from underflowing. 1 where the ESS is undefined: a likelihood
// equal in every draw, or chains of fewer than 3 draws. log_lik[c][i]: chain c, draw i, all
// finite, chains of one length.
double relative_efficiency(const std::vector<std::vector<double>>& log_lik);

// PSIS-LOO of one observation from its finite log-likelihood per chain and draw (chains of
// one length; at least 2 draws in all). The MCSE is the 2024 paper's (its equation 6 for the
// variance of sum_s w_s p(y_i | theta_s), divided by r_eff), carried to the log scale by a
// log-normal's moments as loo 2.6 and later do: sqrt(log(1 + var / E^2)).
loo_point loo_observation(const std::vector<std::vector<double>>& log_lik);

struct loo_estimate {
  double estimate;  // the sum over observations
  double se;        // sqrt(N) times the pointwise values' sd; NaN for one observation
};

struct loo_result {
  loo_estimate elpd_loo, p_loo, looic;
  // sqrt(sum of the pointwise MCSE^2); NaN when some k is above pareto_k_threshold(draws),
  // where the pointwise MCSEs are not to be trusted.
  double mcse_elpd_loo;
};

// The totals over observations, from S = `draws` posterior draws.
loo_result loo(const std::vector<loo_point>& points, std::size_t draws);

// One row of the Pareto k table: the observations with k in (lower, upper].
struct pareto_k_bin {
  double lower, upper;
  std::size_t count;
  // The smallest n_eff among them: NaN for an empty bin, and above the threshold, where the
  // estimate is over-optimistic (as loo 2.6 and later leave it out).
  double min_n_eff;
};

// WAIC (Watanabe 2010; Vehtari, Gelman & Gabry 2017, section 2.2), as R's loo::waic
// computes it: lpd_i = log mean_s p(y_i | theta_s), p_waic_i = the sample variance (n - 1)
// of log p(y_i | theta_s) over all draws, elpd_waic_i = lpd_i - p_waic_i, waic_i = -2
// elpd_waic_i. A p_waic_i above 0.4 says WAIC is unreliable there (PSIS-LOO is to be used).
struct waic_point {
  double elpd_waic, p_waic, waic;
};
waic_point waic_observation(const std::vector<std::vector<double>>& log_lik);

struct waic_result {
  loo_estimate elpd_waic, p_waic, waic;  // sums over observations, SEs as for loo
};
waic_result waic(const std::vector<waic_point>& points);

// The table loo prints: (-inf, t] good, (t, 1] bad, (1, inf) very bad, for the threshold
// t = pareto_k_threshold(S). A flat tail's NaN k counts as good: its weights are bounded.
std::vector<pareto_k_bin> pareto_k_table(const std::vector<loo_point>& points, double threshold);

}  // namespace ppl::draws
