// `ppl`: the command line. Option parsing is CLI11's; each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "runtime/version.hpp"

namespace {

void add_model_inputs(CLI::App* cmd, ppl::cli::model_inputs& in) {
  cmd->add_option("MODEL", in.model_path, "the model (.ppl)")->required()->check(CLI::ExistingFile);
  cmd->add_option("DATA", in.data_path, "data: CSV (header row) or JSON (Stan's format)")->check(CLI::ExistingFile);
  cmd->add_option("--set", in.sets, "set a data value: --set K=50 (repeatable; overrides the data file)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ppl: a probabilistic programming language"};
  app.set_version_flag("--version", ppl::runtime::version());
  app.require_subcommand(1);

  ppl::cli::model_inputs check_in;
  auto* check = app.add_subcommand("check", "parse and check a model; with data, build its graph and describe it");
  add_model_inputs(check, check_in);

  ppl::cli::model_inputs sim_in;
  ppl::cli::simulate_options sim;
  auto* simulate = app.add_subcommand("simulate", "draw every unknown and observation from the prior (ancestral sampling)");
  add_model_inputs(simulate, sim_in);
  simulate->add_option("--draws", sim.draws, "number of draws")->capture_default_str()->check(CLI::Range(1L, 100000000L));
  simulate->add_option("--seed", sim.seed, "random seed")->capture_default_str();
  simulate->add_option("--output,-o", sim.output, "CSV file to write (default: standard output)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (check->parsed()) return ppl::cli::run_check(check_in);
  if (simulate->parsed()) return ppl::cli::run_simulate(sim_in, sim);
  return 2;
}
