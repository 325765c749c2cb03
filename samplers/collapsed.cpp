// `collapsed`: collapsed Gibbs sampling of categorical unknowns with their Dirichlet
// parents integrated out (see collapsed.hpp). theta (and phi), when monitored, are written
// at each kept iteration as a draw from their conditional given z, Dirichlet(c + alpha)
// row by row, so that their recorded spread is the posterior's; with `--collapsed means`
// as the Rao–Blackwellised means (c + alpha) / (c. + sum alpha) instead. LDA with the
// same prior on every document and topic goes to the engine of lda.hpp
// (collapsed_lda.cpp); other shapes (theta alone, priors that differ by row) to the
// general sampler (collapsed_generic.cpp). This file finds the structure and makes them.
#include "samplers/collapsed.hpp"

#include <algorithm>
#include <stdexcept>

#include "samplers/collapsed_parts.hpp"
#include "samplers/factories.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::expr;
using lang::ir::statement;

namespace {

bool only_reader(const lang::ir::model& m, int variable, int statement) {
  auto readers = reading_statements(m, variable);
  return readers.size() == 1 && readers[0] == statement;
}

// phi[z[...]] observed by a Categorical: phi's variable, or -1.
int collapsible_phi(const lang::ir::model& m, int z, int child) {
  const statement& c = m.statements[static_cast<std::size_t>(child)];
  if (c.which != statement::kind::sample || c.dist_name != "Categorical") return -1;
  if (m.variables[static_cast<std::size_t>(c.target)].role != lang::ir::role::data) return -1;
  const expr& a = *c.args[0];
  if (a.which != expr::kind::index || a.args[0]->which != expr::kind::variable || a.indices.size() != 1) return -1;
  const auto& ix = a.indices[0];
  if (ix.which != lang::ir::index_item::kind::single || direct_variable(*ix.lo) != z) return -1;
  int phi = a.args[0]->slot;
  if (prior_name(m, phi) != "Dirichlet" || !only_reader(m, phi, child)) return -1;
  return phi;
}

std::optional<collapsed_structure> from_z(const lang::ir::model& m, int z, std::string& reason) {
  const auto& var = m.variables[static_cast<std::size_t>(z)];
  if (var.role != lang::ir::role::unknown || var.statements.size() != 1) return std::nullopt;
  const statement& s = m.statements[static_cast<std::size_t>(var.statements[0])];
  if (s.which != statement::kind::sample || s.dist_name != "Categorical") return std::nullopt;
  int theta = direct_variable(*s.args[0]);
  if (theta < 0 || prior_name(m, theta) != "Dirichlet") {
    reason = "its probabilities are not a Dirichlet unknown";
    return std::nullopt;
  }
  if (!only_reader(m, theta, var.statements[0])) {
    reason = "`" + m.variables[static_cast<std::size_t>(theta)].name + "` has other children";
    return std::nullopt;
  }
  collapsed_structure out{z, theta, -1, var.statements[0], -1};
  auto children = reading_statements(m, z);
  if (children.size() == 1) {
    out.phi = collapsible_phi(m, z, children[0]);
    if (out.phi >= 0) out.child_statement = children[0];
  }
  return out;
}

}  // namespace

std::optional<collapsed_structure> find_collapsed(const lang::ir::model& m, int variable, std::string& reason) {
  reason = "not a categorical with a Dirichlet parent read by nothing else";
  if (auto s = from_z(m, variable, reason)) return s;
  // theta or phi: the one statement that reads it leads to z.
  auto readers = reading_statements(m, variable);
  if (readers.size() != 1) return std::nullopt;
  const statement& r = m.statements[static_cast<std::size_t>(readers[0])];
  if (r.which != statement::kind::sample || r.dist_name != "Categorical") return std::nullopt;
  std::string ignored;
  if (auto s = from_z(m, r.target, ignored); s && s->theta == variable) return s;
  const expr& a = *r.args[0];
  if (a.which == expr::kind::index && a.indices.size() == 1 && a.indices[0].which == lang::ir::index_item::kind::single) {
    int z = direct_variable(*a.indices[0].lo);
    if (z >= 0)
      if (auto s = from_z(m, z, ignored); s && s->phi == variable) return s;
  }
  return std::nullopt;
}

