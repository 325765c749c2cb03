// `ppl simulate`: ancestral draws of every unknown and (as a prior predictive) every
// observed variable, written as CSV.
#include <fmt/core.h>
#include <fmt/os.h>

#include <cerrno>
#include <cstring>

#include "cli/session.hpp"
#include "lang/diagnostics.hpp"
#include "runtime/graph.hpp"

namespace ppl::cli {

namespace {

// "theta[2,3]" for element `flat` of a shape.
std::string column_name(const std::string& name, const runtime::shape& s, runtime::index_t flat) {
  if (s.rank == 0) return name;
  std::string out = name + "[";
  for (int d = 0; d < s.rank; ++d) {
    runtime::index_t stride = s.stride(d);
    out += (d ? "," : "") + std::to_string(flat / stride + 1);
    flat %= stride;
  }
  return out + "]";
}

}  // namespace

int run_simulate(const model_inputs& in, const simulate_options& opt) {
  return guarded([&] {
    loaded l = load(in);
    const auto& m = *l.model;
    for (const auto& s : m.statements)
      if (s.which == lang::ir::statement::kind::factor)
        lang::fail_at(m.source, s.pos, "this model has `factor` terms, so it cannot be simulated forward; use `ppl infer`");
    runtime::rng rng(opt.seed);
    runtime::graph g(m, l.data, rng, {.allow_missing_observations = true});
    std::vector<int> columns;
    for (std::size_t v = 0; v < m.variables.size(); ++v) {
      auto role = m.variables[v].role;
      if (role == lang::ir::role::unknown || role == lang::ir::role::derived || g.simulated(static_cast<int>(v)))
        columns.push_back(static_cast<int>(v));
    }
    std::FILE* out = opt.output.empty() ? stdout : std::fopen(opt.output.c_str(), "w");
    if (!out) throw std::invalid_argument("cannot write " + opt.output + ": " + std::strerror(errno));
    fmt::memory_buffer buf;
    fmt::format_to(std::back_inserter(buf), "draw");
    for (int v : columns)
      for (runtime::index_t i = 0; i < g.value(v).size(); ++i)
        fmt::format_to(std::back_inserter(buf), ",{}", column_name(m.variables[static_cast<std::size_t>(v)].name, g.value(v).shape, i));
    buf.push_back('\n');
    for (long d = 1; d <= opt.draws; ++d) {
      g.draw_prior(rng);
      fmt::format_to(std::back_inserter(buf), "{}", d);
      for (int v : columns)
        for (double x : g.value(v).data) fmt::format_to(std::back_inserter(buf), ",{:.9g}", x);
      buf.push_back('\n');
      std::fwrite(buf.data(), 1, buf.size(), out);
      buf.clear();
    }
    if (out != stdout) std::fclose(out);
    return 0;
  });
}

}  // namespace ppl::cli
