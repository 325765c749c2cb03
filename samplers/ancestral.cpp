// `ancestral`: an unknown that no observation or factor depends on is drawn exactly from
// its prior given its parents, once per sweep, after the other samplers (chain.cpp), so
// that a prediction is drawn from the sweep's values of what it reads.
#include <cmath>

#include "samplers/factories.hpp"
#include "samplers/structure.hpp"
#include "stdlib/flat.hpp"
#include "stdlib/restricted.hpp"

namespace ppl::samplers {

namespace {

class ancestral_sampler final : public sampler {
 public:
  ancestral_sampler(model::graph& g, int v) : graph_(g), variable_(v) {
    // Derived variables read only by predictions are not kept current by the other
    // samplers (no density term reads them): this draw recomputes those it reads.
    const auto& m = g.model();
    needed_.assign(m.variables.size(), 0);
    for (int si : m.variables[static_cast<std::size_t>(v)].statements) {
      const auto& s = m.statements[static_cast<std::size_t>(si)];
      if (s.which != lang::ir::statement::kind::sample) continue;
      predictive_ = predictive_ || g.predictive(s);
      for (int r : lang::ir::statement_reads(s)) needed_[static_cast<std::size_t>(r)] = 1;
    }
    needed_ = with_inputs(m, std::move(needed_));
    const std::vector<char>& feeds = feeding_density(g);
    for (std::size_t u = 0; u < needed_.size(); ++u) {
      needed_[u] = needed_[u] && m.variables[u].role == lang::ir::role::derived && !feeds[u];
      refresh_ = refresh_ || needed_[u];
    }
  }
  void step(ppl::rng& rng, bool) override {
    if (refresh_) graph_.update_derived(needed_);
    graph_.draw_variable(variable_, rng);
  }
  // A prediction's terms are not in lp__ (graph::predictive), and nothing else reads it.
  double last_change() const override { return predictive_ ? 0.0 : NAN; }

 private:
  model::graph& graph_;
  int variable_;
  std::vector<char> needed_;  // by variable: derived inputs to recompute before drawing
  bool refresh_ = false, predictive_ = false;
};

class ancestral_factory final : public factory {
 public:
  std::string_view kind() const override { return "ancestral"; }
  claim can_sample(model::graph& g, int v) const override {
    if (informed(g, v)) return {false, "an observation or factor depends on it"};
    // A flat prior with nothing to inform it leaves the posterior flat too: no sampler can
    // give draws of it, and none should pretend to.
    const auto& m = g.model();
    for (int si : m.variables[static_cast<std::size_t>(v)].statements)
      if (const auto& s = m.statements[static_cast<std::size_t>(si)]; s.dist && stdlib::improper(*s.dist))
        ppl::fail_at(m.source, s.pos, "`" + m.variables[static_cast<std::size_t>(v)].name +
                                           "` has an improper flat prior and no observation or factor depends on it, so its "
                                           "posterior is improper too; give it a proper prior with `~`, or data that inform it");
    if (std::string why; model::supports(g).ordered(v) && !model::supports(g).ordered_draw_exact(v, why))
      return {false, "an ordered vector and " + why + ": sorting its elements' draws would not be a draw of its prior"};
    // A prediction reads unknowns: its draw is from its distribution given their current
    // draw (a posterior predictive), not from a prior.
    bool predictive = false, censored = false;
    for (int si : m.variables[static_cast<std::size_t>(v)].statements) {
      const auto& s = m.statements[static_cast<std::size_t>(si)];
      for (const auto& a : s.args) predictive = predictive || a->depends_on_unknown;
      censored = censored || (s.dist && stdlib::censored(*s.dist));
    }
    // A censored value imputed within its interval: its term carries the interval's
    // probability, so it is no prediction, and its draw is its full conditional.
    if (censored)
      return {true, "a censored value that no other term reads: drawn within its censoring interval from its distribution given "
                    "the current draw of what it reads (its full conditional)"};
    if (predictive)
      return {true, "a prediction, which no observation or factor depends on: drawn from its distribution given the current draw of "
                    "what it reads (a posterior predictive draw)"};
    return {true, "no observation or factor depends on it: drawn from its prior"};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override { return std::make_unique<ancestral_sampler>(g, v); }
};

}  // namespace

std::unique_ptr<factory> make_ancestral_factory() { return std::make_unique<ancestral_factory>(); }

}  // namespace ppl::samplers
