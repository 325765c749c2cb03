// `ancestral`: an unknown that no observation or factor depends on is drawn exactly from
// its prior given its parents, once per sweep.
#include "samplers/factories.hpp"
#include "samplers/structure.hpp"
#include "stdlib/flat.hpp"

namespace ppl::samplers {

namespace {

class ancestral_sampler final : public sampler {
 public:
  ancestral_sampler(runtime::graph& g, int v) : graph_(g), variable_(v) {}
  void step(runtime::rng& rng, bool) override { graph_.draw_variable(variable_, rng); }

 private:
  runtime::graph& graph_;
  int variable_;
};

class ancestral_factory final : public factory {
 public:
  std::string_view kind() const override { return "ancestral"; }
  claim can_sample(runtime::graph& g, int v) const override {
    if (informed(g.model(), v)) return {false, "an observation or factor depends on it"};
    // A flat prior with nothing to inform it leaves the posterior flat too: no sampler can
    // give draws of it, and none should pretend to.
    const auto& m = g.model();
    for (int si : m.variables[static_cast<std::size_t>(v)].statements)
      if (const auto& s = m.statements[static_cast<std::size_t>(si)]; s.dist && stdlib::improper(*s.dist))
        lang::fail_at(m.source, s.pos, "`" + m.variables[static_cast<std::size_t>(v)].name +
                                           "` has an improper flat prior and no observation or factor depends on it, so its "
                                           "posterior is improper too; give it a proper prior with `~`, or data that inform it");
    if (std::string why; g.ordered(v) && !g.ordered_draw_exact(v, why))
      return {false, "an ordered vector and " + why + ": sorting its elements' draws would not be a draw of its prior"};
    return {true, "no observation or factor depends on it: drawn from its prior"};
  }
  std::unique_ptr<sampler> make(runtime::graph& g, int v) const override { return std::make_unique<ancestral_sampler>(g, v); }
};

}  // namespace

std::unique_ptr<factory> make_ancestral_factory() { return std::make_unique<ancestral_factory>(); }

}  // namespace ppl::samplers
