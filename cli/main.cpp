// `ppl`: the command line. Option parsing is CLI11's; each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "cli/cluster.hpp"
#include "cli/commands.hpp"
#include "cli/manual.hpp"
#include "cli/session.hpp"
#include "core/version.hpp"

namespace ppl::cli {

namespace {

// CLI11's own range check reads a word as out of range ("Value many not in range 1 to
// 1000") and prints real bounds with six decimals (1e-12 as "0.000000"); these say what
// is expected, and what was given.
CLI::Validator whole(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        long long x = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size() && x >= lo && x <= hi) return "";
        return fmt::format("expected a whole number from {} to {}, got {}", lo, hi, s);
      },
      fmt::format("INT in [{} - {}]", lo, hi));
}

CLI::Validator real(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        double x = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size() && x >= lo && x <= hi) return "";
        if (std::isinf(lo)) return fmt::format("expected a number, got {}", s);
        return fmt::format("expected a number from {:g} to {:g}, got {}", lo, hi, s);
      },
      std::isinf(lo) ? std::string() : fmt::format("FLOAT in [{:g} - {:g}]", lo, hi));
}

// --init: `prior`, a radius (a number >= 0), or a file that exists.
CLI::Validator init_spec() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double r = 0;
        const auto parsed = std::from_chars(s.data(), s.data() + s.size(), r);
        if (s == "prior" || std::filesystem::is_regular_file(s)) return "";
        if (parsed.ec == std::errc() && parsed.ptr == s.data() + s.size() && r >= 0 && std::isfinite(r)) return "";
        return "expected a file of initial values, a radius (a number >= 0) or `prior`, got " + s;
      },
      "FILE|R|prior");
}

CLI::Validator seed() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        unsigned long long x = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
        if (r.ec == std::errc() && r.ptr == s.data() + s.size()) return "";
        return "expected a whole number from 0 to 18446744073709551615, got " + s;
      },
      "");
}

}  // namespace

// The weighted methods' settings (inference/monte_carlo.hpp), for `infer` and `compare`.
void add_monte_carlo_options(CLI::App* cmd, inference::monte_carlo_options& mc) {
  cmd->add_option("--particles", mc.particles, "importance: prior draws; smc: particles per run; rejection: exact draws wanted")
      ->capture_default_str()->check(whole(2, 100000000));
  cmd->add_option("--runs", mc.runs, "smc: independent runs, whose spread gives the evidence's standard error")
      ->capture_default_str()->check(whole(1, 10000));
  cmd->add_option("--ess-fraction", mc.ess_fraction, "smc: each new temperature lets the weights' ESS fall to this fraction")
      ->capture_default_str()->check(real(0.05, 0.95));
  cmd->add_option("--moves", mc.moves, "smc: MCMC sweeps of every particle at each temperature")->capture_default_str()->check(whole(1, 1000));
  cmd->add_option_function<double>("--bound", [&mc](double b) { mc.bound = b; },
                                   "rejection: an upper bound M on log p(data | unknowns) (default: 0 when every observation is "
                                   "discrete, else required)")
      ->check(real(-1e300, 1e300));
  cmd->add_option("--max-proposals", mc.max_proposals, "rejection: refuse when the expected number of prior draws is larger")
      ->capture_default_str()->check(real(1, 1e15));
  cmd->add_flag("--resample", mc.resample, "importance, smc: write equally weighted draws resampled from the weighted ones (default: the weighted draws)");
}

