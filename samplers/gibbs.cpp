// `gibbs`: an unknown with a small finite support is drawn exactly from its full
// conditional, element by element, by evaluating the element's Markov blanket at every
// value of the support (Geman & Geman 1984; the Gibbs sampler of the MCMC notes, §5).
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "model/blanket.hpp"
#include "samplers/factories.hpp"
#include "samplers/spins.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

namespace {

class gibbs_sampler final : public sampler {
 public:
  gibbs_sampler(model::graph& g, int v)
      : graph_(g), variable_(v), blanket_(g, v), moving_(model::supports(g).moves(v)), self_(model::supports(g).reads_itself(v)) {
    read_supports();
  }

  void step(ppl::rng& rng, bool) override {
    auto& x = graph_.values()[static_cast<std::size_t>(variable_)].data;
    // Supports whose bounds follow other unknowns are read again each sweep, or before
    // each element when they follow this variable's own elements.
    if (moving_ && !self_) read_supports();
    change_ = 0;
    for (auto& [e, s] : supports_) {
      if (self_) s = model::supports(graph_).of_element(variable_, e);
      double current = x[static_cast<std::size_t>(e)];
      values_.clear();
      if (s.kind == stdlib::support_kind::spin) values_ = {-1.0, 1.0};
      else
        for (double k = s.lower; k <= s.upper; ++k) values_.push_back(k);
      log_p_.resize(values_.size());
      double best = -INFINITY, before = NAN;
      for (std::size_t k = 0; k < values_.size(); ++k) {
        x[static_cast<std::size_t>(e)] = values_[k];
        blanket_.update(e);
        log_p_[k] = blanket_.log_density(e);
        if (std::isnan(log_p_[k])) {
          log_p_[k] = -INFINITY;  // a fault in the model at this value: counted, and never drawn
          ++not_a_number_;
        }
        best = std::max(best, log_p_[k]);
        if (values_[k] == current) before = log_p_[k];
      }
      // With every value impossible (an invalid state elsewhere), stay put.
      if (best == -INFINITY) {
        x[static_cast<std::size_t>(e)] = current;
        ++stuck_;
      } else {
        const std::size_t k = pick(best, rng);
        x[static_cast<std::size_t>(e)] = values_[k];
        // The blanket's terms at the value drawn (pick left exp(lp - best) in log_p_) less
        // those at the value before: the change in the joint. NaN when the element was
        // outside its support or its terms were not finite, and lp__ is then recomputed.
        const double delta = best + std::log(log_p_[k]) - before;
        change_ += std::isfinite(delta) ? delta : NAN;
      }
      blanket_.update(e);
    }
  }

 public:
  void persist(ppl::archive& a) override { a(not_a_number_, stuck_); }
  double last_change() const override { return change_; }

  std::string report() const override {
    std::string out;
    if (not_a_number_ > 0) out = std::to_string(not_a_number_) + " values with a NaN log density (warmup included), never drawn";
    if (stuck_ > 0)
      out += (out.empty() ? "" : "; ") + std::to_string(stuck_) + " updates where no value had a finite log density, the element kept";
    return out;
  }

 private:
  void read_supports() {
    supports_.clear();
    model::supports(graph_).visit(variable_, [&](ppl::index_t offset, ppl::index_t size, const stdlib::support& s) {
      for (ppl::index_t e = offset; e < offset + size; ++e) supports_.push_back({e, s});
    });
  }

  // A draw proportional to exp(log_p_), computed relative to the largest term.
  std::size_t pick(double best, ppl::rng& rng) {
    double total = 0;
    for (double& lp : log_p_) total += lp = std::exp(lp - best);
    double u = boost::random::uniform_01<double>()(rng) * total;
    for (std::size_t k = 0; k < log_p_.size(); ++k)
      if ((u -= log_p_[k]) < 0) return k;
    return log_p_.size() - 1;
  }

  model::graph& graph_;
  int variable_;
  model::blanket blanket_;
  bool moving_, self_;
  std::vector<std::pair<ppl::index_t, stdlib::support>> supports_;
  std::vector<double> values_, log_p_;
  long not_a_number_ = 0, stuck_ = 0;
  double change_ = NAN;  // the last sweep's change in the joint log density
};

// Pairwise ±1 models: the chromatic heat-bath of spins.hpp, on --threads threads.
class spin_gibbs_sampler final : public sampler {
 public:
  spin_gibbs_sampler(model::graph& g, int v, std::shared_ptr<const spins::pairwise_model> m)
      : graph_(g), x_(g.values()[static_cast<std::size_t>(v)].data.data()), engine_(std::move(m), x_) {}
  // lp__ from the couplings, in O(couplings) instead of evaluating every factor.
  double marginal_log_density(std::vector<char>& skip) override {
    return spins::marginal_log_density(engine_.model(), x_, skip, graph_.model().statements.size());
  }
  void configure(const sampler_settings& settings) override { threads_ = settings.threads; }
  void step(ppl::rng& rng, bool) override { engine_.sweep(rng, threads_); }
  std::string report() const override {
    return "chromatic heat-bath, " + std::to_string(engine_.colours()) + " colours" +
           (threads_ > 1 ? ", " + std::to_string(threads_) + " threads" : "");
  }

 private:
  model::graph& graph_;
  double* x_;
  spins::heat_bath engine_;
  int threads_ = 1;
};

class gibbs_factory final : public factory {
 public:
  std::string_view kind() const override { return "gibbs"; }
  claim can_sample(model::graph& g, int v) const override {
    std::string reason;
    bool ok = finite_support(g, v, reason);
    if (!ok) return {false, reason};
    std::string ignored;
    if (auto m = spins::find_pairwise(g, v, ignored))
      return {true, reason + "; pairwise factors: heat-bath by colour classes (" +
                        std::to_string(spins::colour_classes(*m).size()) + " colours), O(degree) per site"};
    return {true, reason + ", enumerated"};
  }
  std::unique_ptr<sampler> make(model::graph& g, int v) const override {
    std::string ignored;
    if (auto m = spins::find_pairwise(g, v, ignored)) return std::make_unique<spin_gibbs_sampler>(g, v, std::move(m));
    return std::make_unique<gibbs_sampler>(g, v);
  }
};

}  // namespace

std::unique_ptr<factory> make_gibbs_factory() { return std::make_unique<gibbs_factory>(); }

}  // namespace ppl::samplers
