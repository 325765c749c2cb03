// `collapsed` on LDA's engine (lda.hpp): the model's corpus read into the engine's
// arrays, held-out documents for document completion.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "samplers/collapsed_parts.hpp"

namespace ppl::samplers {

using lang::ir::expr;

namespace {

// LDA with the same prior on every document and every topic: the counts and sweeps of
// lda.hpp, with the kernel chosen by the number of topics.
class lda_sampler final : public sampler {
 public:
  lda_sampler(model::graph& g, const collapsed_structure& s, std::vector<double> alpha, std::vector<double> eta)
      : graph_(g), s_(s), engine_(lda_corpus(g, s, std::move(alpha), std::move(eta)), g.values()[static_cast<std::size_t>(s.z)].data.data()) {
    kernel_ = sparse_kernel(engine_.data().topics) ? lda::kernel::sparse : lda::kernel::dense;
  }

  void configure(const sampler_settings& settings) override {
    threads_ = settings.threads;
    recording_ = recording(settings, s_);
    if (settings.heldout) heldout_ = lda_heldout(graph_, s_, engine_.data().words, *settings.heldout);
    // Processes sharing the sweep keep only their own documents' z current, so theta and
    // z, per document, cannot be recorded; phi, from the counts all of them share, can.
    if (lda::team* t = lda::process_team(); t && t->size() > 1) {
      if (recording_.theta || settings.monitored(s_.z))
        throw std::invalid_argument(fmt::format("--monitor: with one chain's LDA sweep shared by {} processes, each holds only its own "
                                                "documents' topics, so `{}` cannot be recorded (phi can)", t->size(),
                                                graph_.model().variables[static_cast<std::size_t>(recording_.theta ? s_.theta : s_.z)].name));
      engine_.set_team(t);
    }
  }

  bool scores_heldout() const override { return !heldout_.doc_start.empty(); }
  double heldout_perplexity(ppl::rng& rng) override { return engine_.complete(heldout_, rng).perplexity(); }

  void step(ppl::rng& rng, bool) override {
    engine_.sweep(rng, kernel_, threads_);
  }

  // Costs a gamma variate per element of each monitored matrix (K x V for phi), at kept
  // iterations only.
  void record(long iteration) override {
    double* theta = graph_.values()[static_cast<std::size_t>(s_.theta)].data.data();
    double* phi = graph_.values()[static_cast<std::size_t>(s_.phi)].data.data();
    if (!recording_.draws()) {
      if (recording_.theta) engine_.theta_means(theta);
      if (recording_.phi) engine_.phi_means(phi);
      return;
    }
    if (!recording_.theta && !recording_.phi) return;
    ppl::rng rng = recording_.stream(iteration);
    if (recording_.theta) engine_.theta_draws(theta, rng);
    if (recording_.phi) engine_.phi_draws(phi, rng);
  }

  std::string report() const override {
    std::string r = kernel_ == lda::kernel::sparse ? "sparse kernel (SparseLDA)" : "dense kernel";
    if (engine_.in_team())
      return r + ", AD-LDA over " + std::to_string(lda::process_team()->size()) + " processes (counts summed " + std::to_string(engine_.team_stages) + " times per sweep)";
    if (const int t = engine_.threads_used(threads_); t > 1)
      r += ", partitioned AD-LDA on " + std::to_string(t) + " threads (topic totals merged " + std::to_string(engine_.merges_per_sweep(t)) + " times per sweep)";
    return r;
  }

  double marginal_log_density(std::vector<char>& skip) override {
    mark_collapsed(graph_.model(), s_, skip);
    return engine_.log_joint();
  }

 private:
  model::graph& graph_;
  collapsed_structure s_;
  lda::engine engine_;
  lda::kernel kernel_;
  int threads_ = 1;
  recording recording_;
  lda::held_out heldout_;
};

}  // namespace

// The held-out documents: the columns named like the data that chooses theta's row (`doc`
// in theta[doc[n]]) and the observed words, document ids from 1.
lda::held_out lda_heldout(const model::graph& g, const collapsed_structure& s, std::uint32_t vocabulary, const data::data_table& table) {
  const auto& m = g.model();
  const expr& row = *m.statements[static_cast<std::size_t>(s.z_statement)].args[0]->indices[0].lo;
  if (row.which != expr::kind::index || row.args[0]->which != expr::kind::variable ||
      m.variables[static_cast<std::size_t>(row.args[0]->slot)].role != lang::ir::role::data)
    throw std::invalid_argument("--heldout: theta's row must be chosen by a data array, as in theta[doc[n]]");
  const std::string& doc_name = m.variables[static_cast<std::size_t>(row.args[0]->slot)].name;
  const std::string& word_name = m.variables[static_cast<std::size_t>(m.statements[static_cast<std::size_t>(s.child_statement)].target)].name;
  auto column = [&](const std::string& name) -> const ppl::tensor& {
    const data::data_value* v = table.find(name);
    if (!v) throw std::invalid_argument("--heldout: the held-out data has no `" + name + "`");
    if (v->value.shape.rank != 1) throw std::invalid_argument("--heldout: `" + name + "` must be a 1-D array");
    return v->value;
  };
  const ppl::tensor &docs = column(doc_name), &words = column(word_name);
  if (docs.size() != words.size())
    throw std::invalid_argument("--heldout: `" + doc_name + "` has " + std::to_string(docs.size()) + " values but `" +
                                word_name + "` has " + std::to_string(words.size()));
  const std::uint32_t V = vocabulary;
  std::uint64_t documents = 0;
  for (ppl::index_t i = 0; i < docs.size(); ++i) {
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

lda::corpus lda_corpus(model::graph& g, const collapsed_structure& s, std::vector<double> alpha, std::vector<double> eta) {
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

std::unique_ptr<sampler> make_lda_sampler(model::graph& g, const collapsed_structure& s, std::vector<double> alpha,
                                          std::vector<double> eta) {
  return std::make_unique<lda_sampler>(g, s, std::move(alpha), std::move(eta));
}

}  // namespace ppl::samplers