void add_infer_options(CLI::App* cmd, infer_options& o) {
  cmd->add_option("--method", o.method,
                  "mcmc (chains of the samplers ppl plan shows); importance (weighted prior draws, with the evidence); smc "
                  "(tempered sequential Monte Carlo, with the evidence); rejection (exact draws when the likelihood is bounded)")
      ->capture_default_str()->check(CLI::IsMember({"mcmc", "importance", "smc", "rejection"}));
  add_monte_carlo_options(cmd, o.monte_carlo);
  cmd->add_option("--proposal", o.proposal,
                  "with --method importance: a .ppl model of the unknowns alone (each drawn by `~`, same names and shapes, the "
                  "data's declarations allowed) whose draws are the proposal, weighted by p(unknowns, data) / q(unknowns) "
                  "(default: the prior)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--chains", o.run.chains, "number of chains (each on its own thread)")->capture_default_str()->check(whole(1, 256));
  cmd->add_option("--warmup", o.run.warmup, "warmup iterations per chain (adaptation happens only here)")->capture_default_str()->check(whole(0, 1000000000));
  cmd->add_option("--draws", o.run.draws, "draws kept per chain")->capture_default_str()->check(whole(1, 1000000000));
  cmd->add_option("--thin", o.run.thin, "keep every n-th draw")->capture_default_str()->check(whole(1, 1000000));
  cmd->add_option("--threads", o.run.threads,
                    "threads per chain for samplers that can share one chain's work (LDA: partitioned AD-LDA, an approximation; the heat-bath of a +-1 model, exact); "
                    "with --method importance, smc or rejection, the threads the draws (smc: the runs) are spread over")
      ->capture_default_str()
      ->check(whole(1, 256));
  cmd->add_option("--heldout", o.heldout,
                    "held-out documents to score by document completion (LDA): a data file with the same columns (default: none)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--heldout-every", o.run.heldout_every, "iterations between held-out scores (default: a tenth of the run)")
      ->check(whole(1, 1000000000));
  cmd->add_option("--seed", o.run.seed, "random seed (same seed, same draws, whatever the thread count)")->capture_default_str()->check(seed());
  cmd->add_option("--init", o.init,
                  "where chains start: a file of values for some or all unknowns (JSON, CSV or R dump; the rest start as by default), "
                  "a radius R (each unknown at a typical value of its prior, moved uniformly within +-R on the unconstrained scale), "
                  "or `prior` (drawn from the prior)")
      ->capture_default_str()
      ->check(init_spec());
  cmd->add_option("--monitor", o.monitor, "variables to record (default: unknowns and derived quantities up to 1000 scalars)")->delimiter(',');
  cmd->add_option("--sampler", o.samplers,
                    "force a sampler kind: NAME=KIND (ancestral, collapsed, conjugate, cluster, gibbs, nuts, slice, rwmh, hmc; default: chosen by structure, as ppl plan shows)");
  cmd->add_option("--metric", o.metric, "nuts and hmc: the adapted metric, diag (variances) or dense (covariance)")
      ->capture_default_str()->check(CLI::IsMember({"diag", "dense"}));
  cmd->add_option("--target-accept", o.run.target_accept, "nuts and hmc: the mean acceptance statistic warmup aims for")
      ->capture_default_str()->check(real(0.05, 0.999));
  cmd->add_option("--max-depth", o.run.max_depth, "nuts: the largest tree depth (at most 2^depth leapfrog steps)")
      ->capture_default_str()->check(whole(1, 20));
  cmd->add_option_function<std::string>(
         "--collapsed",
         [&o](const std::string& v) { o.run.collapsed = v == "means" ? samplers::collapsed_record::means : samplers::collapsed_record::draws; },
         "what a monitored collapsed theta or phi (LDA, mixture weights) records: draws from its conditional given z "
         "(its sd and quantiles are the posterior's), or means E[theta | z] (Rao-Blackwellised: a better estimate of the "
         "posterior mean, but not draws)")
      ->check(CLI::IsMember({"draws", "means"}))
      ->default_str("draws");
  cmd->add_option("--show", o.show, "list every element of these arrays in the summary (default: arrays over 20 elements show 3)")->delimiter(',');
  cmd->add_option("--output,-o", o.output, "draws file (CSV), streamed as draws are made; with --format coda, the CODA files' stem (default: none, the summary only)")->type_name("FILE");
  cmd->add_option("--format", o.format,
                  "draws file format: ppl; stan (one file per chain, Stan's column names); or coda (JAGS's CODA files for R's "
                  "coda::read.coda: -o out/CODA writes out/CODAindex.txt, out/CODAchain1.txt, ... when the run is complete, "
                  "and streams the draws to out/CODA.csv in ppl's format)")
      ->capture_default_str()->check(CLI::IsMember({"ppl", "stan", "coda"}));
  cmd->add_flag("--quiet,-q", o.quiet, "no progress display (default: progress on a terminal)");
  cmd->add_flag("--histograms", o.histograms, "a text histogram of each scalar in the summary (default: on a terminal)");

}

}  // namespace ppl::cli

