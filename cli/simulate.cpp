// `ppl simulate`: ancestral draws of every unknown and (as a prior predictive) every
// observed variable, written as CSV.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "core/source_error.hpp"
#include "draws/writer.hpp"
#include "model/graph.hpp"

namespace ppl::cli {

namespace {

struct simulate_options {
  long draws = 100;
  std::uint64_t seed = 1;
  std::string output;  // empty: stdout
};

int run_simulate(const model_inputs& in, const simulate_options& opt) {
  return guarded([&] {
    loaded l = load(in);
    const auto& m = *l.model;
    for (const auto& s : m.statements)
      if (s.which == lang::ir::statement::kind::factor)
        ppl::fail_at(m.source, s.pos, "this model has `factor` terms, so it cannot be simulated forward; use `ppl infer`");
    refuse_improper_priors(m, "`ppl simulate`");
    refuse_overwriting_inputs("--output", {opt.output}, {in.model_path, in.data_path});
    ppl::rng rng(opt.seed);
    model::graph_options forward;  // observations simulated, unknowns drawn from their priors
    forward.allow_missing_observations = true;
    forward.start.from_prior = true;
    model::graph g(m, l.data, rng, forward);
    std::vector<int> columns;
    for (std::size_t v = 0; v < m.variables.size(); ++v) {
      auto role = m.variables[v].role;
      if (role == lang::ir::role::unknown || role == lang::ir::role::derived || g.simulated(static_cast<int>(v)))
        columns.push_back(static_cast<int>(v));
    }
    std::vector<std::string> names;
    for (int v : columns)
      for (ppl::index_t i : g.recorded_elements(v))
        names.push_back(draws::element_column(m.variables[static_cast<std::size_t>(v)].name, g.value(v).shape, i));
    // Written as `ppl infer` writes its draws, a failed write an error that names the file.
    draws::draws_writer out(opt.output.empty() ? "-" : opt.output, draws::draws_format::plain, 1, {}, names);
    std::vector<double> row;
    for (long d = 1; d <= opt.draws; ++d) {
      g.draw_prior(rng);
      row.clear();
      for (int v : columns) g.append_recorded(v, row);
      out.write(1, d, row.data());
    }
    out.close();
    return 0;
  });
}

struct simulate_arguments {
  model_inputs in;
  simulate_options o;
};

}  // namespace

command add_simulate_command(CLI::App& app) {
  auto a = std::make_shared<simulate_arguments>();
  auto* cmd = app.add_subcommand("simulate", "draw every unknown and observation from the prior (ancestral sampling)");
  add_model_inputs(cmd, a->in);
  cmd->add_option("--draws", a->o.draws, "number of draws")->capture_default_str()->check(whole(1, 100000000));
  cmd->add_option("--seed", a->o.seed, "random seed")->capture_default_str()->check(seed());
  cmd->add_option("--output,-o", a->o.output, "CSV file to write (default: standard output)")->type_name("FILE");
  return {cmd, [a] { return run_simulate(a->in, a->o); }};
}

}  // namespace ppl::cli
