// `collapsed` for shapes other than LDA's: theta alone (z's likelihood from its Markov
// blanket), or priors that differ by row; counts kept as doubles, one update per token.
#include <boost/random/uniform_01.hpp>
#include <algorithm>
#include <cmath>

#include "model/blanket.hpp"
#include "samplers/collapsed_parts.hpp"
#include "samplers/dirichlet_draw.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::samplers {

using lang::ir::statement;

namespace {

// Dirichlet concentrations and their row sums, one row per instance of the prior.
struct concentrations {
  std::vector<double> alpha, row_sum;
  ppl::index_t width = 0;
};

concentrations read_prior(model::graph& g, int variable) {
  concentrations c;
  const auto& t = g.value(variable);
  c.width = t.shape[t.shape.rank - 1];
  c.alpha.assign(t.data.size(), 0.0);
  for (int si : g.model().variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = g.model().statements[static_cast<std::size_t>(si)];
    std::vector<ppl::index_t> loops = model::instances(g).table(s);
    std::size_t count = s.loops.empty() ? 1 : loops.size() / s.loops.size();
    for (std::size_t i = 0; i < count; ++i) {
      const ppl::index_t* l = loops.data() + i * s.loops.size();
      auto [offset, size] = model::instances(g).target(s, l);
      const auto& args = model::instances(g).args_at(s, l);
      std::copy(args[0].begin(), args[0].end(), c.alpha.begin() + offset);
    }
  }
  c.row_sum.assign(c.alpha.size() / static_cast<std::size_t>(c.width), 0.0);
  for (std::size_t i = 0; i < c.alpha.size(); ++i) c.row_sum[i / static_cast<std::size_t>(c.width)] += c.alpha[i];
  return c;
}

class collapsed_sampler final : public sampler {
 public:
  collapsed_sampler(model::graph& g, const collapsed_structure& s) : graph_(g), s_(s), theta_(read_prior(g, s.theta)) {
    if (s.phi >= 0) phi_ = read_prior(g, s.phi);
    else blanket_ = std::make_unique<model::blanket>(g, s.z);
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
    recording_ = recording(settings, s_);
    particles_ = settings.particles;
  }

  void step(ppl::rng& rng, bool) override {
    // A particle's counts are its own; after the sweep its theta is drawn from the
    // conditional given z, so that the particle holds a draw of the joint (the collapsed
    // sweep and that draw together leave the joint invariant).
    if (particles_) count_all();
    sweep(rng);
    if (particles_) write(s_.theta, theta_, theta_counts_, row_counts_, rng, true);
  }

  void sweep(ppl::rng& rng) {
    auto& z = graph_.values()[static_cast<std::size_t>(s_.z)].data;
    ppl::index_t k_count = theta_.width;
    score_.resize(static_cast<std::size_t>(k_count));
    boost::random::uniform_01<double> uniform;
    for (std::size_t n = 0; n < row_.size(); ++n) {
      auto old = static_cast<ppl::index_t>(z[element_[n]]) - 1;
      move(n, old, -1);
      double total = 0;
      for (ppl::index_t k = 0; k < k_count; ++k) total += score_[static_cast<std::size_t>(k)] = weight(n, k);
      double u = uniform(rng) * total;
      ppl::index_t k = 0;
      while (k + 1 < k_count && (u -= score_[static_cast<std::size_t>(k)]) >= 0) ++k;
      z[element_[n]] = static_cast<double>(k + 1);
      if (blanket_) blanket_->update(static_cast<ppl::index_t>(element_[n]));
      move(n, k, +1);
    }
  }

  void record(long iteration) override {
    if (!recording_.theta && !recording_.phi) return;
    ppl::rng rng = recording_.stream(iteration);
    if (recording_.theta) write(s_.theta, theta_, theta_counts_, row_counts_, rng, recording_.draws());
    if (recording_.phi) write(s_.phi, phi_, phi_counts_, topic_counts_, rng, recording_.draws());
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
    for (std::size_t n = 0; n < row_.size(); ++n) move(n, static_cast<ppl::index_t>(z[element_[n]]) - 1, +1);
  }
  void move(std::size_t n, ppl::index_t k, double delta) {
    auto w = static_cast<std::size_t>(theta_.width);
    theta_counts_[row_[n] * w + static_cast<std::size_t>(k)] += delta;
    row_counts_[row_[n]] += delta;
    if (s_.phi < 0) return;
    auto v = static_cast<std::size_t>(phi_.width);
    phi_counts_[static_cast<std::size_t>(k) * v + word_[n]] += delta;
    topic_counts_[static_cast<std::size_t>(k)] += delta;
  }

  // Unnormalised p(z[n] = k | everything else), with theta (and phi) integrated out.
  double weight(std::size_t n, ppl::index_t k) {
    auto w = static_cast<std::size_t>(theta_.width);
    std::size_t dk = row_[n] * w + static_cast<std::size_t>(k);
    double prior = theta_counts_[dk] + theta_.alpha[dk];
    if (s_.phi >= 0) {
      std::size_t kw = static_cast<std::size_t>(k) * static_cast<std::size_t>(phi_.width) + word_[n];
      return prior * (phi_counts_[kw] + phi_.alpha[kw]) / (topic_counts_[static_cast<std::size_t>(k)] + phi_.row_sum[static_cast<std::size_t>(k)]);
    }
    auto& z = graph_.values()[static_cast<std::size_t>(s_.z)].data;
    z[element_[n]] = static_cast<double>(k + 1);
    blanket_->update(static_cast<ppl::index_t>(element_[n]));
    double lp = blanket_->log_density(static_cast<ppl::index_t>(element_[n]), false);
    return std::isnan(lp) ? 0 : prior * std::exp(lp);
  }

  static double dirichlet_multinomial(const concentrations& c, const std::vector<double>& counts, const std::vector<double>& rows) {
    double lp = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i] > 0) lp += stdlib::log_gamma(counts[i] + c.alpha[i]) - stdlib::log_gamma(c.alpha[i]);
    for (std::size_t r = 0; r < rows.size(); ++r) lp += stdlib::log_gamma(c.row_sum[r]) - stdlib::log_gamma(rows[r] + c.row_sum[r]);
    return lp;
  }

  // Each row of theta (or phi) given z is Dirichlet(counts + alpha): written as a draw or
  // as its mean, (counts + alpha) / (row's count + sum alpha).
  void write(int variable, const concentrations& c, const std::vector<double>& counts, const std::vector<double>& rows,
             ppl::rng& rng, bool draws) {
    auto& x = graph_.values()[static_cast<std::size_t>(variable)].data;
    auto w = static_cast<std::size_t>(c.width);
    if (!draws) {
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = (counts[i] + c.alpha[i]) / (rows[i / w] + c.row_sum[i / w]);
      return;
    }
    shape_.resize(w);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t k = 0; k < w; ++k) shape_[k] = counts[r * w + k] + c.alpha[r * w + k];
      dirichlet_draw(shape_.data(), w, rng, x.data() + r * w);
    }
  }

  model::graph& graph_;
  collapsed_structure s_;
  recording recording_;
  bool particles_ = false;
  concentrations theta_, phi_;
  std::unique_ptr<model::blanket> blanket_;
  std::vector<std::uint32_t> element_, row_, word_;
  std::vector<double> theta_counts_, row_counts_, phi_counts_, topic_counts_, score_, shape_;
};

}  // namespace

std::unique_ptr<sampler> make_generic_sampler(model::graph& g, const collapsed_structure& s) {
  return std::make_unique<collapsed_sampler>(g, s);
}

}  // namespace ppl::samplers
