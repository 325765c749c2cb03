// `ppl infer` with chains (--method mcmc, the default) on a loaded model. The chains run on
// threads and, under mpirun, over processes (cli/cluster.hpp); their draws are streamed to
// the draws file(s), or to a temporary one the summary is read from, and the run's state is
// saved beside them for --resume (cli/run_output.hpp). After the run come the plan, the
// summary and each chain's report.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>

#include "cli/cluster.hpp"
#include "cli/progress.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "stdlib/moments.hpp"
#include "core/interrupt.hpp"
#include "draws/coda_writer.hpp"
#include "draws/writer.hpp"
#include "inference/chain.hpp"

namespace ppl::cli {

namespace {

// --monitor's names: CLI11 splits the option at every comma, and JAGS's one element,
// Y[26,2], holds one; the pieces inside brackets are put back together.
std::vector<std::string> monitor_names(const std::vector<std::string>& pieces) {
  std::vector<std::string> out;
  int depth = 0;
  for (const auto& p : pieces) {
    if (depth > 0) out.back() += "," + p;
    else out.push_back(p);
    for (char c : p) depth += c == '[' ? 1 : c == ']' ? -1 : 0;
  }
  return out;
}

// --show names variables of the model that are recorded; caught before the run, not after.
void check_show(const lang::ir::model& m, const infer_options& o) {
  std::vector<std::string> monitored;
  for (const auto& n : monitor_names(o.monitor)) monitored.push_back(n.substr(0, n.find('[')));
  for (const auto& name : o.show) {
    if (m.find(name) < 0) throw std::invalid_argument("--show: `" + name + "` is not a variable of the model");
    if (!monitored.empty() && std::find(monitored.begin(), monitored.end(), name) == monitored.end())
      throw std::invalid_argument("--show: `" + name + "` is not recorded; add it to --monitor");
  }
}

// The files a run writes: its draws file(s) and the saved state beside them.
std::vector<std::string> run_outputs(const infer_options& o) {
  std::vector<std::string> out = draws_outputs(o, o.run.chains);
  out.push_back(state_path(o.output));
  out.push_back(state_path(o.output) + ".tmp");
  return out;
}

// The chains' options: those of `ppl infer` with the start and the held-out data read.
inference::run_options chain_options(const infer_options& o, const model::start_options& start, const data::data_table* heldout) {
  inference::run_options ro = o.run;
  ro.metric = o.metric == "dense" ? samplers::metric_choice::dense
              : o.metric == "diag" ? samplers::metric_choice::diagonal : samplers::metric_choice::automatic;
  ro.monitors = monitor_names(o.monitor);
  ro.overrides = parse_overrides(o.samplers, "theta");
  ro.start = start;
  ro.start_path = o.init == "pathfinder";
  ro.heldout = heldout;
  return ro;
}

// A process other than rank 0 of an MPI job runs its chains and sends on what they make;
// rank 0 writes and prints (cli/cluster.hpp).
int run_forwarding(loaded& l, inference::run_options& ro, const infer_options& o, bool saving) {
  std::vector<std::string> resume_from;
  if (o.resume) ro.resume = &(resume_from = o.resume->chains);
  ro.spread->forward_callbacks(ro, saving);
  ppl::install_interrupt_handlers();
  inference::run(*l.model, std::move(l.data), ro, nullptr);
  return 0;
}

// The chains run, their draws written as they are made. A failed write is reported here,
// with the rows the draws file still holds, and gives no result (exit status 1).
std::optional<inference::run_result> run_chains(loaded& l, const inference::run_options& ro, chain_output& out,
                                                progress_display& progress, const infer_options& o, bool saving) {
  inference::run_result r;
  try {
    r = inference::run(*l.model, std::move(l.data), ro,
                       [&](const std::vector<std::string>& columns, const std::vector<inference::plan_line>& plan) {
                         return out.open(columns, plan);
                       });
    out.writer()->close();
  } catch (const draws::write_error& e) {
    progress.finish();
    fmt::print(stderr, "error: {}\n", e.what());
    const long rows = out.writer() ? out.writer()->rows_written() : 0;
    if (rows > 0)
      fmt::print(stderr, "note: the {} rows of draws written before it are intact{}\n", rows,
                 saving && out.saved_once() ? fmt::format("; once there is room, continue with: ppl infer --resume {}", o.output) : "");
    return std::nullopt;
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  return r;
}

// What a run stopped by Ctrl-C kept, and how to continue it.
void print_interrupted(const inference::run_result& r, const infer_options& o, draws::draws_format format, bool resumable) {
  std::string done;
  long kept = 0;  // draws after the warmup, one in every --thin
  for (std::size_t c = 0; c < r.completed.size(); ++c) {
    done += fmt::format("{}chain {}: {} iterations", c ? ", " : "", c + 1, r.completed[c]);
    kept += std::max(0L, static_cast<long>(r.completed[c]) - o.run.warmup) / std::max(1L, static_cast<long>(o.run.thin));
  }
  const std::string draws = kept == 0   ? "no draw yet (the chains were still in their warmup)"
                            : o.output.empty() ? fmt::format("{} draws, summarised below and not kept (give -o FILE to keep them)", kept)
                                               : fmt::format("{} draws, every one kept in {}", kept, o.output);
  fmt::print(stderr, "interrupted: {}; {}\n", done, draws);
  if (format == draws::draws_format::coda) fmt::print(stderr, "note: the CODA files are written when the run is complete\n");
  if (resumable) fmt::print(stderr, "continue with: ppl infer --resume {}\n", o.output);
}

// Notes after the summary: what was left out of the draws for its size.
void print_left_out(const inference::run_result& r, const infer_options& o) {
  if (r.left_out.empty() || !o.monitor.empty()) return;
  std::string names;
  for (const auto& v : r.left_out) names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", v.name, v.size);
  fmt::print("note: not recorded, more than 1000 values each: {}; --monitor NAME records one\n", names);
}

// The summary table with its notes, each chain's report and held-out scores; returns the
// warnings, which the run prints after everything on standard output.
std::vector<std::string> print_summary_and_reports(const draws::draws_source& draws, const inference::run_result& r, const infer_options& o,
                                                   bool heldout) {
  table_options table;
  table.show = o.show;
  table.histograms = want_histograms(o.histograms);
  summary_messages messages = print_summary(draws, table);
  for (const auto& n : messages.notes) fmt::print("note: {}\n", n);
  // Collapsed theta and phi with --collapsed means: each recorded value is E[theta | z],
  // whose spread is narrower than the posterior's; the summary's sd and quantiles would
  // mislead unsaid.
  for (const auto& p : r.plan)
    if (p.means && std::any_of(r.columns.begin(), r.columns.end(), [&](const std::string& c) { return draws::column_variable(c) == p.name; }))
      messages.warnings.push_back(fmt::format("{0} holds Rao-Blackwellised means E[{0} | z] (--collapsed means), not draws: their "
                                              "mean estimates the posterior mean, their sd and quantiles understate the posterior's "
                                              "(without --collapsed means, {0} is recorded as draws)",
                                              p.name));
  print_left_out(r, o);
  for (std::size_t c = 0; c < r.reports.size(); ++c)
    for (const auto& rep : r.reports[c]) fmt::print("# chain {} {}\n", c + 1, rep);
  if (heldout)
    for (std::size_t c = 0; c < r.heldout_score.size(); ++c) fmt::print("# chain {} {}: {:.6g}\n", c + 1, r.heldout_what, r.heldout_score[c]);
  return messages.warnings;
}

// After the chains: the plan, what an interrupted run kept, the CODA files of a complete
// one, the summary and reports, the times. Returns the exit status.
int report(const inference::run_result& r, const infer_options& o, draws::draws_format format, const chain_output& out, bool saving,
           bool heldout, draws::table* keep, const std::map<std::string, std::string>& spelled) {
  if (!o.quiet)
    print_plan(r.plan, "# ", 24);
  if (r.interrupted) print_interrupted(r, o, format, saving && !out.save_failed());
  const draws::draws_source draws(out.writer()->paths());
  if (format == draws::draws_format::coda && !r.interrupted)
    if (const int status = write_coda_files(draws, o, saving, spelled); status != 0) return status;
  bool enough = draws.chains() > 0;
  for (std::size_t c = 0; c < draws.chains(); ++c) enough = enough && draws.rows(c) >= 4;
  std::vector<std::string> warnings;
  if (enough) warnings = print_summary_and_reports(draws, r, o, heldout);
  else warnings.push_back("too few draws for a summary (it needs at least 4 per chain)");
  if (r.dic) print_dic(draws, &*r.dic);
  for (std::size_t c = 0; c < r.warmup_seconds.size(); ++c)
    fmt::print("# chain {} elapsed: warmup {:.3f} s, sampling {:.3f} s\n", c + 1, r.warmup_seconds[c], r.sampling_seconds[c]);
  print_warnings(warnings);
  if (keep) *keep = draws.read_all();
  return r.interrupted ? 130 : 0;
}

}  // namespace

int infer_chains(loaded l, const model_inputs& in, const infer_options& o, const std::string& output_option, draws::table* keep) {
  data::data_table init, heldout;
  const model::start_options start = start_of(*l.model, o.init, init);
  if (start.from_prior) refuse_improper_priors(*l.model, "`--init prior`");
  if (!o.heldout.empty()) heldout = data::read_data_file(o.heldout);
  check_show(*l.model, o);
  if (!o.output.empty())
    refuse_overwriting_inputs(output_option, run_outputs(o), {in.model_path, in.data_path, start.init ? o.init : "", o.heldout});
  inference::run_options ro = chain_options(o, start, o.heldout.empty() ? nullptr : &heldout);
  // A temporary draws file (no --output) is in ppl's layout, one file.
  const auto format = o.output.empty() ? draws::draws_format::ppl : format_of(o);
  ro.hamiltonian_columns = format == draws::draws_format::stan;
  // What is streamed: a CODA run's rows go to its ppl-layout file.
  const auto streamed = format == draws::draws_format::coda ? draws::draws_format::ppl : format;
  const bool shared = processes_share_chains(o.run.chains);
  const bool saving = !o.args.empty() && !o.output.empty() && !shared;
  if (shared && !o.output.empty() && process_rank() == 0)
    fmt::print(stderr, "note: the processes share one chain's sweep (LDA's documents, a conjugate update's blocks), so the run's "
                       "state is not saved (no --resume)\n");
  // Under mpirun the chains are spread over the processes once all have read their inputs.
  ro.spread = keep ? nullptr : spread_chains(o.run.chains);
  if (ro.spread && !ro.spread->writes()) return run_forwarding(l, ro, o, saving);
  if (format == draws::draws_format::coda) draws::remove_coda(draws::coda_stem(o.output));
  progress_display progress(o.run.chains, o.run.warmup, !o.quiet && isatty(STDERR_FILENO));
  if (!o.quiet)
    ro.heldout_report = [&](int c, long it, const std::string& what, double score) {
      progress.note(fmt::format("chain {} iteration {}: {} {:.6g}", c + 1, it, what, score));
    };
  if (!o.quiet && isatty(STDERR_FILENO))
    ro.progress = [&](int c, long done, long total, double lp) { progress.update(c, done, total, lp); };
  // The build's steps on the same line until the chains run (model/build_progress.hpp).
  struct build_shown {
    explicit build_shown(progress_display& p) { model::set_build_progress([&p](const model::build_step& s) { p.building(s); }); }
    ~build_shown() { model::set_build_progress(nullptr); }
  } const shown_build(progress);
  ppl::install_interrupt_handlers();
  chain_output out(in, o, streamed, saving, progress);
  out.attach(ro);
  const std::optional<inference::run_result> r = run_chains(l, ro, out, progress, o, saving);
  return r ? report(*r, o, format, out, saving, ro.heldout != nullptr, keep, l.bugs_names) : 1;
}

}  // namespace ppl::cli
