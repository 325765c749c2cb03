// `ppl summary DRAWS...`: the summary table of `ppl infer` recomputed from a draws file of
// any layout (cli/summary_table.hpp), as a table or as CSV.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "draws/reader.hpp"

namespace ppl::cli {

namespace {

struct summary_arguments {
  std::vector<std::string> paths;  // a draws file of any layout, or several (a Stan run's one file per chain)
  std::vector<std::string> show;
  std::vector<std::string> variables;
  std::vector<double> percentiles;
  bool histograms = false;
  std::string format = "table";
};

int run_summary(const summary_arguments& a) {
  const bool csv = a.format == "csv";
  return guarded([&] {
    const draws::draws_source d(a.paths);
    if (!csv)
      for (const auto& m : d.metadata()) fmt::print("# {}\n", m);
    for (const auto& n : d.notes()) fmt::print(stderr, "note: {}\n", n);
    table_options o;
    o.show = a.show;
    o.histograms = !csv && want_histograms(a.histograms);
    o.csv = csv;
    o.variables = a.variables;
    for (double p : a.percentiles) o.quantiles.push_back(p / 100);
    const summary_messages messages = print_summary(d, o);
    // A table's notes belong to it; a CSV for programs keeps them out of its rows.
    for (const auto& n : messages.notes) fmt::print(csv ? stderr : stdout, "note: {}\n", n);
    if (!csv) print_dic(d, nullptr);
    print_warnings(messages.warnings);
    return 0;
  });
}

}  // namespace

command add_summary_command(CLI::App& app) {
  auto a = std::make_shared<summary_arguments>();
  auto* cmd = app.add_subcommand("summary", "recompute the summary table from a draws file");
  cmd->add_option("DRAWS", a->paths,
                  "draws file(s): written by ppl infer (any format; FILE.csv stands for a Stan run's FILE_1.csv, FILE_2.csv, ..., "
                  "STEMindex.txt or STEM for a CODA run's STEMchain1.txt, ...), ppl simulate, CmdStan or JAGS")
      ->required();
  cmd->add_option("--show", a->show, "list every element of these arrays (default: arrays over 20 elements show 3)")->delimiter(',');
  cmd->add_option("--variables", a->variables, "summarise only these variables (default: all; Stan's --variables, rstan's pars)")
      ->delimiter(',');
  cmd->add_option("--percentiles", a->percentiles,
                  "the quantiles listed, in percent (default: 5,50,95; CmdStan's --percentiles, rstan's probs): --percentiles 2.5,50,97.5")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_flag("--histograms", a->histograms, "a text histogram of each scalar (default: on a terminal)");
  cmd->add_option("--format", a->format,
                  "table (for people; the default) or csv (for programs: every element of every array, full precision, NA for n/a)")
      ->check(CLI::IsMember({"table", "csv"}));
  return {cmd, [a] { return run_summary(*a); }};
}

}  // namespace ppl::cli
