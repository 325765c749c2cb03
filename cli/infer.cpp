// `ppl infer`: its options; run the chains, stream the draws, print the summary; and
// --resume, which continues a saved run with the arguments it began with (cli/resume.hpp).
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include "cli/cluster.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/resume.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "draws/coda_writer.hpp"
#include "draws/writer.hpp"
#include "core/interrupt.hpp"
#include "inference/chain.hpp"

namespace ppl::cli {

namespace {

// --init: `prior`, a jitter radius, or a file of values (read into `values`).
model::start_options start_from(const std::string& spec, data::data_table& values) {
  model::start_options out;
  double radius = 0;
  const auto parsed = std::from_chars(spec.data(), spec.data() + spec.size(), radius);
  if (spec == "prior") {
    out.from_prior = true;
  } else if (parsed.ec == std::errc() && parsed.ptr == spec.data() + spec.size()) {
    out.radius = radius;
  } else {
    values = data::read_data_file(spec);
    out.init = &values;
  }
  return out;
}

draws::draws_format format_of(const infer_options& o) {
  return o.format == "stan" ? draws::draws_format::stan : o.format == "coda" ? draws::draws_format::coda : draws::draws_format::ppl;
}

// --show names variables of the model that are recorded; caught before the run, not after.
void check_show(const lang::ir::model& m, const infer_options& o) {
  for (const auto& name : o.show) {
    if (m.find(name) < 0) throw std::invalid_argument("--show: `" + name + "` is not a variable of the model");
    if (!o.monitor.empty() && std::find(o.monitor.begin(), o.monitor.end(), name) == o.monitor.end())
      throw std::invalid_argument("--show: `" + name + "` is not recorded; add it to --monitor");
  }
}

// The files a run writes: its draws file(s) and the saved state beside them.
std::vector<std::string> run_outputs(const infer_options& o) {
  std::vector<std::string> out = draws::draws_paths(o.output, format_of(o), o.run.chains);
  if (format_of(o) == draws::draws_format::coda)
    for (const auto& p : draws::coda_paths(draws::coda_stem(o.output), o.run.chains)) out.push_back(p);
  out.push_back(state_path(o.output));
  out.push_back(state_path(o.output) + ".tmp");
  return out;
}

// Notes after the summary: what was left out of the draws for its size.
void print_left_out(const inference::run_result& r, const infer_options& o) {
  if (r.left_out.empty() || !o.monitor.empty()) return;
  std::string names;
  for (const auto& v : r.left_out) names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", v.name, v.size);
  fmt::print("note: not recorded, more than 1000 values each: {}; --monitor NAME records one\n", names);
}

// The options of `ppl infer` alone: those of the REPL's `sample` and saving the run.
void add_infer_arguments(CLI::App* cmd, model_inputs& in, infer_options& o) {
  add_model_inputs(cmd, in, false);
  add_infer_options(cmd, o);
  cmd->add_option("--checkpoint-every", o.checkpoint_every,
                  "seconds between saves of the run's state beside the draws file (DRAWS.csv.state), for --resume; 0: every iteration")
      ->capture_default_str()
      ->check(real(0, 1e9));
}

// The model inputs and options of `ppl infer` from its arguments (those a saved run keeps).
void parse_infer_arguments(const std::vector<std::string>& args, model_inputs& in, infer_options& o) {
  CLI::App app{"ppl infer"};
  add_infer_arguments(&app, in, o);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(std::string("--resume: the saved arguments no longer parse: ") + e.what());
  }
  if (in.model_path.empty()) throw std::invalid_argument("--resume: the saved arguments name no model");
}

int run_infer(const model_inputs& in, const infer_options& o) {
  return guarded([&] { return infer_loaded(load(in), in, o, nullptr); });
}

// `ppl infer --resume DRAWS`: continues the run that wrote DRAWS with its own arguments;
// `current` gives the options that may change (--quiet, --histograms, --show).
int resume_infer(const std::string& draws_path, const infer_options& current) {
  return guarded([&] {
    const saved_run saved = read_saved_run(state_path(draws_path));
    const std::string draws = std::filesystem::absolute(draws_path).string();
    std::error_code ec;
    std::filesystem::current_path(saved.directory, ec);
    if (ec) throw std::invalid_argument("--resume: cannot enter " + saved.directory + ", the directory the run began in");
    model_inputs in;
    infer_options o;
    parse_infer_arguments(saved.args, in, o);
    o.quiet = current.quiet;
    o.histograms = current.histograms;
    if (!current.show.empty()) o.show = current.show;
    o.output = draws;
    o.args = saved.args;
    o.resume = &saved;
    if (saved.chains.size() != static_cast<std::size_t>(o.run.chains))
      throw std::invalid_argument("--resume: the saved state has " + std::to_string(saved.chains.size()) + " chains, the run's arguments " +
                                  std::to_string(o.run.chains));
    const std::vector<std::string> given = draws::draws_paths(draws_path, format_of(o), o.run.chains);
    const std::vector<std::string> files = draws::draws_paths(draws, format_of(o), o.run.chains);
    for (std::size_t i = 0; i < files.size(); ++i)
      if (!std::filesystem::exists(files[i]))
        throw std::invalid_argument("--resume: the draws file " + given[i] + " is gone; the run continues only with the draws it has written");
    for (const auto& [path, hash] : {std::pair{in.model_path, saved.model_hash}, std::pair{in.data_path, saved.data_hash}})
      if (file_fingerprint(path) != hash)
        throw std::invalid_argument("--resume: " + path + " has changed since the run began; a run continues only with the model and data it began with");
    return infer_loaded(load(in), in, o, nullptr);
  });
}

struct infer_arguments {
  model_inputs in;
  infer_options o;
  std::string resume;  // --resume DRAWS
};

// --resume takes its model, data and options from the saved run; any other run keeps its
// words after `infer`, to be saved with its state.
int run_infer_command(CLI::App* cmd, infer_arguments& a, int argc, char** argv) {
  if (!a.resume.empty()) {
    // Everything else comes from the saved run.
    for (const CLI::Option* opt : cmd->get_options())
      if (opt->count() > 0 && opt->get_name() != "--resume" && opt->get_name() != "--quiet" && opt->get_name() != "--histograms" &&
          opt->get_name() != "--show" && opt->get_name() != "--help") {
        std::cerr << "error: --resume continues a run with its own model, data and options; " << opt->get_name()
                  << " cannot be given with it\n";
        return 2;
      }
    return resume_infer(a.resume, a.o);
  }
  if (a.in.model_path.empty()) {
    std::cerr << "error: infer needs a MODEL (or --resume DRAWS.csv)\nRun with --help for more information.\n";
    return 2;
  }
  char** word = std::find_if(argv + 1, argv + argc, [](const char* w) { return std::string_view(w) == "infer"; });
  a.o.args.assign(word + 1, argv + argc);
  return run_infer(a.in, a.o);
}

}  // namespace