namespace {

using ppl::cli::real;
using ppl::cli::whole;

// Usage errors read like every other error of ppl: "error: " and what is wrong.
std::string usage_failure(const CLI::App*, const CLI::Error& e) {
  return ppl::cli::usage_error_line(e.what()) + "Run with --help for more information.\n";
}

void add_model_inputs(CLI::App* cmd, ppl::cli::model_inputs& in, bool required = true) {
  auto* model = cmd->add_option("MODEL", in.model_path, "the model: .ppl, or BUGS (.bug, .bugs, .jags, or .txt beginning `model {`)")
                    ->check(CLI::ExistingFile);
  if (required) model->required();
  cmd->add_option("DATA", in.data_path, "data: CSV (header row), JSON (Stan's format) or R's dump format (.R; OpenBUGS's list(...))")
      ->check(CLI::ExistingFile);
  cmd->add_option("--dialect", in.dialect, "the model's language: ppl, bugs, or auto (BUGS for .bug, .bugs, .jags and a .txt "
                                           "that begins with a `model` block; ppl otherwise)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "ppl", "bugs"}));
  cmd->add_option("--set", in.sets, "set a data value: --set K=50 (repeatable; overrides the data file; default: none)");
}

// The options of `ppl infer` alone: those of the REPL's `sample` and saving the run.
void add_infer_command(CLI::App* cmd, ppl::cli::model_inputs& in, ppl::cli::infer_options& o) {
  add_model_inputs(cmd, in, false);
  ppl::cli::add_infer_options(cmd, o);
  cmd->add_option("--checkpoint-every", o.checkpoint_every,
                  "seconds between saves of the run's state beside the draws file (DRAWS.csv.state), for --resume; 0: every iteration")
      ->capture_default_str()
      ->check(real(0, 1e9));
}

}  // namespace

namespace ppl::cli {

void parse_infer_arguments(const std::vector<std::string>& args, model_inputs& in, infer_options& o) {
  CLI::App app{"ppl infer"};
  add_infer_command(&app, in, o);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(std::string("--resume: the saved arguments no longer parse: ") + e.what());
  }
  if (in.model_path.empty()) throw std::invalid_argument("--resume: the saved arguments name no model");
}

}  // namespace ppl::cli