std::string collapsed_recording(const std::string& name, collapsed_record record) {
  return record == collapsed_record::draws ? "recorded: draws from its conditional given z, Dirichlet(counts + prior)"
                                           : "recorded: Rao-Blackwellised means E[" + name + " | z] (--collapsed means)";
}

token_index index_tokens(model::graph& g, const collapsed_structure& s, ppl::index_t theta_width) {
  const auto& m = g.model();
  token_index t;
  const statement& zs = m.statements[static_cast<std::size_t>(s.z_statement)];
  const double* theta_base = g.value(s.theta).data.data();
  const std::size_t z_size = g.value(s.z).data.size();
  if (z_size >= 0xffffffffu) throw std::invalid_argument("collapsed: z has more than 2^32 - 1 elements");
  t.row.reserve(z_size);
  model::instances(g).visit(zs, [&](const ppl::index_t* l) {
    const auto offset = static_cast<std::uint32_t>(model::instances(g).target(zs, l).first);
    const std::size_t n = t.row.size();
    if (t.element.empty() && offset != n) {  // not z's own order: keep every element from here on
      t.element.resize(n);
      for (std::size_t i = 0; i < n; ++i) t.element[i] = static_cast<std::uint32_t>(i);
    }
    if (!t.element.empty()) t.element.push_back(offset);
    t.row.push_back(static_cast<std::uint32_t>((model::instances(g).args_at(zs, l)[0].data - theta_base) / theta_width));
  });
  if (s.phi < 0) return t;
  // The child w[...] ~ Categorical(phi[z[...]]): which token each instance observes.
  std::vector<std::uint32_t> position;
  if (!t.element.empty()) {
    position.assign(z_size, 0);
    for (std::size_t n = 0; n < t.element.size(); ++n) position[t.element[n]] = static_cast<std::uint32_t>(n);
  }
  const statement& c = m.statements[static_cast<std::size_t>(s.child_statement)];
  const double* z_base = g.value(s.z).data.data();
  const auto& words = g.value(c.target).data;
  t.word.assign(t.row.size(), 0);
  model::instances(g).visit(c, [&](const ppl::index_t* l) {
    const auto at = static_cast<std::size_t>(model::instances(g).eval_at(c, l, *c.args[0]->indices[0].lo).data - z_base);
    const std::size_t n = position.empty() ? at : position[at];
    t.word[n] = static_cast<std::uint32_t>(words[static_cast<std::size_t>(model::instances(g).target(c, l).first)]) - 1;
  });
  return t;
}

// lp__ replaces the terms of theta, z (and phi, w) with the collapsed marginal.
void mark_collapsed(const lang::ir::model& m, const collapsed_structure& s, std::vector<char>& skip) {
  skip.resize(m.statements.size(), 0);
  for (int v : {s.theta, s.z, s.phi})
    if (v >= 0)
      for (int si : m.variables[static_cast<std::size_t>(v)].statements) skip[static_cast<std::size_t>(si)] = 1;
  if (s.phi >= 0) skip[static_cast<std::size_t>(s.child_statement)] = 1;
}

// The concentrations of a Dirichlet prior when every row has the same (LDA's symmetric or
// per-topic alpha, and eta); nothing otherwise.
std::optional<std::vector<double>> shared_concentrations(model::graph& g, int variable) {
  std::optional<std::vector<double>> row;
  bool same = true;
  for (int si : g.model().variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g.model().statements[static_cast<std::size_t>(si)];
    model::instances(g).visit(s, [&](const ppl::index_t* l) {
      const ppl::view& a = model::instances(g).args_at(s, l)[0];
      if (!row) row.emplace(a.begin(), a.end());
      else same = same && std::equal(a.begin(), a.end(), row->begin(), row->end());
    });
  }
  if (!same) row.reset();
  return row;
}

