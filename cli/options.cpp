// What the commands' options share (cli/options.hpp).
#include "cli/options.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <filesystem>

#include "cli/session.hpp"

namespace ppl::cli {

namespace {

// --init: `prior`, `pathfinder`, a radius (a number >= 0), or a file that exists.
CLI::Validator init_spec() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double r = 0;
        const auto parsed = std::from_chars(s.data(), s.data() + s.size(), r);
        if (s == "prior" || s == "pathfinder" || std::filesystem::is_regular_file(s)) return "";
        if (parsed.ec == std::errc() && parsed.ptr == s.data() + s.size() && r >= 0 && std::isfinite(r)) return "";
        return "expected a file of initial values, a radius (a number >= 0), `prior` or `pathfinder`, got " + s;
      },
      "FILE|R|prior|pathfinder");
}

}  // namespace

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

void add_model_inputs(CLI::App* cmd, model_inputs& in, bool required) {
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
  cmd->add_flag("--allow-unreliable", mc.allow_unreliable,
                "importance, smc, laplace: exit 0 even when the evidence's standard error (laplace: the approximation) cannot be trusted (default: exit 3 after the "
                "warning that says why)");
}

void add_infer_options(CLI::App* cmd, infer_options& o) {
  cmd->add_option("--method", o.method,
                  "mcmc (chains of the samplers ppl plan shows); importance (weighted prior draws, with the evidence); smc "
                  "(tempered sequential Monte Carlo, with the evidence); rejection (exact draws when the likelihood is bounded); "
                  "optimize (the mode of the continuous unknowns, by L-BFGS); laplace (--draws draws of the normal approximation "
                  "at that mode, with Laplace's evidence and the draws' Pareto k-hat); pathfinder (--paths paths of L-BFGS, "
                  "the best normal approximation of each, --draws draws resampled from them by importance weights, with their "
                  "k-hat); advi (a normal q on the unconstrained scale, --family meanfield or fullrank, fitted by stochastic "
                  "gradients of the ELBO; --draws draws of it, the ELBO's trace and the draws' k-hat); vb (mean-field "
                  "variational Bayes by coordinate ascent: for a model with LDA's structure, batch or online with --batch-size; "
                  "otherwise where every unknown's prior is conjugate to its children, each factor of q that conjugate "
                  "posterior's family, with the ELBO after each sweep and --draws draws of q)")
      ->capture_default_str()->check(CLI::IsMember({"mcmc", "importance", "smc", "rejection", "optimize", "laplace", "pathfinder", "advi", "vb"}));
  cmd->add_option("--batch-size", o.monte_carlo.batch_size, "vb: documents per update, online VB (default: all of them, batch VB)")
      ->check(whole(1, 4000000000.0));
  cmd->add_flag("--means", o.monte_carlo.means, "vb: write one row of q's means of the monitored theta and phi (default: --draws draws of q)");
  cmd->add_option("--starts", o.monte_carlo.starts,
                  "vb: starts, each run to the end (LDA: of lambda, each --passes passes; a conjugate model: from the start and "
                  "then from starts of their own, as --init says), of which the one with the highest ELBO is kept (coordinate "
                  "ascent ends in a local optimum that depends on its start)")
      ->capture_default_str()->check(whole(1, 1000));
  cmd->add_option("--passes", o.monte_carlo.passes, "vb: passes over the documents")->capture_default_str()->check(whole(1, 1000000));
  cmd->add_option("--offset", o.monte_carlo.offset, "vb, online: the learning rate's offset tau_0 in (offset + t)^(-decay), as gensim names it")
      ->capture_default_str()->check(real(0, 1e9));
  cmd->add_option("--decay", o.monte_carlo.decay, "vb, online: the learning rate's decay kappa in (offset + t)^(-decay), in (0.5, 1] for convergence")
      ->capture_default_str()->check(real(0.5, 1));
  cmd->add_option("--family", o.monte_carlo.family, "advi: meanfield (independent normals) or fullrank (a normal with a full covariance)")
      ->capture_default_str()->check(CLI::IsMember({"meanfield", "fullrank"}));
  cmd->add_option("--eta", o.monte_carlo.eta, "advi: the step size's scale (default: adapted, by a trial of 100, 10, 1, 0.1 and 0.01)")
      ->check(real(1e-12, 1e12));
  cmd->add_option("--grad-samples", o.monte_carlo.grad_samples, "advi: draws of q per gradient of the ELBO")
      ->capture_default_str()->check(whole(1, 100000));
  cmd->add_option("--elbo-samples", o.monte_carlo.elbo_samples, "advi: draws of q per estimate of the ELBO")
      ->capture_default_str()->check(whole(1, 1000000));
  cmd->add_option("--eval-elbo", o.monte_carlo.eval_elbo, "advi: iterations between estimates of the ELBO (and tests of convergence)")
      ->capture_default_str()->check(whole(1, 1000000));
  cmd->add_option("--tol-rel-obj", o.monte_carlo.tol_rel_obj,
                  "advi: stop when the mean or median of the ELBO's recent relative changes falls below this")
      ->capture_default_str()->check(real(1e-12, 1));
  cmd->add_option("--refine", o.monte_carlo.refine,
                  "advi: after the stochastic ascent, climb the ELBO at its --elbo-samples fixed draws by L-BFGS (deterministic "
                  "ADVI), which removes the ascent's noise")
      ->capture_default_str();
  cmd->add_option("--paths", o.monte_carlo.paths, "pathfinder: paths, each from a start of its own (1: single-path Pathfinder, no resampling)")
      ->capture_default_str()->check(whole(1, 1000));
  add_monte_carlo_options(cmd, o.monte_carlo);
  cmd->add_option("--iterations", o.monte_carlo.iterations, "optimize, laplace, pathfinder, advi, vb: the iteration limit (default: optimize and laplace 2000, pathfinder 1000, advi 10000; "
                  "vb's sweeps of a conjugate model 1000)")
      ->capture_default_str()->check(whole(1, 1000000000));
  cmd->add_option("--jacobian", o.monte_carlo.jacobian,
                  "optimize: true, the mode of the density on the unconstrained scale (with the transforms' Jacobian, where "
                  "laplace centres its approximation); false, the mode of p(unknowns, data) itself on the constrained scale, "
                  "the penalised maximum likelihood (Stan's optimize default)")
      ->capture_default_str();
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
                  "`prior` (drawn from the prior), or `pathfinder` (the default start, then Pathfinder's path toward the bulk for the "
                  "unknowns of NUTS and HMC blocks, and a draw of its best normal approximation)")
      ->capture_default_str()
      ->check(init_spec());
  cmd->add_option("--monitor", o.monitor, "variables to record (default: unknowns and derived quantities up to 1000 scalars)")->delimiter(',');
  cmd->add_option("--sampler", o.samplers,
                    "force a sampler kind: NAME=KIND (ancestral, collapsed, conjugate, cluster, gibbs, nuts, slice, rwmh, hmc; default: chosen by structure, as ppl plan shows)");
  cmd->add_option("--metric", o.metric,
                  "nuts and hmc: the adapted metric, diag (variances), dense (covariance), or auto (dense for a block of at most "
                  "100 coordinates whose warmup draws are strongly correlated and that is no funnel, else diag)")
      ->capture_default_str()->check(CLI::IsMember({"auto", "diag", "dense"}));
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
  cmd->add_flag("--dic", o.run.dic,
               "record each draw's deviance (-2 log p(data | unknowns)) as the column `deviance`, and report DIC with JAGS's pD "
               "(Plummer 2008), Spiegelhalter et al.'s (2002) and var(deviance) / 2 (default: off)");
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

std::string usage_failure(const CLI::App*, const CLI::Error& e) {
  return usage_error_line(e.what()) + "Run with --help for more information.\n";
}

}  // namespace ppl::cli
