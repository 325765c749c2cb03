// `conjugate`: the factory that tries every conjugate pair, and the one sampler that runs
// any of them: sum the children's sufficient statistics over their plates, then draw each
// element of the variable from its posterior.
#include "samplers/conjugate.hpp"

#include "samplers/factories.hpp"

namespace ppl::samplers {

namespace {

using lang::ir::statement;

const std::vector<conjugate_pair>& pairs() {
  static const std::vector<conjugate_pair> all = {beta_binomial_pair(), dirichlet_categorical_pair(), gamma_rate_pair(),
                                                  normal_normal_pair()};
  return all;
}

class conjugate_sampler final : public sampler {
 public:
  conjugate_sampler(runtime::graph& g, int v, const conjugate_pair& pair, const std::vector<int>& children)
      : graph_(g), variable_(v), pair_(pair) {
    const auto& m = g.model();
    for (int si : children) add_table(m.statements[static_cast<std::size_t>(si)], children_);
    for (int si : m.variables[static_cast<std::size_t>(v)].statements) add_table(m.statements[static_cast<std::size_t>(si)], priors_);
  }

  void step(runtime::rng& rng, bool) override {
    auto& values = graph_.values()[static_cast<std::size_t>(variable_)].data;
    stats_.assign(values.size() * static_cast<std::size_t>(pair_.stats_per_element), 0.0);
    for (const auto& c : children_) accumulate(c);
    for (const auto& p : priors_) {
      for (std::size_t i = 0; i < p.count; ++i) {
        const runtime::index_t* loops = p.loops.data() + i * p.s->loops.size();
        auto [offset, size] = graph_.instance_target(*p.s, loops);
        std::vector<runtime::view> prior = graph_.args_at(*p.s, loops);
        pair_.draw(prior, stats_.data() + offset * pair_.stats_per_element, rng, values.data() + offset, size);
      }
    }
  }

 private:
  struct table {
    const statement* s;
    std::vector<runtime::index_t> loops;
    std::size_t count;
    std::size_t arg;
  };

  void add_table(const statement& s, std::vector<table>& out) {
    std::vector<runtime::index_t> loops = graph_.instance_table(s);
    std::size_t count = s.loops.empty() ? 1 : loops.size() / s.loops.size();
    std::size_t arg = 0;
    for (const auto& l : pair_.likelihoods)
      if (l.dist == s.dist_name) arg = l.arg;
    out.push_back({&s, std::move(loops), count, arg});
  }

  void accumulate(const table& c) {
    const auto& m = graph_.model();
    const double* base = graph_.value(variable_).data.data();
    const auto& child_values = graph_.value(c.s->target).data;
    for (std::size_t i = 0; i < c.count; ++i) {
      const runtime::index_t* loops = c.loops.data() + i * c.s->loops.size();
      auto [offset, size] = graph_.instance_target(*c.s, loops);
      const auto& args = graph_.args_at(*c.s, loops);
      runtime::index_t element = args[c.arg].data - base;
      runtime::shape value_shape = size == 1 && c.s->dist->value_rank() == 0 ? runtime::shape::scalar() : runtime::shape::vector(size);
      runtime::view x{child_values.data() + offset, value_shape};
      pair_.accumulate(c.s->dist_name, x, args, stats_.data() + element * pair_.stats_per_element);
    }
    (void)m;
  }

  runtime::graph& graph_;
  int variable_;
  const conjugate_pair& pair_;
  std::vector<table> children_, priors_;
  std::vector<double> stats_;
};

class conjugate_factory final : public factory {
 public:
  std::string_view kind() const override { return "conjugate"; }
  claim can_sample(runtime::graph& g, int v) const override {
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
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override {
    const conjugate_pair* pair = nullptr;
    std::vector<int> children;
    match(g, v, pair, children);
    return std::make_unique<conjugate_sampler>(g, v, *pair, children);
  }

 private:
  static std::string match(runtime::graph& g, int v, const conjugate_pair*& found, std::vector<int>& children) {
    std::string prior = prior_name(g.model(), v), why;
    for (const auto& p : pairs()) {
      if (p.prior != prior) continue;
      why = direct_children(g.model(), v, p.likelihoods, children);
      if (why.empty()) {
        found = &p;
        return {};
      }
    }
    if (!why.empty()) return "not conjugate: " + why;
    return "no conjugate pair has a " + (prior.empty() ? std::string("mixed") : prior) + " prior";
  }
};

}  // namespace

std::unique_ptr<factory> make_conjugate_factory() { return std::make_unique<conjugate_factory>(); }

}  // namespace ppl::samplers
