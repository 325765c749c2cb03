// `ppl infer --method importance|smc|rejection`: the weighted Monte Carlo methods
// (inference/monte_carlo.hpp). Their draws are known only when the method is done (the
// weights are normalised over all of them, and the evidence goes in the header), so the
// draws file is written whole at the end, in ppl's layout, with a weight__ column. Ctrl-C
// or SIGTERM stops the method with what it finished (whole SMC runs, the draws made),
// which is written as the result of a smaller run, and the exit status is 130.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <unistd.h>

#include "cli/progress.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "draws/writer.hpp"
#include "core/interrupt.hpp"

namespace ppl::cli {

namespace {

// The methods built on a search of the mode (inference/mode.hpp), which take a start.
bool mode_method(const std::string& method) {
  return method == "optimize" || method == "laplace" || method == "pathfinder" || method == "advi";
}

// Those and vb: approximations whose rows carry no weights and whose report is their own.
bool approximate_method(const std::string& method) { return mode_method(method) || method == "vb"; }

// The options that only MCMC takes, refused rather than ignored.
void refuse_mcmc_options(const infer_options& o) {
  const std::string method = "--method " + o.method;
  if (o.format != "ppl" && !approximate_method(o.method))
    throw std::invalid_argument(method + " writes ppl's layout only (--format ppl), with a weight__ column");
  if (!mode_method(o.method) && o.method != "vb" && o.init != "1")
    throw std::invalid_argument("--init: " + method + " starts from the prior; only mcmc, optimize, laplace, pathfinder, advi and vb take a start");
  if ((mode_method(o.method) || o.method == "vb") && (o.init == "prior" || o.init == "pathfinder"))
    throw std::invalid_argument("--init " + o.init + ": " + method + " starts from a file of values or a jitter radius");
  if (approximate_method(o.method) && o.monte_carlo.resample) throw std::invalid_argument("--resample: " + method + "'s draws carry no weights");
  if (!o.heldout.empty() && o.method != "vb")
    throw std::invalid_argument("--heldout is scored by MCMC's samplers and by vb only; " + method + " takes none");
  if (!o.samplers.empty()) throw std::invalid_argument("--sampler chooses MCMC's samplers; " + method + " takes none");
  if (!o.proposal.empty() && o.method != "importance")
    throw std::invalid_argument("--proposal is importance sampling's; " + method + " draws from the prior");
  if (o.method == "rejection" && o.monte_carlo.resample)
    throw std::invalid_argument("--resample: --method rejection's draws are unweighted already");
}

std::string temperature_counts(const inference::weighted_result& r) {
  std::string out;
  for (const auto& ladder : r.temperatures) out += (out.empty() ? "" : ", ") + std::to_string(ladder.size() - 1);
  return out;
}

std::string method_settings(const infer_options& o, const inference::monte_carlo_options& mc) {
  if (o.method == "smc")
    return fmt::format("particles per run: {}, runs: {}, ess_fraction: {}, moves: {}, threads: {}", mc.particles, mc.runs,
                       mc.ess_fraction, mc.moves, mc.threads);
  if (o.method == "vb")
    return fmt::format("batch_size: {}, passes: {}, starts: {}, offset: {}, decay: {}, draws: {}, threads: {} (LDA); sweeps: {}, init: {} "
                       "(conjugate models)",
                       mc.batch_size == 0 ? std::string("all (batch VB)") : std::to_string(mc.batch_size), mc.passes, mc.starts,
                       mc.offset, mc.decay, mc.particles, mc.threads, inference::iteration_limit(mc, 1000), o.init);
  if (o.method == "advi")
    return fmt::format("family: {}, draws: {}, iterations: {}, eta: {}, grad_samples: {}, elbo_samples: {}, eval_elbo: {}, tol_rel_obj: {}, "
                       "init: {}", mc.family, mc.particles, inference::iteration_limit(mc, 10000),
                       mc.eta > 0 ? fmt::format("{:g}", mc.eta) : "adapted", mc.grad_samples, mc.elbo_samples, mc.eval_elbo,
                       mc.tol_rel_obj, o.init);
  if (o.method == "pathfinder")
    return fmt::format("paths: {}, draws: {}, iterations: {}, init: {}, threads: {}", mc.paths, mc.particles,
                       inference::iteration_limit(mc, 1000), o.init, mc.threads);
  if (mode_method(o.method))
    return fmt::format("{}iterations: {}, jacobian: {}, init: {}", o.method == "laplace" ? fmt::format("draws: {}, ", mc.particles) : "",
                       inference::iteration_limit(mc, 2000), mc.jacobian, o.init);
  if (o.method == "importance")
    return o.proposal.empty() ? fmt::format("draws from the prior: {}, threads: {}", mc.particles, mc.threads)
                              : fmt::format("draws from the proposal {}: {}, threads: {}", o.proposal, mc.particles, mc.threads);
  return fmt::format("draws: {}, max_proposals: {:.3g}, threads: {}", mc.particles, mc.max_proposals, mc.threads);
}

// What the method found, as `key: value` lines: the draws file's header and the report.
std::vector<std::string> result_lines(const infer_options& o, const inference::weighted_result& r) {
  std::vector<std::string> lines;
  if (approximate_method(o.method)) {
    if (o.method == "laplace") lines.push_back(fmt::format("log_evidence: {:.6f} (Laplace's approximation)", r.evidence.log_z));
    lines.insert(lines.end(), r.report.begin(), r.report.end());
    if (r.interrupted) lines.push_back("interrupted: " + r.stopped);
    lines.push_back(fmt::format("elapsed: {:.3f} s", r.seconds));
    return lines;
  }
  lines.push_back(fmt::format("log_evidence: {:.6f}", r.evidence.log_z));
  lines.push_back(fmt::format("log_evidence_se: {:.6f}", r.evidence.se));
  if (o.method != "rejection") lines.push_back(fmt::format("weights_ess: {:.1f} of {}", r.ess, o.method == "smc" ? r.run_log_z.size() * static_cast<std::size_t>(o.monte_carlo.particles) : r.row_count));
  if (o.method == "importance") lines.push_back(fmt::format("pareto_k: {:.3f}", r.pareto_k));
  if (o.method == "rejection")
    lines.push_back(fmt::format("acceptance: {:.4g} ({} of {} prior draws after a pilot; bound: {})", r.acceptance, r.row_count,
                                r.proposals, r.bound));
  if (o.method == "smc") {
    lines.insert(lines.end(), r.report.begin(), r.report.end());
    lines.push_back("temperatures per run: " + temperature_counts(r));
    for (std::size_t k = 0; k < r.run_log_z.size(); ++k)
      lines.push_back(fmt::format("run {} log_evidence: {:.6f}", r.run_numbers[k], r.run_log_z[k]));
  }
  if (r.interrupted) lines.push_back("interrupted: " + r.stopped);
  lines.push_back(fmt::format("elapsed: {:.3f} s", r.seconds));
  return lines;
}

std::vector<std::string> method_comments(const model_inputs& in, const infer_options& o, const inference::monte_carlo_options& mc,
                                         const inference::weighted_result& r) {
  std::vector<std::string> lines = identity_comments(in, mc.seed);
  lines.push_back("method: " + o.method);
  lines.push_back(method_settings(o, mc));
  for (const auto& p : r.moves) lines.push_back("move: " + p.variable + " " + p.kind + " (" + p.reason + ")");
  for (auto& l : result_lines(o, r)) lines.push_back(std::move(l));
  return lines;
}

// SMC's status line on a terminal: each run's temperature, redrawn in place within the
// terminal's width, and the time so far; cleared when the runs are done.
class smc_status {
 public:
  explicit smc_status(std::size_t runs) : beta_(runs, 0.0) {}
  void update(std::size_t run, double beta) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (run < beta_.size()) beta_[run] = beta;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::string line = fmt::format("smc: {:.0f} s, temperature of each run:", seconds);
    for (double b : beta_) line += fmt::format(" {:.3f}", b);
    const std::size_t width = terminal_width();
    if (line.size() >= width) line = line.substr(0, width > 5 ? width - 5 : 0) + " ...";
    fmt::print(stderr, "\r{}\x1b[K", line);
    drawn_ = true;
  }
  ~smc_status() {
    if (drawn_) fmt::print(stderr, "\r\x1b[K");
  }

