// `ppl`: the command line. Option parsing is CLI11's; each subcommand lives in its own file
// (cli/commands.hpp), which adds its options and says how it runs. This file builds the
// App, parses, and runs the command parsed.
#include <CLI/CLI.hpp>
#include <malloc.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli/cluster.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "core/version.hpp"

namespace ppl::cli {

namespace {

// In the order --help lists them.
std::vector<command> add_commands(CLI::App& app, int argc, char** argv) {
  return {add_check_command(app),   add_translate_command(app), add_simulate_command(app), add_infer_command(app, argc, argv),
          add_plan_command(app),    add_summary_command(app),   add_loo_command(app),      add_topics_command(app),
          add_heatmap_command(app), add_repl_command(app),      add_plot_command(app),     add_diagnose_command(app),
          add_compare_command(app), add_sbc_command(app),       add_convert_command(app),  add_man_command(app),
          add_completion_command(app)};
}

int run_ppl(int argc, char** argv) {
  CLI::App app{"ppl: a probabilistic programming language"};
  app.set_version_flag("--version", ppl::version());
  app.require_subcommand(1);
  app.failure_message(usage_failure);
  const std::vector<command> commands = add_commands(app, argc, argv);

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
  for (const command& c : commands)
    if (c.app->parsed()) return c.run();
  return 2;
}

}  // namespace

}  // namespace ppl::cli

// Under mpirun, every process of the job runs this (cli/cluster.hpp).
int main(int argc, char** argv) {
  // Blocks of a megabyte or more (a plate's tables, a data column) are mapped on their own,
  // so that memory freed once the graph is built goes back to the system: glibc's moving
  // threshold otherwise serves them from the heap, where the gaps they leave stay in use
  // (BPMF at a million ratings: a peak of 117 MB, 81 MB with this).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  return ppl::cli::run_in_group(argc, argv, [&] { return ppl::cli::run_ppl(argc, argv); });
}
