#include "cli/repl_query.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "cli/repl_input.hpp"
#include "lang/checker.hpp"
#include "draws/diagnostics.hpp"
#include "model/graph.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli::repl {

namespace {

const char* value_name = "ppl_repl_value";

}  // namespace

query parse_query(const std::string& line) {
  query q;
  q.line = line;
  std::vector<std::string> args;
  if (!summary_call(line, q.fn, args)) q.fn = "summary", args = {line};
  if ((q.fn == "quantile") != (args.size() == 2))
    throw std::invalid_argument(q.fn == "quantile" ? "quantile(E, p) takes an expression and a probability" : q.fn + "(E) takes one expression");
  q.expression = args[0];
  if (q.fn == "quantile") {
    char* end = nullptr;
    q.p = std::strtod(args[1].c_str(), &end);
    if (*end != '\0' || !(q.p >= 0 && q.p <= 1)) throw std::invalid_argument("quantile: the probability must be a number in [0, 1], got " + args[1]);
  }
  return q;
}

namespace {

// The model with `ppl_repl_value = E` added. An error inside E points into the line typed.
std::unique_ptr<lang::ir::model> compile_query(const std::string& model_text, const std::string& expression, const std::string& line) {
  const std::string prefix = model_text + value_name + " =\n";
  try {
    return std::make_unique<lang::ir::model>(lang::compile({"<input>", prefix + expression + "\n"}, stdlib::library()));
  } catch (const ppl::source_error& e) {
    const auto& diag = e.diag();
    const std::size_t prefix_lines = static_cast<std::size_t>(std::count(prefix.begin(), prefix.end(), '\n'));
    if (diag.where.line <= prefix_lines) throw;
    const std::size_t at = line.find(expression);
    const ppl::source_file input{"<input>", line};
    throw ppl::source_error(ppl::make_diagnostic(input, (at == std::string::npos ? 0 : at) + diag.where.column - 1, diag.message));
  }
}

// The variables `target` is computed from, through derived variables.
std::vector<char> inputs_of(const lang::ir::model& m, int target) {
  std::vector<char> needed(m.variables.size(), 0);
  needed[static_cast<std::size_t>(target)] = 1;
  for (auto it = m.statements.rbegin(); it != m.statements.rend(); ++it)
    if (it->which == lang::ir::statement::kind::assign && needed[static_cast<std::size_t>(it->target)])
      for (int r : lang::ir::statement_reads(*it)) needed[static_cast<std::size_t>(r)] = 1;
  return needed;
}

// For each unknown, the draws' columns of its elements; empty for a variable that is no
// unknown or that the draws lack (an error when `target` needs it).
std::vector<std::vector<int>> draw_columns(const lang::ir::model& m, const model::graph& g, const draws::table& d, int target) {
  std::vector<std::vector<int>> where(m.variables.size());
  const auto needed = inputs_of(m, target);
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != lang::ir::role::unknown) continue;
    const auto& t = g.value(static_cast<int>(v));
    for (ppl::index_t i : g.recorded_elements(static_cast<int>(v))) {
      const std::string column = draws::element_column(m.variables[v].name, t.shape, i);
      const auto it = std::find(d.columns.begin(), d.columns.end(), column);
      if (it == d.columns.end()) {
        if (needed[v]) throw std::invalid_argument("`" + m.variables[v].name + "` is not in the draws; sample with --monitor " + m.variables[v].name);
        where[v].clear();
        break;
      }
      where[v].push_back(static_cast<int>(it - d.columns.begin()));
    }
  }
  return where;
}

// E at every draw: element, chain, draw.
std::vector<std::vector<std::vector<double>>> values_per_draw(model::graph& g, int target, const std::vector<std::vector<int>>& where,
                                                              const draws::table& d) {
  const auto size = static_cast<std::size_t>(g.value(target).size());
  std::vector<std::vector<std::vector<double>>> values(size, std::vector<std::vector<double>>(d.chains.size()));
  const std::size_t width = d.columns.size();
  std::vector<std::vector<ppl::index_t>> elements(where.size());  // the element each column of `where` holds
  for (std::size_t v = 0; v < where.size(); ++v)
    if (!where[v].empty()) elements[v] = g.recorded_elements(static_cast<int>(v));
  for (std::size_t c = 0; c < d.chains.size(); ++c)
    for (ppl::index_t r = 0; r < d.rows(c); ++r) {
      const double* row = d.chains[c].data() + static_cast<std::size_t>(r) * width;
      for (std::size_t v = 0; v < where.size(); ++v)
        for (std::size_t i = 0; i < where[v].size(); ++i) g.values()[v].data[static_cast<std::size_t>(elements[v][i])] = row[where[v][i]];
      g.update_derived();
      const auto& out = g.value(target).data;
      for (std::size_t i = 0; i < size; ++i) values[i][c].push_back(out[i]);
    }
  return values;
}

// The answer for one element of E, from its draws per chain.
std::string answer(const query& q, const std::vector<std::vector<double>>& chains) {
  if (q.fn == "summary") {
    const auto s = draws::summarize(chains);
    return fmt::format("mean {:.6g}, sd {:.4g}, 5% {:.4g}, 50% {:.4g}, 95% {:.4g} (mcse {:.2g}, ess {:.0f})", s.mean, s.sd, s.q5, s.q50,
                       s.q95, s.mcse_mean, s.ess_bulk);
  }
  std::vector<double> pooled;
  for (const auto& chain : chains) pooled.insert(pooled.end(), chain.begin(), chain.end());
  const auto n = static_cast<double>(pooled.size());
  if (q.fn == "mean" || q.fn == "sd") {
    double sum = 0, sq = 0;
    for (double x : pooled) sum += x;
    const double mean = sum / n;
    for (double x : pooled) sq += (x - mean) * (x - mean);
    return fmt::format("{:.6g}", q.fn == "mean" ? mean : std::sqrt(sq / (n - 1)));
  }
  // NaN last (with < alone it is no ordering, and std::sort may run past the ends).
  std::sort(pooled.begin(), pooled.end(), [](double a, double b) { return a < b || (!std::isnan(a) && std::isnan(b)); });
  const double p = q.fn == "median" ? 0.5 : q.p;
  return fmt::format("{:.6g}", pooled[static_cast<std::size_t>(std::lround(p * (n - 1)))]);
}

}  // namespace

void print_query(const query& q, const std::string& model_text, const data::data_table& data, const draws::table& d) {
  const auto m = compile_query(model_text, q.expression, q.line);
  const int target = m->find(value_name);
  ppl::rng rng(1);
  model::graph g(*m, data, rng);
  const auto where = draw_columns(*m, g, d, target);
  const auto values = values_per_draw(g, target, where, d);
  const auto& shape = g.value(target).shape;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string text = answer(q, values[i]);
    if (values.size() == 1) fmt::print("{}\n", text);
    else fmt::print("{} {}\n", draws::element_column("", shape, static_cast<ppl::index_t>(i)), text);
  }
}

}  // namespace ppl::cli::repl
