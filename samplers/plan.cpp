// The priority list of factories and the assignment of a sampler to every unknown.
#include <stdexcept>

#include "lang/diagnostics.hpp"
#include "samplers/factories.hpp"

namespace ppl::samplers {

const std::vector<std::unique_ptr<factory>>& factories() {
  static const std::vector<std::unique_ptr<factory>> all = [] {
    std::vector<std::unique_ptr<factory>> f;
    f.push_back(make_ancestral_factory());
    f.push_back(make_collapsed_factory());
    f.push_back(make_conjugate_factory());
    f.push_back(make_cluster_factory());
    f.push_back(make_gibbs_factory());
    f.push_back(make_nuts_factory());
    f.push_back(make_slice_factory());
    f.push_back(make_rwmh_factory());
    f.push_back(make_hmc_factory());  // claims what nuts does: only chosen with --sampler
    return f;
  }();
  return all;
}

const factory* find_factory(std::string_view kind) {
  for (const auto& f : factories())
    if (f->kind() == kind) return f.get();
  return nullptr;
}

std::vector<assignment> plan(runtime::graph& g, const std::map<std::string, std::string>& overrides) {
  const auto& m = g.model();
  for (const auto& [name, kind] : overrides) {
    int v = m.find(name);
    if (v < 0 || m.variables[static_cast<std::size_t>(v)].role != lang::ir::role::unknown)
      throw std::invalid_argument("--sampler " + name + "=" + kind + ": `" + name + "` is not an unknown of the model");
    if (!find_factory(kind)) {
      std::string kinds;
      for (const auto& f : factories()) kinds += (kinds.empty() ? "" : ", ") + std::string(f->kind());
      throw std::invalid_argument("--sampler " + name + "=" + kind + ": unknown sampler kind (kinds: " + kinds + ")");
    }
  }
  std::vector<assignment> out;
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    const auto& var = m.variables[v];
    if (var.role != lang::ir::role::unknown) continue;
    auto forced = overrides.find(var.name);
    if (forced != overrides.end()) {
      const factory* f = find_factory(forced->second);
      claim c = f->can_sample(g, static_cast<int>(v));
      if (!c.ok) throw std::invalid_argument("--sampler " + var.name + "=" + forced->second + ": cannot: " + c.reason);
      out.push_back({static_cast<int>(v), f, c.reason + " (chosen with --sampler)"});
      continue;
    }
    std::string reasons;
    for (const auto& f : factories()) {
      claim c = f->can_sample(g, static_cast<int>(v));
      if (c.ok) {
        out.push_back({static_cast<int>(v), f.get(), c.reason});
        break;
      }
      reasons += "; " + std::string(f->kind()) + ": " + c.reason;
    }
    if (out.empty() || out.back().variable != static_cast<int>(v))
      lang::fail_at(m.source, var.pos, "no sampler can update `" + var.name + "`" + reasons);
  }
  return out;
}

}  // namespace ppl::samplers
