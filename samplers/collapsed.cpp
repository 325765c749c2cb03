// `collapsed`: collapsed Gibbs sampling of categorical unknowns with their Dirichlet
// parents integrated out (see collapsed.hpp). theta (and phi), when recorded, hold the
// Rao–Blackwellised posterior means (c + alpha) / (c. + sum alpha) after every sweep. LDA
// with the same prior on every document and topic goes to the engine of lda.hpp; other
// shapes (theta alone, priors that differ by row) to the general sampler here.
#include "samplers/collapsed.hpp"

#include <fmt/core.h>

#include <boost/random/uniform_01.hpp>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "runtime/blanket.hpp"
#include "samplers/factories.hpp"
#include "samplers/lda.hpp"
#include "samplers/structure.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::samplers {

using lang::ir::expr;
using lang::ir::statement;

namespace {

// The sparse kernel keeps topic numbers in 16 bits (lda.cpp refuses more), so a model
// with more topics than that runs the dense kernel, which has no such limit.
constexpr std::uint32_t sparse_up_to_topics = 65535;
bool sparse_kernel(std::uint32_t topics) { return topics >= lda::sparse_from_topics && topics <= sparse_up_to_topics; }

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

// For every element n of z (in the order of z's statement): its element of z (`element`
// stays empty while that is n itself, as when z is declared in a loop over its own
// elements), its row of theta and (with phi) its word. Built from the statements'
// instances one at a time, so that a corpus costs no more than these arrays.
struct token_index {
  std::vector<std::uint32_t> element, row, word;
  std::uint32_t element_of(std::size_t n) const { return element.empty() ? static_cast<std::uint32_t>(n) : element[n]; }
};

token_index index_tokens(runtime::graph& g, const collapsed_structure& s, runtime::index_t theta_width) {
  const auto& m = g.model();
  token_index t;
  const statement& zs = m.statements[static_cast<std::size_t>(s.z_statement)];
  const double* theta_base = g.value(s.theta).data.data();
  const std::size_t z_size = g.value(s.z).data.size();
  if (z_size >= 0xffffffffu) throw std::invalid_argument("collapsed: z has more than 2^32 - 1 elements");
  t.row.reserve(z_size);
  g.visit_instances(zs, [&](const runtime::index_t* l) {
    const auto offset = static_cast<std::uint32_t>(g.instance_target(zs, l).first);
    const std::size_t n = t.row.size();
    if (t.element.empty() && offset != n) {  // not z's own order: keep every element from here on
      t.element.resize(n);
      for (std::size_t i = 0; i < n; ++i) t.element[i] = static_cast<std::uint32_t>(i);
    }
    if (!t.element.empty()) t.element.push_back(offset);
    t.row.push_back(static_cast<std::uint32_t>((g.args_at(zs, l)[0].data - theta_base) / theta_width));
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
  g.visit_instances(c, [&](const runtime::index_t* l) {
    const auto at = static_cast<std::size_t>(g.eval_at(c, l, *c.args[0]->indices[0].lo).data - z_base);
    const std::size_t n = position.empty() ? at : position[at];
    t.word[n] = static_cast<std::uint32_t>(words[static_cast<std::size_t>(g.instance_target(c, l).first)]) - 1;
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
std::optional<std::vector<double>> shared_concentrations(runtime::graph& g, int variable) {
  std::optional<std::vector<double>> row;
  bool same = true;
  for (int si : g.model().variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g.model().statements[static_cast<std::size_t>(si)];
    g.visit_instances(s, [&](const runtime::index_t* l) {
      const runtime::view& a = g.args_at(s, l)[0];
      if (!row) row.emplace(a.begin(), a.end());
      else same = same && std::equal(a.begin(), a.end(), row->begin(), row->end());
    });
  }
  if (!same) row.reset();
  return row;
}

// Which of theta and phi are monitored: their means are written only then.
struct written {
  bool theta = true, phi = true;
};

// LDA with the same prior on every document and every topic: the counts and sweeps of
// lda.hpp, with the kernel chosen by the number of topics.
class lda_sampler final : public sampler {
 public:
  lda_sampler(runtime::graph& g, const collapsed_structure& s, std::vector<double> alpha, std::vector<double> eta)
      : graph_(g), s_(s), engine_(corpus(g, s, std::move(alpha), std::move(eta)), g.values()[static_cast<std::size_t>(s.z)].data.data()) {
    kernel_ = sparse_kernel(engine_.data().topics) ? lda::kernel::sparse : lda::kernel::dense;
  }

  void configure(const sampler_settings& settings) override {
    threads_ = settings.threads;
    written_.theta = settings.monitored(s_.theta);
    written_.phi = settings.monitored(s_.phi);
    if (settings.heldout) heldout_ = heldout_documents(*settings.heldout);
  }

  bool scores_heldout() const override { return !heldout_.doc_start.empty(); }
  double heldout_perplexity(runtime::rng& rng) override { return engine_.complete(heldout_, rng).perplexity(); }

  void step(runtime::rng& rng, bool) override {
    engine_.sweep(rng, kernel_, threads_);
    if (written_.theta) engine_.theta_means(graph_.values()[static_cast<std::size_t>(s_.theta)].data.data());
    if (written_.phi) engine_.phi_means(graph_.values()[static_cast<std::size_t>(s_.phi)].data.data());
  }

  std::string report() const override {
    std::string r = kernel_ == lda::kernel::sparse ? "sparse kernel (SparseLDA)" : "dense kernel";
    if (const int t = engine_.threads_used(threads_); t > 1)
      r += ", partitioned AD-LDA on " + std::to_string(t) + " threads (topic totals merged " + std::to_string(engine_.merges_per_sweep(t)) + " times per sweep)";
    return r;
  }

  double marginal_log_density(std::vector<char>& skip) override {
    mark_collapsed(graph_.model(), s_, skip);
    return engine_.log_joint();
  }

 private:
  // The held-out documents: the columns named like the data that chooses theta's row
  // (`doc` in theta[doc[n]]) and the observed words, document ids from 1.
  lda::held_out heldout_documents(const runtime::data_table& table) const {
    const auto& m = graph_.model();
    const expr& row = *m.statements[static_cast<std::size_t>(s_.z_statement)].args[0]->indices[0].lo;
    if (row.which != expr::kind::index || row.args[0]->which != expr::kind::variable ||
        m.variables[static_cast<std::size_t>(row.args[0]->slot)].role != lang::ir::role::data)
      throw std::invalid_argument("--heldout: theta's row must be chosen by a data array, as in theta[doc[n]]");
    const std::string& doc_name = m.variables[static_cast<std::size_t>(row.args[0]->slot)].name;
    const std::string& word_name = m.variables[static_cast<std::size_t>(m.statements[static_cast<std::size_t>(s_.child_statement)].target)].name;
    auto column = [&](const std::string& name) -> const runtime::tensor& {
      const runtime::data_value* v = table.find(name);
      if (!v) throw std::invalid_argument("--heldout: the held-out data has no `" + name + "`");
      if (v->value.shape.rank != 1) throw std::invalid_argument("--heldout: `" + name + "` must be a 1-D array");
      return v->value;
    };
    const runtime::tensor &docs = column(doc_name), &words = column(word_name);
    if (docs.size() != words.size())
      throw std::invalid_argument("--heldout: `" + doc_name + "` has " + std::to_string(docs.size()) + " values but `" +
                                  word_name + "` has " + std::to_string(words.size()));
    const std::uint32_t V = engine_.data().words;
    std::uint64_t documents = 0;
    for (runtime::index_t i = 0; i < docs.size(); ++i) {
      const double d = docs.data[static_cast<std::size_t>(i)], w = words.data[static_cast<std::size_t>(i)];
      if (!(d >= 1 && d < 4e9 && d == std::floor(d)))
        throw std::invalid_argument("--heldout: `" + doc_name + "[" + std::to_string(i + 1) + "]` is " + fmt::format("{}", d) +
                                    "; documents are numbered from 1");
      if (!(w >= 1 && w <= V && w == std::floor(w)))
        throw std::invalid_argument("--heldout: `" + word_name + "[" + std::to_string(i + 1) + "]` is " + fmt::format("{}", w) +
                                    "; the model's words are 1.." + std::to_string(V));
      documents = std::max(documents, static_cast<std::uint64_t>(d));
    }
    // Tokens grouped by document, in their order (a counting sort).
    lda::held_out out;
    out.doc_start.assign(documents + 1, 0);
    for (double d : docs.data) ++out.doc_start[static_cast<std::size_t>(d)];
    for (std::uint64_t d = 0; d < documents; ++d) out.doc_start[d + 1] += out.doc_start[d];
    std::vector<std::uint64_t> next(out.doc_start.begin(), out.doc_start.end() - 1);
    out.word.resize(words.data.size());
    for (std::size_t i = 0; i < words.data.size(); ++i)
      out.word[next[static_cast<std::size_t>(docs.data[i]) - 1]++] = static_cast<std::uint32_t>(words.data[i]) - 1;
    return out;
  }

  static lda::corpus corpus(runtime::graph& g, const collapsed_structure& s, std::vector<double> alpha, std::vector<double> eta) {
    lda::corpus c;
    c.topics = static_cast<std::uint32_t>(alpha.size());
    c.documents = static_cast<std::uint32_t>(g.value(s.theta).data.size() / alpha.size());
    c.words = static_cast<std::uint32_t>(eta.size());
    c.alpha = std::move(alpha);
    c.eta = std::move(eta);
    token_index t = index_tokens(g, s, c.topics);
    // Tokens grouped by document, in their order within a document (a counting sort,
    // which leaves data already in document order as it is).
    c.doc_start.assign(c.documents + 1, 0);
    for (std::uint32_t r : t.row) ++c.doc_start[r + 1];
    for (std::uint32_t d = 0; d < c.documents; ++d) c.doc_start[d + 1] += c.doc_start[d];
    if (std::is_sorted(t.row.begin(), t.row.end())) {
      c.word = std::move(t.word);
      c.z_index = std::move(t.element);
      return c;
    }
    c.word.resize(t.word.size());
    c.z_index.resize(t.word.size());
    std::vector<std::uint64_t> next(c.doc_start.begin(), c.doc_start.end() - 1);
    for (std::size_t n = 0; n < t.row.size(); ++n) {
      const std::uint64_t at = next[t.row[n]]++;
      c.word[at] = t.word[n];
      c.z_index[at] = t.element_of(n);
    }
    return c;
  }

  runtime::graph& graph_;
  collapsed_structure s_;
  lda::engine engine_;
  lda::kernel kernel_;
  int threads_ = 1;
  written written_;
  lda::held_out heldout_;
};

class collapsed_sampler final : public sampler {
 public:
  collapsed_sampler(runtime::graph& g, const collapsed_structure& s) : graph_(g), s_(s), theta_(read_prior(g, s.theta)) {
    if (s.phi >= 0) phi_ = read_prior(g, s.phi);
    else blanket_ = std::make_unique<runtime::blanket>(g, s.z);
    token_index t = index_tokens(g, s, theta_.width);
    if (t.element.empty()) {
      t.element.resize(t.row.size());
      for (std::size_t n = 0; n < t.row.size(); ++n) t.element[n] = static_cast<std::uint32_t>(n);
    }
    element_ = std::move(t.element);
    row_ = std::move(t.row);
    word_ = std::move(t.word);
    count_all();
  }

  void configure(const sampler_settings& settings) override {
    written_.theta = settings.monitored(s_.theta);
    written_.phi = s_.phi >= 0 && settings.monitored(s_.phi);
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
    if (written_.theta) write_means(s_.theta, theta_, theta_counts_, row_counts_);
    if (written_.phi) write_means(s_.phi, phi_, phi_counts_, topic_counts_);
  }

  // log p(z) with theta integrated out (and log p(w | z) with phi integrated out): a
  // Dirichlet-multinomial term per row, sum_k lgamma(c_k + a_k) - lgamma(a_k) +
  // lgamma(sum a) - lgamma(c. + sum a). Replaces the terms of theta, z (and phi, w).
  double marginal_log_density(std::vector<char>& skip) override {
    mark_collapsed(graph_.model(), s_, skip);
    double lp = dirichlet_multinomial(theta_, theta_counts_, row_counts_);
    if (s_.phi >= 0) lp += dirichlet_multinomial(phi_, phi_counts_, topic_counts_);
    return lp;
  }

 private:
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
      if (counts[i] > 0) lp += stdlib::log_gamma(counts[i] + c.alpha[i]) - stdlib::log_gamma(c.alpha[i]);
    for (std::size_t r = 0; r < rows.size(); ++r) lp += stdlib::log_gamma(c.row_sum[r]) - stdlib::log_gamma(rows[r] + c.row_sum[r]);
    return lp;
  }

  void write_means(int variable, const concentrations& c, const std::vector<double>& counts, const std::vector<double>& rows) {
    auto& x = graph_.values()[static_cast<std::size_t>(variable)].data;
    auto w = static_cast<std::size_t>(c.width);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = (counts[i] + c.alpha[i]) / (rows[i / w] + c.row_sum[i / w]);
  }

  runtime::graph& graph_;
  collapsed_structure s_;
  written written_;
  concentrations theta_, phi_;
  std::unique_ptr<runtime::blanket> blanket_;
  std::vector<std::uint32_t> element_, row_, word_;
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
    return {true, "only children: " + name(m.statements[static_cast<std::size_t>(child)].target) +
                      " (categorical); Rao-Blackwellised means from counts"};
  }
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override {
    std::string reason;
    auto s = find_collapsed(g.model(), v, reason);
    if (v != s->z) return std::make_unique<integrated_out>();
    if (s->phi >= 0) {
      auto alpha = shared_concentrations(g, s->theta), eta = shared_concentrations(g, s->phi);
      if (alpha && eta) return std::make_unique<lda_sampler>(g, *s, std::move(*alpha), std::move(*eta));
    }
    return std::make_unique<collapsed_sampler>(g, *s);
  }
};

}  // namespace

std::unique_ptr<factory> make_collapsed_factory() { return std::make_unique<collapsed_factory>(); }

}  // namespace ppl::samplers