namespace {

int run_ppl(int argc, char** argv) {
  CLI::App app{"ppl: a probabilistic programming language"};
  app.set_version_flag("--version", ppl::version());
  app.require_subcommand(1);
  app.failure_message(usage_failure);

  ppl::cli::model_inputs check_in;
  auto* check = app.add_subcommand("check", "parse and check a model; with data, build its graph and describe it");
  add_model_inputs(check, check_in);

  ppl::cli::model_inputs translate_in;
  std::string translate_output;
  auto* translate = app.add_subcommand("translate", "print a BUGS model (.bug, .jags) in ppl's language; with its data, declared as data");
  add_model_inputs(translate, translate_in);
  translate->add_option("--output,-o", translate_output, "the .ppl file to write (default: standard output)")->type_name("FILE");

  ppl::cli::model_inputs sim_in;
  ppl::cli::simulate_options sim;
  auto* simulate = app.add_subcommand("simulate", "draw every unknown and observation from the prior (ancestral sampling)");
  add_model_inputs(simulate, sim_in);
  simulate->add_option("--draws", sim.draws, "number of draws")->capture_default_str()->check(whole(1, 100000000));
  simulate->add_option("--seed", sim.seed, "random seed")->capture_default_str()->check(ppl::cli::seed());
  simulate->add_option("--output,-o", sim.output, "CSV file to write (default: standard output)")->type_name("FILE");

  ppl::cli::model_inputs infer_in;
  ppl::cli::infer_options inf;
  auto* infer = app.add_subcommand("infer", "sample the posterior: samplers chosen by structure, parallel chains, diagnostics");
  add_infer_command(infer, infer_in, inf);
  std::string infer_resume;
  infer->add_option("--resume", infer_resume,
                    "continue the interrupted run that wrote this draws file, from its saved state, with its own model, data and options "
                    "(only --quiet, --histograms and --show may be given with it; default: none)")->type_name("FILE");

  ppl::cli::model_inputs plan_in;
  std::vector<std::string> plan_samplers;
  auto* plan = app.add_subcommand("plan", "show the sampler chosen for every unknown, and why");
  add_model_inputs(plan, plan_in);
  plan->add_option("--sampler", plan_samplers, "force a sampler kind: NAME=KIND (default: chosen by structure)");

  std::vector<std::string> summary_paths;
  std::vector<std::string> summary_show;
  auto* summary = app.add_subcommand("summary", "recompute the summary table from a draws file");
  summary->add_option("DRAWS", summary_paths,
                      "draws file(s): written by ppl infer (any format; FILE.csv stands for a Stan run's FILE_1.csv, FILE_2.csv, ..., "
                      "STEMindex.txt or STEM for a CODA run's STEMchain1.txt, ...), ppl simulate, CmdStan or JAGS")
      ->required();
  summary->add_option("--show", summary_show, "list every element of these arrays (default: arrays over 20 elements show 3)")->delimiter(',');
  bool summary_histograms = false;
  summary->add_flag("--histograms", summary_histograms, "a text histogram of each scalar (default: on a terminal)");
  std::string summary_format = "table";
  summary->add_option("--format", summary_format,
                      "table (for people; the default) or csv (for programs: every element of every array, full precision, NA for n/a)")
      ->check(CLI::IsMember({"table", "csv"}));

  ppl::cli::loo_options loo_opt;
  auto* loo = app.add_subcommand("loo", "leave-one-out cross-validation (PSIS-LOO) from pointwise log-likelihoods in a draws file, with Pareto k diagnostics");
  loo->add_option("DRAWS", loo_opt.draws_paths,
                  "draws file(s), as for summary: written by ppl infer (any format), ppl simulate, CmdStan or JAGS (CODA)")
      ->required();
  loo->add_option("--var", loo_opt.variable, "the variable holding the pointwise log-likelihoods, one element per observation")
      ->capture_default_str();
  loo->add_option("--pointwise", loo_opt.pointwise,
                  "write each observation's elpd_loo, mcse_elpd_loo, p_loo, looic, pareto_k, n_eff and r_eff to this CSV file (default: none)")->type_name("FILE");

  std::string topics_path, topics_variable = "phi", topics_labels;
  int topics_top = 10;
  auto* topics = app.add_subcommand("topics", "the largest entries of each row of a matrix in a draws file (LDA's topics), named by labels");
  topics->add_option("DRAWS", topics_path, "a draws file from ppl infer that monitors the matrix (any format)")->required();
  topics->add_option("--variable", topics_variable, "the matrix: one distribution per row")->capture_default_str();
  topics->add_option("--labels", topics_labels, "labels of the columns, one per line (LDA: vocab.txt; default: column numbers)")->check(CLI::ExistingFile);
  topics->add_option("--top", topics_top, "entries shown per row")->capture_default_str()->check(whole(1, 1000));

  ppl::cli::heatmap_options heat;
  std::string heat_draw = "mean";
  auto* heatmap = app.add_subcommand("heatmap", "draw a monitored matrix (a spin field, a mean field) as an SVG or PNG heat map");
  heatmap->add_option("DRAWS", heat.draws_path, "a draws file: from ppl infer (any format), ppl simulate, CmdStan or JAGS (CODA: STEMindex.txt)")->required();
  heatmap->add_option("NAME", heat.variable, "the matrix, e.g. s")->required();
  heatmap->add_option("--output,-o", heat.output, "the picture: FILE.svg or FILE.png")->type_name("FILE")->required();
  heatmap->add_option("--draw", heat_draw, "mean (posterior mean), last (the last draw) or a draw number")->capture_default_str();
  heatmap->add_option("--chain", heat.chain, "the chain the draws come from")->capture_default_str()->check(whole(1, 256));
  heatmap->add_option("--range", heat.range, "LOW HIGH: the values mapped to blue and red (default: the values' own range)")
      ->expected(2)
      ->check(real(-INFINITY, INFINITY));
  heatmap->add_option("--cell", heat.cell, "pixels per element (default: about 512 pixels across)")->check(whole(1, 100));

  ppl::cli::model_inputs repl_in;
  bool repl_script = false;
  auto* repl = app.add_subcommand("repl", "an interactive session: build a model, sample it, query the draws (type help)");
  repl->add_option("MODEL", repl_in.model_path, "a model to start from (.ppl)")->check(CLI::ExistingFile);
  repl->add_option("DATA", repl_in.data_path, "its data: CSV, JSON or R dump")->check(CLI::ExistingFile);
  repl->add_option("--set", repl_in.sets, "set a data value: --set K=50 (repeatable; default: none)");
  repl->add_flag("--script", repl_script, "read standard input as a script even on a terminal (no prompts, no line editing; default: off)");

  ppl::cli::plot_options plot_opt;
  auto* plot = app.add_subcommand("plot", "trace, density and rank plots (one panel per chain) of quantities in a draws file, as SVG or PNG");
  plot->add_option("DRAWS", plot_opt.draws_path, "a draws file: from ppl infer (any format), ppl simulate, CmdStan or JAGS (CODA: STEMindex.txt)")->required();
  plot->add_option("NAME", plot_opt.names, "quantities: scalars such as mu or theta[2], or arrays (their first elements)")->required();
  plot->add_option("--output,-o", plot_opt.output, "the picture: FILE.svg or FILE.png")->type_name("FILE")->required();
  plot->add_option("--max-elements", plot_opt.max_elements, "elements of each array plotted")->capture_default_str()
      ->check(whole(1, 1000));

  ppl::cli::model_inputs diag_in;
  ppl::cli::diagnose_options diag;
  auto* diagnose = app.add_subcommand(
      "diagnose", "check the gradient of the log density against finite differences at a prior draw, and time it");
  add_model_inputs(diagnose, diag_in);
  diagnose->add_option("--seed", diag.seed, "random seed of the prior draw")->capture_default_str()->check(ppl::cli::seed());
  diagnose->add_option("--epsilon", diag.epsilon, "finite-difference step, relative to the coordinate")->capture_default_str()
      ->check(real(1e-12, 1.0));
  diagnose->add_option("--error", diag.error, "largest relative error accepted (exit status 1 beyond)")->capture_default_str()
      ->check(real(0, 1.0));
  diagnose->add_option("--repeat", diag.repeat, "time this many gradient evaluations")->capture_default_str()
      ->check(whole(0, 1000000000));
  diagnose->add_option("--show", diag.show, "coordinates listed, worst agreement first")->capture_default_str()
      ->check(whole(0, 1000000));

  ppl::cli::compare_options cmp;
  auto* compare = app.add_subcommand("compare", "the log evidence log p(data) of two models and their Bayes factor, by smc or importance");
  compare->add_option("MODEL_A", cmp.model_a, "the first model")->required()->check(CLI::ExistingFile);
  compare->add_option("MODEL_B", cmp.model_b, "the second model")->required()->check(CLI::ExistingFile);
  compare->add_option("DATA", cmp.data_path, "the data both models are given")->check(CLI::ExistingFile);
  compare->add_option("--set", cmp.sets, "set a data value for both models: --set K=50 (repeatable; default: none)");
  compare->add_option("--method", cmp.method, "smc, importance or rejection")->capture_default_str()
      ->check(CLI::IsMember({"smc", "importance", "rejection"}));
  ppl::cli::add_monte_carlo_options(compare, cmp.monte_carlo);
  compare->add_option("--threads", cmp.monte_carlo.threads, "threads the work is spread over")->capture_default_str()->check(whole(1, 256));
  compare->add_option("--seed", cmp.monte_carlo.seed, "random seed")->capture_default_str()->check(ppl::cli::seed());

  ppl::cli::model_inputs sbc_in;
  ppl::cli::sbc_options sbc;
  sbc.run.warmup = 200;
  sbc.run.draws = 99;
  sbc.run.thin = 4;
  auto* sbc_cmd = app.add_subcommand("sbc", "simulation-based calibration: fit replicates simulated from the prior, test the ranks of the truth");
  add_model_inputs(sbc_cmd, sbc_in);
  sbc_cmd->add_option("--replicates", sbc.replicates, "datasets simulated from the prior and fitted")->capture_default_str()
      ->check(whole(1, 100000000));
  sbc_cmd->add_option("--warmup", sbc.run.warmup, "warmup iterations of each fit")->capture_default_str()->check(whole(0, 1000000000));
  sbc_cmd->add_option("--draws", sbc.run.draws, "draws kept per fit, among which the truth is ranked (ranks 0 to draws)")
      ->capture_default_str()->check(whole(1, 100000000));
  sbc_cmd->add_option("--thin", sbc.run.thin, "iterations per kept draw, so that the ranked draws are nearly independent")
      ->capture_default_str()->check(whole(1, 1000000));
  sbc_cmd->add_option("--seed", sbc.run.seed, "random seed")->capture_default_str()->check(ppl::cli::seed());
  sbc_cmd->add_option("--threads", sbc.workers, "replicates fitted at once (under mpirun: per process)")->capture_default_str()
      ->check(whole(1, 256));
  sbc_cmd->add_option("--bins", sbc.bins, "bins of the ranks for the chi-square test")->capture_default_str()->check(whole(2, 1000));
  sbc_cmd->add_option("--sampler", sbc.samplers, "force a sampler kind: NAME=KIND (default: chosen by structure)");
  sbc_cmd->add_option("--output,-o", sbc.output, "CSV of every replicate's ranks (default: none)")->type_name("FILE");

  auto* man = app.add_subcommand("man", "print this manual page in roff (man -l <(ppl man)); installed as ppl.1");
  std::string shell;
  auto* completion = app.add_subcommand("completion", "print the shell completion script (bash: source <(ppl completion bash))");
  completion->add_option("SHELL", shell, "the shell")->required()->check(CLI::IsMember({"bash"}));

  std::string names;
  bool known = false;
  for (const auto* sub : app.get_subcommands({})) {
    known = known || (argc > 1 && sub->get_name() == argv[1]);
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  if (argc == 1) {
    std::cerr << "error: a command is required (commands: " << names << ")\nRun with --help for more information.\n";
    return 2;
  }
  if (argv[1][0] != '-' && !known) {
    std::cerr << "error: unknown command `" << argv[1] << "` (commands: " << names << ")\nRun with --help for more information.\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (man->parsed()) return ppl::cli::print_text(ppl::cli::manual_page(app));
  if (completion->parsed()) return ppl::cli::print_text(ppl::cli::bash_completion(app));
  if (check->parsed()) return ppl::cli::run_check(check_in);
  if (translate->parsed()) return ppl::cli::run_translate(translate_in, translate_output);
  if (simulate->parsed()) return ppl::cli::run_simulate(sim_in, sim);
  if (infer->parsed()) {
    if (!infer_resume.empty()) {
      // Everything else comes from the saved run.
      for (const CLI::Option* opt : infer->get_options())
        if (opt->count() > 0 && opt->get_name() != "--resume" && opt->get_name() != "--quiet" && opt->get_name() != "--histograms" &&
            opt->get_name() != "--show" && opt->get_name() != "--help") {
          std::cerr << "error: --resume continues a run with its own model, data and options; " << opt->get_name()
                    << " cannot be given with it\n";
          return 2;
        }
      return ppl::cli::resume_infer(infer_resume, inf);
    }
    if (infer_in.model_path.empty()) {
      std::cerr << "error: infer needs a MODEL (or --resume DRAWS.csv)\nRun with --help for more information.\n";
      return 2;
    }
    char** command = std::find_if(argv + 1, argv + argc, [](const char* a) { return std::string_view(a) == "infer"; });
    inf.args.assign(command + 1, argv + argc);
    return ppl::cli::run_infer(infer_in, inf);
  }
  if (sbc_cmd->parsed()) return ppl::cli::run_sbc(sbc_in, sbc);
  if (repl->parsed()) return ppl::cli::run_repl(repl_in, repl_script);
  if (plot->parsed()) return ppl::cli::run_plot(plot_opt);
  if (diagnose->parsed()) return ppl::cli::run_diagnose(diag_in, diag);
  if (plan->parsed()) return ppl::cli::run_plan(plan_in, plan_samplers);
  if (summary->parsed()) return ppl::cli::run_summary(summary_paths, summary_show, summary_histograms, summary_format == "csv");
  if (loo->parsed()) return ppl::cli::run_loo(loo_opt);
  if (compare->parsed()) return ppl::cli::run_compare(cmp);
  if (topics->parsed()) return ppl::cli::run_topics(topics_path, topics_variable, topics_labels, topics_top);
  if (heatmap->parsed()) {
    if (heat_draw == "last") heat.draw = -1;
    else if (heat_draw != "mean") {
      try {
        std::size_t used = 0;
        heat.draw = std::stol(heat_draw, &used);
        if (used != heat_draw.size() || heat.draw < 1) throw std::invalid_argument(heat_draw);
      } catch (const std::exception&) {
        std::cerr << "error: --draw: expected mean, last or a draw number from 1, got " << heat_draw
                  << "\nRun with --help for more information.\n";
        return 2;
      }
    }
    return ppl::cli::run_heatmap(heat);
  }
  return 2;
}

}  // namespace

// Under mpirun, every process of the job runs this (cli/cluster.hpp).
int main(int argc, char** argv) {
  return ppl::cli::run_in_group(argc, argv, [&] { return run_ppl(argc, argv); });
}
