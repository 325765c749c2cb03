// The `conjugate` factory: which pair, if any, a variable's prior and children make
// (samplers/conjugate.cpp runs the update).
#include "samplers/conjugate.hpp"
#include "samplers/factories.hpp"

namespace ppl::samplers {

namespace {

const std::vector<conjugate_pair>& pairs() {
  static const std::vector<conjugate_pair> all = {
      beta_binomial_pair(),          dirichlet_categorical_pair(),   gamma_rate_pair(),
      gamma_precision_pair(),        inverse_gamma_variance_pair(),  multi_normal_normal_pair(),
      multi_normal_prec_normal_pair(), multi_normal_mean_pair(),     multi_normal_prec_mean_pair(),
      wishart_precision_pair(),      inverse_wishart_covariance_pair(), normal_normal_pair()};
  return all;
}

class conjugate_factory final : public factory {
 public:
  std::string_view kind() const override { return "conjugate"; }
  claim can_sample(model::graph& g, int v) const override {
    const conjugate_pair* pair = nullptr;
    std::vector<int> children;
    std::string why = match(g, v, pair, children);
    if (!pair) return {false, why};
    std::string names;
    for (int si : children) {
      const auto& s = g.model().statements[static_cast<std::size_t>(si)];
      names += (names.empty() ? "" : ", ") + g.model().variables[static_cast<std::size_t>(s.target)].name + " (" + s.dist_name + ")";
    }
    return {true, pair->prior + " prior, children: " + names + " [" + pair->name + "]"};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override {
    const conjugate_pair* pair = nullptr;
    std::vector<int> children;
    match(g, v, pair, children);
    return make_conjugate_sampler(g, v, *pair, children);
  }

  static std::string match(model::graph& g, int v, const conjugate_pair*& found, std::vector<int>& children) {
    // The pairs' posteriors are their priors' family, not its restriction to an ordered set.
    if (model::supports(g).ordered(v)) return "an ordered vector: no conjugate update keeps its elements in order";
    // x[t] ~ Normal(a * x[t - 1], s): each element is also a child of its neighbour, and
    // the pairs below see only other variables' children.
    for (int si : g.model().variables[static_cast<std::size_t>(v)].statements) {
      const auto reads = lang::ir::statement_reads(g.model().statements[static_cast<std::size_t>(si)]);
      if (std::find(reads.begin(), reads.end(), v) != reads.end())
        return "its prior reads its own elements (line " +
               std::to_string(ppl::locate(g.model().source.text, g.model().statements[static_cast<std::size_t>(si)].pos).line) + ")";
    }
    std::string prior = prior_name(g.model(), v), why;
    // The reason given is that of a pair that takes the failing child's distribution, when
    // one does (it says which expression broke the link); else the child's distribution
    // and every distribution this prior is conjugate to.
    std::string unlisted_why, takes;
    for (const auto& p : pairs()) {
      if (p.prior != prior) continue;
      bool unlisted = false;
      std::string reason = direct_children(g.model(), v, p.likelihoods, children, &unlisted);
      if (reason.empty()) {
        found = &p;
        return {};
      }
      for (const auto& l : p.likelihoods)
        if (takes.find(l.dist) == std::string::npos) takes += (takes.empty() ? "" : ", ") + l.dist;
      if (unlisted) unlisted_why = reason;
      else if (why.empty()) why = reason;
    }
    if (!why.empty()) return "not conjugate: " + why;
    if (!unlisted_why.empty()) return "not conjugate: " + unlisted_why + ", and a " + prior + " prior is conjugate only to " + takes + " children";
    return "no conjugate pair has a " + (prior.empty() ? std::string("mixed") : prior) + " prior";
  }
};

}  // namespace

const conjugate_pair* match_conjugate(model::graph& g, int v, std::vector<int>& children, std::string& why) {
  const conjugate_pair* pair = nullptr;
  why = conjugate_factory::match(g, v, pair, children);
  return pair;
}

std::unique_ptr<factory> make_conjugate_factory() { return std::make_unique<conjugate_factory>(); }

}  // namespace ppl::samplers