int infer_loaded(loaded l, const model_inputs& in, const infer_options& given, draws::table* keep) {
  const infer_options o = coda_output(given);
  // Chains of a model without unknowns would record lp__ alone, a constant.
  if (!lang::ir::has_unknowns(*l.model))
    throw ppl::source_error({in.model_path, {}, "the model has no unknowns: every variable is data or computed from data, so there is "
                                                  "nothing to infer (`ppl simulate` draws observations from a model whose data are missing)", "", ""});
  // The weighted methods run in one process; under mpirun the others wait for its status.
  if (o.method != "mcmc") return process_rank() == 0 ? infer_weighted(std::move(l), in, o, keep) : 0;
  data::data_table init, heldout;
  model::start_options start = start_from(o.init, init);
  if (start.from_prior) refuse_improper_priors(*l.model, "`--init prior`");
  if (!o.heldout.empty()) heldout = data::read_data_file(o.heldout);
  check_show(*l.model, o);
  if (!o.output.empty())
    refuse_overwriting_inputs(o.output == given.output ? "--output" : "--output " + given.output + ": its file", run_outputs(o), {in.model_path, in.data_path, start.init ? o.init : "", o.heldout});
  inference::run_options ro = o.run;
  ro.dense_metric = o.metric == "dense";
  ro.monitors = o.monitor;
  ro.overrides = parse_overrides(o.samplers, "theta");
  ro.start = start;
  ro.heldout = o.heldout.empty() ? nullptr : &heldout;
  // A temporary draws file (no --output) is in ppl's layout, one file.
  const auto format = o.output.empty() ? draws::draws_format::ppl : format_of(o);
  ro.hamiltonian_columns = format == draws::draws_format::stan;
  // What is streamed: a CODA run's rows go to its ppl-layout file.
  const auto streamed = format == draws::draws_format::coda ? draws::draws_format::ppl : format;
  const bool shared = processes_share_chains(o.run.chains);
  const bool saving = !o.args.empty() && !o.output.empty() && !shared;
  if (shared && !o.output.empty() && process_rank() == 0)
    fmt::print(stderr, "note: the processes share one chain's LDA sweep and each holds only its own documents' topics, so the run's "
                       "state is not saved (no --resume)\n");
  // Under mpirun the chains are spread over the processes once all have read their inputs;
  // all but rank 0 run theirs and send on what they make (cli/cluster.hpp).
  ro.spread = keep ? nullptr : spread_chains(o.run.chains);
  if (ro.spread && !ro.spread->writes()) {
    std::vector<std::string> resume_from;
    if (o.resume) ro.resume = &(resume_from = o.resume->chains);
    ro.spread->forward_callbacks(ro, saving);
    ppl::install_interrupt_handlers();
    inference::run(*l.model, std::move(l.data), ro, nullptr);
    return 0;
  }
  if (format == draws::draws_format::coda) draws::remove_coda(draws::coda_stem(o.output));
  progress_display progress(o.run.chains, o.run.warmup, !o.quiet && isatty(STDERR_FILENO));
  if (!o.quiet)
    ro.heldout_report = [&](int c, long it, const std::string& what, double score) {
      progress.note(fmt::format("chain {} iteration {}: {} {:.6g}", c + 1, it, what, score));
    };
  if (!o.quiet && isatty(STDERR_FILENO))
    ro.progress = [&](int c, long done, long total, double lp) { progress.update(c, done, total, lp); };
  ppl::install_interrupt_handlers();
  // A run that names no draws file still streams its draws, to a temporary one the
  // summary is read from: memory does not grow with the number of draws.
  std::optional<temporary_file> temporary;
  if (o.output.empty()) temporary.emplace("ppl-draws-");
  const std::string output = o.output.empty() ? temporary->path() : o.output;
  std::unique_ptr<draws::draws_writer> writer;
  // The run's saved state (cli/resume.hpp): continued from --resume, or begun here.
  saved_run state;
  std::vector<std::string> resume_from;
  std::vector<std::vector<std::string>> resumed_notes;
  if (o.resume) {
    state = *o.resume;
    resumed_notes = cut_draws(o.output, state, streamed);
    resume_from = state.chains;
    ro.resume = &resume_from;
  } else if (saving) {
    state.args = o.args;
    state.directory = std::filesystem::current_path().string();
    state.model_hash = file_fingerprint(in.model_path);
    state.data_hash = file_fingerprint(in.data_path);
    state.warmup = o.run.warmup;
    state.thin = o.run.thin;
    state.completed.assign(static_cast<std::size_t>(o.run.chains), 0);
    state.chains.assign(static_cast<std::size_t>(o.run.chains), std::string());
  }
  std::mutex state_mutex;
  bool save_failed = false, saved_once = o.resume != nullptr;
  if (saving) {
    ro.checkpoint_seconds = o.checkpoint_every;
    ro.checkpoint = [&](int c, long done, std::string chain_state) {
      std::lock_guard<std::mutex> lock(state_mutex);
      state.completed[static_cast<std::size_t>(c)] = done;
      state.chains[static_cast<std::size_t>(c)] = std::move(chain_state);
      try {
        if (writer) writer->flush();  // the draws the state counts are on disk before it is
        write_saved_run(state_path(o.output), state);
        saved_once = true;
      } catch (const draws::write_error&) {
        // Reported where the chains stop; the state already saved still agrees with the file.
      } catch (const std::exception& e) {
        if (!save_failed) progress.note(fmt::format("warning: the run's state is not saved: {}", e.what()));
        save_failed = true;
      }
    };
  }
  inference::run_result r;
  try {
    r = inference::run(*l.model, std::move(l.data), ro, [&](const std::vector<std::string>& columns, const std::vector<inference::plan_line>& plan) {
      const auto paths = draws::draws_paths(output, streamed, o.run.chains);
      writer = std::make_unique<draws::draws_writer>(output, streamed, o.run.chains, draws_comments(in, o, plan, streamed, paths), columns,
                                                       o.resume != nullptr);
      for (std::size_t c = 0; c < resumed_notes.size(); ++c)
        for (const auto& note : resumed_notes[c]) writer->note(static_cast<int>(c) + 1, note);
      // ppl's layout says where a chain was resumed; Stan's has no comments among its rows.
      if (o.resume && streamed == draws::draws_format::ppl)
        for (std::size_t c = 0; c < state.completed.size(); ++c)
          writer->note(static_cast<int>(c) + 1, fmt::format("chain {} iteration {}: resumed", c + 1, state.completed[c]));
      return writer.get();
    });
    writer->close();
  } catch (const draws::write_error& e) {
    progress.finish();
    fmt::print(stderr, "error: {}\n", e.what());
    const long rows = writer ? writer->rows_written() : 0;
    if (rows > 0)
      fmt::print(stderr, "note: the {} rows of draws written before it are intact{}\n", rows,
                 saving && saved_once ? fmt::format("; once there is room, continue with: ppl infer --resume {}", o.output) : "");
    return 1;
  } catch (...) {
    progress.finish();
    throw;
  }
  progress.finish();
  if (!o.quiet)
    print_plan(r.plan, "# ", 24);
  if (r.interrupted) {
    std::string done;
    for (std::size_t c = 0; c < r.completed.size(); ++c) done += fmt::format("{}chain {}: {} iterations", c ? ", " : "", c + 1, r.completed[c]);
    fmt::print(stderr, "interrupted: {}; every finished draw is kept{}\n", done, o.output.empty() ? "" : " in " + o.output);
    if (format == draws::draws_format::coda) fmt::print(stderr, "note: the CODA files are written when the run is complete\n");
    if (saving && !save_failed) fmt::print(stderr, "continue with: ppl infer --resume {}\n", o.output);
  }
  const draws::draws_source draws(writer->paths());
  if (format == draws::draws_format::coda && !r.interrupted)
    if (const int status = write_coda_files(draws, o, saving); status != 0) return status;
  bool enough = draws.chains() > 0;
  for (std::size_t c = 0; c < draws.chains(); ++c) enough = enough && draws.rows(c) >= 4;
  if (enough) {
    summary_messages messages = print_summary(draws, {20, o.show, want_histograms(o.histograms)});
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
    for (const auto& w : messages.warnings) fmt::print(stderr, "warning: {}\n", w);
    if (ro.heldout)
      for (std::size_t c = 0; c < r.heldout_score.size(); ++c) fmt::print("# chain {} {}: {:.6g}\n", c + 1, r.heldout_what, r.heldout_score[c]);
  } else {
    fmt::print(stderr, "warning: too few draws for a summary (it needs at least 4 per chain)\n");
  }
  for (std::size_t c = 0; c < r.warmup_seconds.size(); ++c)
    fmt::print("# chain {} elapsed: warmup {:.3f} s, sampling {:.3f} s\n", c + 1, r.warmup_seconds[c], r.sampling_seconds[c]);
  if (keep) *keep = draws.read_all();
  return r.interrupted ? 130 : 0;
}

command add_infer_command(CLI::App& app, int argc, char** argv) {
  auto a = std::make_shared<infer_arguments>();
  auto* cmd = app.add_subcommand("infer", "sample the posterior: samplers chosen by structure, parallel chains, diagnostics");
  add_infer_arguments(cmd, a->in, a->o);
  cmd->add_option("--resume", a->resume,
                  "continue the interrupted run that wrote this draws file, from its saved state, with its own model, data and options "
                  "(only --quiet, --histograms and --show may be given with it; default: none)")->type_name("FILE");
  return {cmd, [cmd, a, argc, argv] { return run_infer_command(cmd, *a, argc, argv); }};
}

}  // namespace ppl::cli
