// `collapsed`: collapsed Gibbs sampling of categorical unknowns with their Dirichlet
// parents integrated out (see collapsed.hpp). theta (and phi) hold the Rao–Blackwellised
// posterior means (c + alpha) / (c. + sum alpha) after every sweep.
#include "samplers/collapsed.hpp"

#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "runtime/blanket.hpp"
#include "samplers/factories.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::expr;
using lang::ir::statement;

namespace {

// The variable an argument reads as `v` or `v[i, ...]` with single indices free of
// unknowns; -1 otherwise.
int direct_variable(const expr& e) {
  if (e.which == expr::kind::variable) return e.slot;
  if (e.which != expr::kind::index || e.args[0]->which != expr::kind::variable) return -1;
  for (const auto& ix : e.indices)
    if (ix.which != lang::ir::index_item::kind::single || ix.lo->depends_on_unknown) return -1;
  return e.args[0]->slot;
}

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

namespace {

// Dirichlet concentrations and their row sums, one row per instance of the prior.
struct concentrations {
  std::vector<double> alpha, row_sum;
  runtime::index_t width = 0;
};

concentrations read_prior(runtime::graph& g, int variable) {
  concentrations c;
  const auto& t = g.value(variable);
  c.width = t.shape[t.shape.rank - 1];
  c.alpha.assign(t.data.size(), 0.0);
  for (int si : g.model().variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g.model().statements[static_cast<std::size_t>(si)];
    std::vector<runtime::index_t> loops = g.instance_table(s);
    std::size_t count = s.loops.empty() ? 1 : loops.size() / s.loops.size();
    for (std::size_t i = 0; i < count; ++i) {
      const runtime::index_t* l = loops.data() + i * s.loops.size();
      auto [offset, size] = g.instance_target(s, l);
      const auto& args = g.args_at(s, l);
      std::copy(args[0].begin(), args[0].end(), c.alpha.begin() + offset);
    }
  }
  c.row_sum.assign(c.alpha.size() / static_cast<std::size_t>(c.width), 0.0);
  for (std::size_t i = 0; i < c.alpha.size(); ++i) c.row_sum[i / static_cast<std::size_t>(c.width)] += c.alpha[i];
  return c;
}

class collapsed_sampler final : public sampler {
 public:
  collapsed_sampler(runtime::graph& g, const collapsed_structure& s) : graph_(g), s_(s), theta_(read_prior(g, s.theta)) {
    if (s.phi >= 0) phi_ = read_prior(g, s.phi);
    else blanket_ = std::make_unique<runtime::blanket>(g, s.z);
    index_elements();
    count_all();
  }

  void step(runtime::rng& rng, bool) override {
    auto& z = graph_.values()[static_cast<std::size_t>(s_.z)].data;
    runtime::index_t k_count = theta_.width;
    score_.resize(static_cast<std::size_t>(k_count));
    boost::random::uniform_01<double> uniform;
    for (std::size_t n = 0; n < row_.size(); ++n) {
      auto old = static_cast<runtime::index_t>(z[element_[n]]) - 1;
      move(n, old, -1);
      double total = 0;
      for (runtime::index_t k = 0; k < k_count; ++k) total += score_[static_cast<std::size_t>(k)] = weight(n, k);
      double u = uniform(rng) * total;
      runtime::index_t k = 0;
      while (k + 1 < k_count && (u -= score_[static_cast<std::size_t>(k)]) >= 0) ++k;
      z[element_[n]] = static_cast<double>(k + 1);
      if (blanket_) blanket_->update(static_cast<runtime::index_t>(element_[n]));
      move(n, k, +1);
    }
    write_means(s_.theta, theta_, theta_counts_, row_counts_);
    if (s_.phi >= 0) write_means(s_.phi, phi_, phi_counts_, topic_counts_);
  }

  // log p(z) with theta integrated out (and log p(w | z) with phi integrated out): a
  // Dirichlet-multinomial term per row, sum_k lgamma(c_k + a_k) - lgamma(a_k) +
  // lgamma(sum a) - lgamma(c. + sum a). Replaces the terms of theta, z (and phi, w).
  double marginal_log_density(std::vector<char>& skip) override {
    const auto& m = graph_.model();
    skip.resize(m.statements.size(), 0);
    for (int v : {s_.theta, s_.z, s_.phi})
      if (v >= 0)
        for (int si : m.variables[static_cast<std::size_t>(v)].statements) skip[static_cast<std::size_t>(si)] = 1;
    double lp = dirichlet_multinomial(theta_, theta_counts_, row_counts_);
    if (s_.phi >= 0) {
      skip[static_cast<std::size_t>(s_.child_statement)] = 1;
      lp += dirichlet_multinomial(phi_, phi_counts_, topic_counts_);
    }
    return lp;
  }

