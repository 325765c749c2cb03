// `cluster`: Swendsen–Wang updates of a pairwise ±1 model whose couplings are all
// non-negative, with or without a field (see spins.hpp). Whole clusters flip at once, so
// near the critical temperature it decorrelates in a few sweeps where single-site updates
// need hundreds.
#include <fmt/core.h>

#include "samplers/factories.hpp"
#include "samplers/spins.hpp"

namespace ppl::samplers {

namespace {

class cluster_sampler final : public sampler {
 public:
  cluster_sampler(model::graph& g, int v, std::shared_ptr<const spins::pairwise_model> m)
      : graph_(g), x_(g.values()[static_cast<std::size_t>(v)].data.data()), engine_(std::move(m), x_) {}
  double marginal_log_density(std::vector<char>& skip) override {
    return spins::marginal_log_density(engine_.model(), x_, skip, graph_.model().statements.size());
  }
  void step(ppl::rng& rng, bool) override {
    engine_.sweep(rng);
    size_sum_ += engine_.mean_cluster_size();
    ++sweeps_;
  }
  void persist(ppl::archive& a) override { a(size_sum_, sweeps_); }
  std::string report() const override {
    return fmt::format("Swendsen-Wang, mean cluster size {:.3g}", sweeps_ ? size_sum_ / static_cast<double>(sweeps_) : 0.0);
  }

 private:
  model::graph& graph_;
  double* x_;
  spins::swendsen_wang engine_;
  double size_sum_ = 0;
  long sweeps_ = 0;
};

class cluster_factory final : public factory {
 public:
  std::string_view kind() const override { return "cluster"; }
  claim can_sample(model::graph& g, int v) const override {
    std::string reason = "not a pairwise model of +-1 spins";
    auto m = spins::find_pairwise(g, v, reason);
    if (!m) return {false, reason};
    if (m->min_coupling < 0)
      return {false, fmt::format("a coupling is negative ({:.6g} between {}); Swendsen-Wang needs them all >= 0", m->min_coupling,
                                 m->min_coupling_between)};
    bool field = false;
    for (double h : m->field) field = field || h != 0;
    return {true, std::string("pairwise +-1 couplings all >= 0") + (field ? ", with a field" : "") + ": Swendsen-Wang clusters"};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override {
    std::string reason;
    return std::make_unique<cluster_sampler>(g, v, spins::find_pairwise(g, v, reason));
  }
};

}  // namespace

std::unique_ptr<factory> make_cluster_factory() { return std::make_unique<cluster_factory>(); }

}  // namespace ppl::samplers