 private:
  std::vector<double> beta_;
  std::mutex mutex_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// vb's status line on a terminal: the pass, the time so far and the held-out perplexity,
// redrawn in place; cleared after the last pass.
std::function<void(int, double)> vb_status(int passes) {
  return [passes, start = std::chrono::steady_clock::now()](int pass, double perplexity) {
    std::string line = fmt::format("vb: pass {} of {}, {:.0f} s", pass, passes,
                                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (std::isfinite(perplexity)) line += fmt::format(", held-out perplexity {:.2f}", perplexity);
    fmt::print(stderr, "\r{}\x1b[K", line.substr(0, terminal_width() - 1));
    if (pass == passes) fmt::print(stderr, "\r\x1b[K");
  };
}

// The settings from infer's options: --threads, --seed and --monitor are MCMC's too, and
// an approximation's draws are --draws.
inference::monte_carlo_options monte_carlo_settings(const infer_options& o) {
  inference::monte_carlo_options mc = o.monte_carlo;
  mc.threads = o.run.threads;
  mc.seed = o.run.seed;
  mc.monitors = o.monitor;
  if (approximate_method(o.method) && o.method != "optimize") mc.particles = o.run.draws;
  return mc;
}

// optimize's one row: the mode, a value a column (those --show names, else the first 20).
void print_mode(const inference::weighted_result& r, const infer_options& o) {
  std::size_t shown = 0;
  fmt::print("{:<24} {:>14}\n", "name", "mode");
  for (std::size_t c = 0; c < r.columns.size(); ++c) {
    const std::string& name = r.columns[c];
    const std::string base = name.substr(0, name.find('['));
    if (!o.show.empty() ? std::find(o.show.begin(), o.show.end(), base) == o.show.end() && name != "lp__" : shown >= 20) continue;
    fmt::print("{:<24} {:>14.6g}\n", name, r.rows[c]);
    ++shown;
  }
  if (o.show.empty() && r.columns.size() > shown)
    fmt::print("note: {} of the {} columns are shown (--show NAME,... chooses; the output file has them all)\n", shown, r.columns.size());
}

}  // namespace

inference::weighted_result run_method(const lang::ir::model& m, const data::data_table& data, const std::string& method,
                                     const inference::monte_carlo_options& mc) {
  // A mode and the curvature there need no proper prior, only a peak.
  if (method == "optimize") return inference::optimize_mode(m, data, mc);
  if (method == "laplace") return inference::laplace_sample(m, data, mc);
  if (method == "pathfinder") return inference::pathfinder_sample(m, data, mc);
  if (method == "advi") return inference::advi_sample(m, data, mc);
  if (method == "vb") return inference::vb_sample(m, data, mc);
  refuse_improper_priors(m, "--method " + method);
  if (method == "importance") return inference::importance_sample(m, data, mc);
  if (method == "smc") return inference::smc_sample(m, data, mc);
  if (method == "rejection") return inference::rejection_sample(m, data, mc);
  throw std::invalid_argument("--method " + method + ": expected mcmc, importance, smc, rejection, optimize, laplace, pathfinder, advi or vb");
}

int infer_weighted(loaded l, const model_inputs& in, const infer_options& o, draws::table* keep) {
  refuse_mcmc_options(o);
  inference::monte_carlo_options mc = monte_carlo_settings(o);
  data::data_table init;
  if (mode_method(o.method) || o.method == "vb") mc.start = start_of(*l.model, o.init, init);
  // One set of draws: the files of one chain, none of them an input (--init's file and
  // --heldout's are read too).
  if (!o.output.empty())
    refuse_overwriting_inputs("--output", draws_outputs(o, 1), {in.model_path, in.data_path, o.proposal, mc.start.init ? o.init : "", o.heldout});
  // The REPL's queries (mean(E), quantile(E, p)) read the kept draws as equally weighted:
  // it keeps resampled ones, never weights they would ignore.
  if (keep && o.method != "rejection") mc.resample = true;
  std::optional<loaded> proposal;
  if (!o.proposal.empty()) {
    model_inputs q = in;
    q.model_path = o.proposal;
    q.dialect = "ppl";
    proposal.emplace(load(q));
    refuse_improper_priors(*proposal->model, "--proposal");
    mc.proposal = proposal->model.get();
    mc.proposal_data = &proposal->data;
  }
  data::data_table heldout;
  if (!o.heldout.empty()) {
    heldout = data::read_data_file(o.heldout);
    mc.heldout = &heldout;
  }
  if (o.method == "vb" && !o.quiet && isatty(STDERR_FILENO)) mc.pass_done = vb_status(mc.passes);
  ppl::install_interrupt_handlers();
  std::optional<smc_status> status;
  if (o.method == "smc" && !o.quiet && isatty(STDERR_FILENO)) {
    status.emplace(static_cast<std::size_t>(mc.runs));
    mc.progress = [&status](std::size_t run, double beta) { status->update(run, beta); };
  }
  const inference::weighted_result r = run_method(*l.model, l.data, o.method, mc);
  status.reset();
  if (r.interrupted && r.row_count == 0) {
    fmt::print(stderr, "interrupted: {}; nothing is written{}\n", r.stopped, o.output.empty() ? "" : " (" + o.output + " is untouched)");
    return 130;
  }
  std::optional<temporary_file> temporary;
  std::optional<draws::draws_source> draws;
  summary_messages messages;
  if (r.columns.empty()) {
    // vb with nothing monitored: the report is the result.
    if (!o.output.empty()) messages.notes.push_back("nothing is recorded, so " + o.output + " is not written");
  } else {
    if (o.output.empty()) temporary.emplace("ppl-draws-");
    // A CODA run's rows go to its ppl-layout file first (cli/run_output.hpp).
    const auto format = o.output.empty() || format_of(o) == draws::draws_format::coda ? draws::draws_format::ppl : format_of(o);
    draws::draws_writer writer(o.output.empty() ? temporary->path() : o.output, format, 1, {method_comments(in, o, mc, r)}, r.columns);
    const std::size_t width = r.columns.size();
    for (std::size_t i = 0; i < r.row_count; ++i) writer.write(1, static_cast<long>(i) + 1, &r.rows[i * width]);
    writer.close();
    if (!o.quiet && !r.moves.empty()) print_plan(r.moves, "# move: ", 16);
    draws.emplace(writer.paths());
    if (!o.output.empty() && format_of(o) == draws::draws_format::coda && !r.interrupted)
      if (const int status = write_coda_files(*draws, o, false); status != 0) return status;
    if (o.method == "optimize") print_mode(r, o);
    else if (r.row_count >= 2) {
      table_options table;
      table.show = o.show;
      table.histograms = want_histograms(o.histograms);
      table.independent = approximate_method(o.method) || o.method == "rejection";
      messages = print_summary(*draws, table);
    }
  }
  for (const auto& n : r.notes) messages.notes.push_back(n);
  for (const auto& w : r.warnings) messages.warnings.push_back(w);
  for (const auto& n : messages.notes) fmt::print("note: {}\n", n);
  fmt::print("# method: {} ({})\n", o.method, method_settings(o, mc));
  for (const auto& line : result_lines(o, r)) fmt::print("# {}\n", line);
  print_warnings(messages.warnings);
  if (keep && draws) *keep = draws->read_all();
  if (r.interrupted) {
    fmt::print(stderr, "interrupted: {}; the result above is theirs{}\n", r.stopped, o.output.empty() ? "" : ", kept in " + o.output);
    return 130;
  }
  if (r.unreliable && !mc.allow_unreliable) {
    fmt::print(stderr, "error: {} cannot be trusted (the warning above says why); the draws are written, and --allow-unreliable "
                       "exits 0 with them\n", mode_method(o.method) ? "the approximation" : "the evidence's standard error");
    return 3;
  }
  return 0;
}

}  // namespace ppl::cli
