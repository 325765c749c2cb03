#pragma once
// The Monte Carlo methods besides MCMC (`ppl infer --method`), from the first seed note
// (../shared/seeds/topic-models-metropolis-hastings.txt: rejection, importance and
// sequential importance sampling): draws that carry weights, and the model's evidence
// log p(data) with its Monte Carlo standard error. Each runs on `threads` threads, one
// graph per thread, and gives the same draws for a seed whatever the number of threads.
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "data/data.hpp"
#include "inference/chain.hpp"

namespace ppl::inference {

struct monte_carlo_options {
  long particles = 1000;      // importance: draws; smc: particles per run; rejection: accepted draws
  int runs = 4;               // smc: independent runs, whose spread gives the evidence's standard error
  int threads = 1;
  std::uint64_t seed = 1;
  double ess_fraction = 0.5;  // smc: each temperature lets the weights' ESS fall to this fraction
  int moves = 3;              // smc: sweeps of the MCMC kernel after each resampling
  std::optional<double> bound;  // rejection: log p(data | unknowns) <= bound everywhere (else found, or refused)
  double max_proposals = 1e7;   // rejection: refused when the expected number of proposals is larger
  bool resample = false;        // write equally weighted draws, resampled from the weighted ones
  bool allow_unreliable = false;  // exit 0 even when the evidence's error bar is unreliable (weighted_result::unreliable)
  // smc: called after each run's moves at a new temperature beta (1 at its end), from the
  // run's thread; null: none (the status line of `ppl infer` on a terminal).
  std::function<void(std::size_t run, double beta)> progress;
  std::vector<std::string> monitors;  // empty: every unknown and derived variable up to 1000 scalars
  // importance: the proposal, a model of the model's unknowns alone (--proposal), with its
  // data; none: the prior.
  const lang::ir::model* proposal = nullptr;
  const data::data_table* proposal_data = nullptr;
  // optimize, laplace (inference/mode.hpp): where the search starts (--init: a file or a
  // radius, as chain 1 starts), its iteration limit, and whether the target it climbs has
  // the unconstrained scale's Jacobian (laplace's always does).
  model::start_options start;
  int iterations = 0;  // 0: the method's own limit (optimize and laplace 2000, pathfinder 1000, advi 10000)
  bool jacobian = true;
  int paths = 4;  // pathfinder: paths from starts of their own, their draws resampled together
  // advi (Kucukelbir et al. 2017, and Stan's defaults): the family, the step size eta (0:
  // adapted), the draws per gradient and per ELBO estimate, the iterations between ELBO
  // estimates, and the relative change of the ELBO at which it stops.
  std::string family = "meanfield";
  double eta = 0;
  int grad_samples = 1, elbo_samples = 100, eval_elbo = 100;
  double tol_rel_obj = 0.01;
  bool refine = true;  // advi: then L-BFGS on the ELBO at its fixed draws (deterministic ADVI)
  // vb (LDA's structure; samplers/lda_vb.hpp): documents per update (0: all, batch VB),
  // passes over the corpus, online VB's learning rate (offset + t)^(-decay), held-out
  // documents scored after each pass, and a call after each pass (its number from 1, and
  // the held-out perplexity, NaN without --heldout), from the method's thread.
  std::uint32_t batch_size = 0;
  int passes = 10;
  double offset = 1, decay = 0.5;
  const data::data_table* heldout = nullptr;
  std::function<void(int, double)> pass_done;
  bool means = false;  // vb: one row of q's means of theta and phi in place of draws
  int starts = 1;      // vb: starts compared by their ELBO after a few passes, the best continued
};

// o.iterations, or `fallback` when it is 0.
inline int iteration_limit(const monte_carlo_options& o, int fallback) { return o.iterations > 0 ? o.iterations : fallback; }

// log p(data) and its Monte Carlo standard error (NaN when not estimated, or when it could
// not see its own failure: see weighted_result::unreliable).
struct evidence_estimate {
  double log_z = NAN, se = NAN;
};

struct weighted_result {
  std::vector<std::string> columns;  // lp__, weight__ (not for rejection), the recorded scalars
  std::vector<double> rows;          // row-major, columns.size() per row
  std::size_t row_count = 0;
  evidence_estimate evidence;
  double ess = NAN;          // of the weights, (sum w)^2 / sum w^2
  double pareto_k = NAN;     // importance: the fitted tail's shape (Vehtari et al. 2024)
  double acceptance = NAN;   // rejection: accepted / proposed
  double bound = NAN;        // rejection: the bound used
  long proposals = 0;        // rejection: prior draws made (pilot included)
  std::vector<std::vector<double>> temperatures;  // smc: each run's ladder of beta
  std::vector<double> run_log_z;                   // smc: each run's log evidence
  std::vector<std::size_t> run_numbers;            // smc: each run's number, from 1 (an interrupted run's are left out)
  std::vector<plan_line> moves;                    // smc: the MCMC kernel of each unknown
  double seconds = 0;        // wall time
  // optimize, laplace: what the search found, as `key: value` lines for the draws file's
  // header and the report (the mode's log density, iterations, why it stopped).
  std::vector<std::string> report;
  // laplace, advi: the normal approximation on the unconstrained scale, its mean and its
  // covariance (row-major), for tests and callers that read it.
  std::vector<double> q_mean, q_covariance;
  std::vector<std::string> notes, warnings;
  // The evidence's error bar cannot be trusted (a warning says why): importance weights
  // whose tail is too heavy, SMC runs that disagree beyond their spread's allowance.
  // `ppl infer` and `ppl compare` then exit 3 unless --allow-unreliable.
  bool unreliable = false;
  // Stopped by Ctrl-C or SIGTERM (core/interrupt.hpp): the rows are what was finished —
  // smc's whole runs, importance's draws made, rejection's draws accepted — a valid
  // result of a smaller run (none at all when row_count is 0); `stopped` says how much.
  bool interrupted = false;
  std::string stopped;
};

// Self-normalised importance sampling with the prior as the proposal, weights
// p(data | unknowns), or with o.proposal, weights p(unknowns, data) / q(unknowns); the
// evidence is their mean (inference/importance.cpp).
weighted_result importance_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// Adaptive tempered SMC from the prior to the posterior (Del Moral, Doucet & Jasra 2006;
// inference/smc.cpp).
weighted_result smc_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// The mode of the continuous unknowns by L-BFGS on the unconstrained scale, as one row
// (inference/mode.cpp).
weighted_result optimize_mode(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// Draws from the normal approximation at that mode, the Laplace approximation, with its
// evidence and the Pareto k-hat of the draws' importance ratios (inference/laplace.cpp).
weighted_result laplace_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// Pathfinder (Zhang, Carpenter, Gelman & Vehtari 2022): o.paths paths of L-BFGS, each's best
// normal approximation by its ELBO, their draws resampled together by Pareto smoothed
// importance weights (one path: its approximation's draws as they are)
// (inference/pathfinder_draws.cpp).
weighted_result pathfinder_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// Automatic differentiation variational inference (Kucukelbir, Tran, Ranganath, Gelman &
// Blei 2017, JMLR 18(14)): a normal q on the unconstrained scale, mean-field or full-rank,
// fitted by stochastic gradients of the ELBO; its draws, the ELBO's trace and the ratios'
// k-hat (inference/advi.cpp).
weighted_result advi_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// Variational Bayes for a model with LDA's structure (Blei, Ng & Jordan 2003; online,
// Hoffman, Blei & Bach 2010): passes of local and global steps, held-out perplexity after
// each, and --draws draws of the monitored theta, phi and z from q (inference/vb.cpp).
weighted_result vb_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

// Exact draws by rejection from the prior, accepted with probability
// p(data | unknowns) / exp(bound) (inference/rejection.cpp).
weighted_result rejection_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o);

}  // namespace ppl::inference
