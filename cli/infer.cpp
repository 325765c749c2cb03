// `ppl infer`: its options, the run (chains, cli/infer_chains.cpp, or a weighted method,
// cli/infer_weighted.cpp), and --resume, which continues a saved run with the arguments
// it began with (cli/run_output.hpp, "saved runs").
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>

#include "cli/cluster.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"

namespace ppl::cli {

namespace {

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

int run_infer(const model_inputs& given, const infer_options& o) {
  model_inputs in = given;
  in.quiet = o.quiet;
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
    o.quiet = in.quiet = current.quiet;
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
  const std::string output_option = o.output == given.output ? "--output" : "--output " + given.output + ": its file";
  return infer_chains(std::move(l), in, o, output_option, keep);
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