 private:
  // For every element n of z: its theta row, and (with phi) its word.
  void index_elements() {
    const auto& m = graph_.model();
    const statement& zs = m.statements[static_cast<std::size_t>(s_.z_statement)];
    const double* theta_base = graph_.value(s_.theta).data.data();
    std::vector<runtime::index_t> loops = graph_.instance_table(zs);
    std::size_t count = zs.loops.empty() ? 1 : loops.size() / zs.loops.size();
    std::vector<long> position(graph_.value(s_.z).data.size(), -1);
    for (std::size_t i = 0; i < count; ++i) {
      const runtime::index_t* l = loops.data() + i * zs.loops.size();
      auto [offset, size] = graph_.instance_target(zs, l);
      const auto& args = graph_.args_at(zs, l);
      position[static_cast<std::size_t>(offset)] = static_cast<long>(element_.size());
      element_.push_back(static_cast<std::size_t>(offset));
      row_.push_back(static_cast<std::size_t>((args[0].data - theta_base) / theta_.width));
    }
    if (s_.phi < 0) return;
    const statement& c = m.statements[static_cast<std::size_t>(s_.child_statement)];
    const double* z_base = graph_.value(s_.z).data.data();
    const auto& words = graph_.value(c.target).data;
    word_.assign(element_.size(), 0);
    loops = graph_.instance_table(c);
    count = c.loops.empty() ? 1 : loops.size() / c.loops.size();
    for (std::size_t i = 0; i < count; ++i) {
      const runtime::index_t* l = loops.data() + i * c.loops.size();
      runtime::view zv = graph_.eval_at(c, l, *c.args[0]->indices[0].lo);
      long n = position[static_cast<std::size_t>(zv.data - z_base)];
      auto [offset, size] = graph_.instance_target(c, l);
      word_[static_cast<std::size_t>(n)] = static_cast<std::size_t>(words[static_cast<std::size_t>(offset)]) - 1;
    }
  }

  void count_all() {
    theta_counts_.assign(theta_.alpha.size(), 0.0);
    row_counts_.assign(theta_.row_sum.size(), 0.0);
    if (s_.phi >= 0) {
      phi_counts_.assign(phi_.alpha.size(), 0.0);
      topic_counts_.assign(phi_.row_sum.size(), 0.0);
    }
    const auto& z = graph_.value(s_.z).data;
    for (std::size_t n = 0; n < row_.size(); ++n) move(n, static_cast<runtime::index_t>(z[element_[n]]) - 1, +1);
  }

  void move(std::size_t n, runtime::index_t k, double delta) {
    auto w = static_cast<std::size_t>(theta_.width);
    theta_counts_[row_[n] * w + static_cast<std::size_t>(k)] += delta;
    row_counts_[row_[n]] += delta;
    if (s_.phi < 0) return;
    auto v = static_cast<std::size_t>(phi_.width);
    phi_counts_[static_cast<std::size_t>(k) * v + word_[n]] += delta;
    topic_counts_[static_cast<std::size_t>(k)] += delta;
  }

  // Unnormalised p(z[n] = k | everything else), with theta (and phi) integrated out.
  double weight(std::size_t n, runtime::index_t k) {
    auto w = static_cast<std::size_t>(theta_.width);
    std::size_t dk = row_[n] * w + static_cast<std::size_t>(k);
    double prior = theta_counts_[dk] + theta_.alpha[dk];
    if (s_.phi >= 0) {
      std::size_t kw = static_cast<std::size_t>(k) * static_cast<std::size_t>(phi_.width) + word_[n];
      return prior * (phi_counts_[kw] + phi_.alpha[kw]) / (topic_counts_[static_cast<std::size_t>(k)] + phi_.row_sum[static_cast<std::size_t>(k)]);
    }
    auto& z = graph_.values()[static_cast<std::size_t>(s_.z)].data;
    z[element_[n]] = static_cast<double>(k + 1);
    blanket_->update(static_cast<runtime::index_t>(element_[n]));
    double lp = blanket_->log_density(static_cast<runtime::index_t>(element_[n]), false);
    return std::isnan(lp) ? 0 : prior * std::exp(lp);
  }

  static double dirichlet_multinomial(const concentrations& c, const std::vector<double>& counts, const std::vector<double>& rows) {
    double lp = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i] > 0) lp += std::lgamma(counts[i] + c.alpha[i]) - std::lgamma(c.alpha[i]);
    for (std::size_t r = 0; r < rows.size(); ++r) lp += std::lgamma(c.row_sum[r]) - std::lgamma(rows[r] + c.row_sum[r]);
    return lp;
  }

  void write_means(int variable, const concentrations& c, const std::vector<double>& counts, const std::vector<double>& rows) {
    auto& x = graph_.values()[static_cast<std::size_t>(variable)].data;
    auto w = static_cast<std::size_t>(c.width);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = (counts[i] + c.alpha[i]) / (rows[i / w] + c.row_sum[i / w]);
  }

  runtime::graph& graph_;
  collapsed_structure s_;
  concentrations theta_, phi_;
  std::unique_ptr<runtime::blanket> blanket_;
  std::vector<std::size_t> element_, row_, word_;
  std::vector<double> theta_counts_, row_counts_, phi_counts_, topic_counts_, score_;
};

// theta and phi: integrated out; their values are written by z's sampler.
class integrated_out final : public sampler {
 public:
  void step(runtime::rng&, bool) override {}
};

class collapsed_factory final : public factory {
 public:
  std::string_view kind() const override { return "collapsed"; }
  claim can_sample(runtime::graph& g, int v) const override {
    std::string reason;
    auto s = find_collapsed(g.model(), v, reason);
    if (!s) return {false, reason};
    const auto& m = g.model();
    auto name = [&](int x) { return m.variables[static_cast<std::size_t>(x)].name; };
    if (v == s->z)
      return {true, "categorical; " + name(s->theta) + (s->phi >= 0 ? " and " + name(s->phi) : "") +
                        " integrated out, drawn from counts"};
    int child = v == s->theta ? s->z_statement : s->child_statement;
    return {true, "only children: " + name(m.statements[static_cast<std::size_t>(child)].target) +
                      " (categorical); Rao-Blackwellised means from counts"};
  }
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override {
    std::string reason;
    auto s = find_collapsed(g.model(), v, reason);
    if (v != s->z) return std::make_unique<integrated_out>();
    return std::make_unique<collapsed_sampler>(g, *s);
  }
};

}  // namespace

std::unique_ptr<factory> make_collapsed_factory() { return std::make_unique<collapsed_factory>(); }

}  // namespace ppl::samplers
