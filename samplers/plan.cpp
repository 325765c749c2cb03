// The priority list of factories and the assignment of a sampler to every unknown.
#include <algorithm>
#include <stdexcept>

#include "core/source_error.hpp"
#include "samplers/collapsed.hpp"
#include "samplers/factories.hpp"

namespace ppl::samplers {

namespace {
constexpr const char* collapsed_broken = "it takes z, theta and phi together, and --sampler gave one of them another kind";
}

const std::vector<std::unique_ptr<factory>>& factories() {
  static const std::vector<std::unique_ptr<factory>> all = [] {
    std::vector<std::unique_ptr<factory>> f;
    f.push_back(make_ancestral_factory());
    f.push_back(make_sum_move_factory());  // before all others: single-site updates cannot leave an observed sum's set
    f.push_back(make_collapsed_factory());
    f.push_back(make_conjugate_factory());
    f.push_back(make_cluster_factory());
    f.push_back(make_gibbs_factory());
    f.push_back(make_nuts_factory());
    f.push_back(make_slice_factory());
    f.push_back(make_rwmh_factory());
    f.push_back(make_hmc_factory());  // claims what nuts does: only chosen with --sampler
    f.push_back(make_gaussian_block_factory());  // chosen for sets (plan_efficiency.cpp) or with --sampler
    return f;
  }();
  return all;
}

const factory* find_factory(std::string_view kind) {
  for (const auto& f : factories())
    if (f->kind() == kind) return f.get();
  return nullptr;
}

std::vector<assignment> plan(model::graph& g, const std::map<std::string, std::string>& overrides) {
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
  // The first kind that claims v, `collapsed` left out when `without_collapsed`.
  auto choose = [&](int v, bool without_collapsed) {
    const auto& var = m.variables[static_cast<std::size_t>(v)];
    std::string reasons;
    for (const auto& f : factories()) {
      if (without_collapsed && f->kind() == "collapsed") {
        reasons += "; collapsed: " + std::string(collapsed_broken);
        continue;
      }
      claim c = f->can_sample(g, v);
      if (c.ok) return assignment{v, f.get(), c.reason};
      reasons += "; " + std::string(f->kind()) + ": " + c.reason;
    }
    ppl::fail_at(m.source, var.pos, "no sampler can update `" + var.name + "`" + reasons);
  };
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    const auto& var = m.variables[v];
    if (var.role != lang::ir::role::unknown) continue;
    auto forced = overrides.find(var.name);
    if (forced != overrides.end()) {
      const factory* f = find_factory(forced->second);
      // A prediction's terms are left out of everything else's updates (graph::predictive):
      // only its exact draw after them keeps the joint.
      const bool prediction = std::any_of(var.statements.begin(), var.statements.end(), [&](int si) { return g.predictive(si); });
      if (prediction && f->kind() != "ancestral")
        throw std::invalid_argument("--sampler " + var.name + "=" + forced->second + ": cannot: `" + var.name +
                                    "` is a prediction (no observation or factor depends on it, and it depends on unknowns "
                                    "that the data inform); it is drawn exactly from its distribution after the others");
      claim c = f->can_sample(g, static_cast<int>(v));
      if (!c.ok) throw std::invalid_argument("--sampler " + var.name + "=" + forced->second + ": cannot: " + c.reason);
      out.push_back({static_cast<int>(v), f, c.reason + " (chosen with --sampler)", true});
      continue;
    }
    out.push_back(choose(static_cast<int>(v), false));
  }
  // `collapsed` is one sampler for z, theta and phi together (z's draws integrate the
  // others out; they only report means): it holds only when every member has it. When
  // --sampler gives a member another kind, the rest fall back to theirs.
  auto kind_of = [&](int v) -> std::string_view {
    for (const auto& a : out)
      if (a.variable == v) return a.chosen->kind();
    return {};
  };
  for (auto& a : out) {
    if (a.chosen->kind() != "collapsed") continue;
    std::string ignored;
    const auto s = find_collapsed(m, a.variable, ignored);
    std::vector<int> members{s->z, s->theta};
    if (s->phi >= 0) members.push_back(s->phi);
    for (int other : members) {
      if (kind_of(other) == "collapsed") continue;
      const auto& name = m.variables[static_cast<std::size_t>(a.variable)].name;
      if (overrides.count(name))
        throw std::invalid_argument("--sampler " + name + "=collapsed: cannot: `" + m.variables[static_cast<std::size_t>(other)].name +
                                    "` is sampled by " + std::string(kind_of(other)) + ", and collapsed takes z, theta and phi together");
      a = choose(a.variable, true);
      break;
    }
  }
  choose_by_efficiency(g, overrides, out);
  return out;
}

}  // namespace ppl::samplers