std::optional<lda_model> find_lda(model::graph& g, std::string& reason) {
  const auto& m = g.model();
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != lang::ir::role::unknown) continue;
    std::string why;
    auto s = find_collapsed(m, static_cast<int>(v), why);
    if (!s || s->z != static_cast<int>(v)) continue;
    if (s->phi < 0) {
      reason = "`" + m.variables[v].name + "` is categorical with a Dirichlet theta, but its child is not a categorical observation of a "
               "Dirichlet phi chosen by it (LDA's word[n] ~ Categorical(phi[z[n]]))";
      return std::nullopt;
    }
    auto alpha = shared_concentrations(g, s->theta), eta = shared_concentrations(g, s->phi);
    if (!alpha || !eta) {
      reason = "the rows of `" + m.variables[static_cast<std::size_t>(alpha ? s->phi : s->theta)].name +
               "` have different Dirichlet concentrations";
      return std::nullopt;
    }
    return lda_model{*s, lda_corpus(g, *s, std::move(*alpha), std::move(*eta))};
  }
  reason = "no unknown z[n] ~ Categorical(theta[doc[n]]) with a Dirichlet theta and an observed word[n] ~ Categorical(phi[z[n]]) "
           "with a Dirichlet phi";
  return std::nullopt;
}

namespace {

// theta and phi: integrated out; their values are written by z's sampler when recorded.
class integrated_out final : public sampler {
 public:
  void step(ppl::rng&, bool) override {}
  bool values_rewritten() const override { return true; }
};

class collapsed_factory final : public factory {
 public:
  std::string_view kind() const override { return "collapsed"; }
  claim can_sample(model::graph& g, int v) const override {
    std::string reason;
    auto s = find_collapsed(g.model(), v, reason);
    if (!s) return {false, reason};
    const auto& m = g.model();
    auto name = [&](int x) { return m.variables[static_cast<std::size_t>(x)].name; };
    if (v == s->z) {
      std::string how = "categorical; " + name(s->theta) + (s->phi >= 0 ? " and " + name(s->phi) : "") +
                        " integrated out, drawn from counts";
      if (s->phi >= 0 && shared_concentrations(g, s->theta) && shared_concentrations(g, s->phi)) {
        const auto& theta = g.value(s->theta);
        const auto topics = static_cast<std::uint32_t>(theta.shape[theta.shape.rank - 1]);
        how += sparse_kernel(topics)
                   ? " (sparse kernel: " + std::to_string(topics) + " topics >= " + std::to_string(lda::sparse_from_topics) + ")"
               : topics > sparse_up_to_topics
                   ? " (dense kernel: " + std::to_string(topics) + " topics > " + std::to_string(sparse_up_to_topics) +
                         ", the most the sparse kernel takes)"
                   : " (dense kernel: " + std::to_string(topics) + " topics < " + std::to_string(lda::sparse_from_topics) + ")";
      }
      return {true, how};
    }
    int child = v == s->theta ? s->z_statement : s->child_statement;
    return {true, "only children: " + name(m.statements[static_cast<std::size_t>(child)].target) + " (categorical)"};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override {
    std::string reason;
    auto s = find_collapsed(g.model(), v, reason);
    if (v != s->z) return std::make_unique<integrated_out>();
    if (s->phi >= 0) {
      auto alpha = shared_concentrations(g, s->theta), eta = shared_concentrations(g, s->phi);
      if (alpha && eta) return make_lda_sampler(g, *s, std::move(*alpha), std::move(*eta));
    }
    return make_generic_sampler(g, *s);
  }
};

}  // namespace

std::unique_ptr<factory> make_collapsed_factory() { return std::make_unique<collapsed_factory>(); }

}  // namespace ppl::samplers
