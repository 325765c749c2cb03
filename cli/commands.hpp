#pragma once
// The subcommands of `ppl`. Each returns the process exit status: 0 success, 1 an error
// in the model or data, 2 a usage error.
#include <cstdint>
#include <string>
#include <vector>

#include "inference/chain.hpp"
#include "inference/monte_carlo.hpp"

namespace CLI {
class App;
}

namespace ppl::cli {

struct model_inputs {
  std::string model_path;
  std::string data_path;           // optional
  std::vector<std::string> sets;   // --set name=value
  std::string dialect = "auto";    // --dialect: ppl, bugs, or auto (by the file: lang::looks_like_bugs)
};

int run_check(const model_inputs& in);

// `ppl translate`: a BUGS model printed in ppl's language, to standard output or `output`.
int run_translate(const model_inputs& in, const std::string& output);

struct simulate_options {
  long draws = 100;
  std::uint64_t seed = 1;
  std::string output;  // empty: stdout
};

int run_simulate(const model_inputs& in, const simulate_options& opt);

struct infer_options {
  inference::run_options run;           // chains, warmup, draws, thin, seed (the rest is set from below)
  std::string init = "1";              // a file of initial values, a jitter radius, or "prior"
  std::string heldout;                 // held-out data to score (LDA's document completion)
  std::vector<std::string> monitor;    // names
  std::vector<std::string> samplers;   // name=kind
  std::vector<std::string> show;       // list every element of these in the summary
  std::string output;                  // draws file
  std::string format = "ppl";          // or "stan"
  bool quiet = false;
  bool histograms = false;             // text histograms in the summary even when not on a terminal
  std::string metric = "diag";         // nuts and hmc: diag or dense
  // --method: mcmc (the chains above), or importance, smc, rejection (cli/infer_weighted.cpp).
  std::string method = "mcmc";
  inference::monte_carlo_options monte_carlo;  // their settings; threads and seed come from run
  std::string proposal;                // importance: a model of the unknowns alone to draw from (default: the prior)
  // `ppl infer` from the command line (not the REPL's sample) saves its state beside its
  // draws file, to be resumed (cli/resume.hpp).
  std::vector<std::string> args;       // its arguments after `infer`; empty: nothing saved
  double checkpoint_every = 60;        // seconds between saves
  const struct saved_run* resume = nullptr;  // the run to continue
};

int run_infer(const model_inputs& in, const infer_options& opt);
// `ppl infer --resume DRAWS`: continues the run that wrote DRAWS with its own arguments;
// `current` gives the options that may change (--quiet, --histograms, --show).
int resume_infer(const std::string& draws_path, const infer_options& current);
// The options of `ppl infer` (also those of the REPL's `sample`).
void add_infer_options(CLI::App* cmd, infer_options& opt);
// The weighted methods' settings, for `ppl infer` and `ppl compare`.
void add_monte_carlo_options(CLI::App* cmd, inference::monte_carlo_options& mc);
// The model inputs and options of `ppl infer` from its arguments (those a saved run keeps).
void parse_infer_arguments(const std::vector<std::string>& args, model_inputs& in, infer_options& opt);
int run_repl(const model_inputs& in, bool script);
int run_plan(const model_inputs& in, const std::vector<std::string>& samplers);
// DRAWS: a draws file of any layout, or several (a Stan run's one file per chain).
int run_summary(const std::vector<std::string>& draws_paths, const std::vector<std::string>& show, bool histograms, bool csv);

// `ppl loo DRAWS...`: PSIS leave-one-out cross-validation from the pointwise log-likelihoods
// recorded as `variable` (cli/loo.cpp).
struct loo_options {
  std::vector<std::string> draws_paths;  // as for run_summary
  std::string variable = "log_lik";
  std::string pointwise;                 // a CSV of each observation's figures (default: none)
};
int run_loo(const loo_options& opt);

// `ppl compare A.ppl B.ppl DATA`: each model's log evidence by a weighted method, and the
// log Bayes factor of A over B with its standard error (cli/compare.cpp).
struct compare_options {
  std::string model_a, model_b, data_path;
  std::vector<std::string> sets;
  std::string method = "smc";
  inference::monte_carlo_options monte_carlo;
};
int run_compare(const compare_options& opt);

int run_topics(const std::string& draws_path, const std::string& variable, const std::string& labels_path, int top);

struct heatmap_options {
  std::string draws_path, variable, output;
  long draw = 0;              // 0: the posterior mean; -1: the last draw; n: draw n
  int chain = 1;
  std::vector<double> range;  // LOW HIGH, or empty for the values' own range
  int cell = 0;               // pixels per element; 0: about 512 pixels across
};
int run_heatmap(const heatmap_options& opt);

struct plot_options {
  std::string draws_path, output;
  std::vector<std::string> names;  // scalars or arrays (an array stands for its elements)
  int max_elements = 10;           // of each array
};
int run_plot(const plot_options& opt);

// `ppl sbc MODEL [DATA]`: simulation-based calibration (Talts, Betancourt, Simpson,
// Vehtari & Gelman 2018), cli/sbc.cpp. Each replicate draws the unknowns and the
// observations missing from DATA from the prior, fits the model to those observations
// and ranks the true value of every scalar unknown among the thinned posterior draws;
// replicates are spread over threads and, under mpirun, over processes.
struct sbc_options {
  long replicates = 100;
  inference::run_options run;  // per replicate: chains (1), warmup, draws, thin, seed, samplers
  std::vector<std::string> samplers;  // name=kind
  int bins = 10;              // of the ranks, for the chi-square test of uniformity
  int workers = 1;            // replicates fitted at once on threads (--threads)
  std::string output;         // CSV of every replicate's ranks (default: none)
};
int run_sbc(const model_inputs& in, const sbc_options& opt);

struct diagnose_options {
  std::uint64_t seed = 1;
  double epsilon = 1e-4;  // finite-difference step, relative (roundoff grows as it shrinks)
  double error = 1e-5;    // largest relative error accepted (else exit status 1)
  long repeat = 0;        // gradient evaluations to time
  int show = 10;          // coordinates listed, worst first
};
int run_diagnose(const model_inputs& in, const diagnose_options& opt);

}  // namespace ppl::cli
