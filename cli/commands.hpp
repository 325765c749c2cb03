#pragma once
// The subcommands of `ppl`. Each lives in its own file, cli/NAME.cpp: its options (the
// CLI11 subcommand, with its checks and help text) and its run, which returns the process
// exit status: 0 success, 1 an error in the model or data, 2 a usage error. main.cpp adds
// them in the order --help lists them, parses, and runs the one parsed.
#include <functional>
#include <string>
#include <vector>

#include "inference/chain.hpp"
#include "inference/monte_carlo.hpp"

namespace CLI {
class App;
}

namespace ppl::cli {

// A command added to the command line: its subcommand, whose options write into values
// the run reads, and the run, called once the subcommand is parsed.
struct command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

command add_check_command(CLI::App& app);
command add_translate_command(CLI::App& app);
command add_convert_command(CLI::App& app);
command add_simulate_command(CLI::App& app);
// `ppl infer`: a saved run keeps the words of the command line after `infer`, for --resume.
command add_infer_command(CLI::App& app, int argc, char** argv);
command add_plan_command(CLI::App& app);
command add_summary_command(CLI::App& app);
command add_loo_command(CLI::App& app);
command add_topics_command(CLI::App& app);
command add_heatmap_command(CLI::App& app);
command add_repl_command(CLI::App& app);
command add_plot_command(CLI::App& app);
command add_diagnose_command(CLI::App& app);
command add_compare_command(CLI::App& app);
command add_sbc_command(CLI::App& app);
// `ppl man` and `ppl completion`: written from `app` as it stands when they run, so they
// describe every command added.
command add_man_command(CLI::App& app);
command add_completion_command(CLI::App& app);

// What the commands that read a model take (cli/options.hpp adds them as options).
struct model_inputs {
  std::string model_path;
  std::string data_path;           // optional
  std::vector<std::string> sets;   // --set name=value
  std::string dialect = "auto";    // --dialect: ppl, bugs, or auto (by the file: lang::looks_like_bugs)
  bool quiet = false;              // no status line while the data are read (infer's --quiet)
};

// The options of `ppl infer`, which the REPL's `sample` shares (cli/options.hpp).
struct infer_options {
  inference::run_options run;           // chains, warmup, draws, thin, seed (the rest is set from below)
  std::string init = "1";              // a file of initial values, a jitter radius, "prior" or "pathfinder"
  std::string heldout;                 // held-out data to score (LDA's document completion)
  std::vector<std::string> monitor;    // names
  std::vector<std::string> samplers;   // name=kind
  std::vector<std::string> show;       // list every element of these in the summary
  std::string output;                  // draws file
  std::string format = "ppl";          // or "stan"
  bool quiet = false;
  bool histograms = false;             // text histograms in the summary even when not on a terminal
  std::string metric = "auto";         // nuts and hmc: auto, diag or dense
  // --method: mcmc (the chains above), or importance, smc, rejection (cli/infer_weighted.cpp).
  std::string method = "mcmc";
  inference::monte_carlo_options monte_carlo;  // their settings; threads and seed come from run
  std::string proposal;                // importance: a model of the unknowns alone to draw from (default: the prior)
  // `ppl infer` from the command line (not the REPL's sample) saves its state beside its
  // draws file, to be resumed (cli/run_output.hpp).
  std::vector<std::string> args;       // its arguments after `infer`; empty: nothing saved
  double checkpoint_every = 60;        // seconds between saves
  const struct saved_run* resume = nullptr;  // the run to continue
};

}  // namespace ppl::cli
