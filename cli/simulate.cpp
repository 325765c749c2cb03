// `ppl simulate`: ancestral draws of every unknown and (as a prior predictive) every
// observed variable, written as CSV.

#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "core/source_error.hpp"
#include "draws/writer.hpp"
#include "model/graph.hpp"

namespace ppl::cli {

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

}  // namespace ppl::cli
