#pragma once
// The sampler contract. A factory looks at the graph's structure and says whether it can
// sample a variable, and why (DESIGN.md, requirement 2); the first factory in priority
// order that can, claims it. A sampler updates its variable given everything else; each
// chain has its own samplers (they hold adaptation state).
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/archive.hpp"
#include "model/graph.hpp"
#include "core/random.hpp"

namespace ppl::samplers {

// What a monitored variable that a sampler integrates out (collapsed theta and phi)
// records at each kept iteration (--collapsed): a draw from its conditional given the
// sampled variables, whose spread is the posterior's, or its mean under that conditional
// (Rao-Blackwellised: a better estimate of the posterior mean, but not a draw).
enum class collapsed_record { draws, means };

// The metric Hamiltonian samplers adapt (--metric): the posterior's variances, its
// covariance, or either by what warmup finds (samplers/hamiltonian_metric.hpp).
enum class metric_choice { diagonal, dense, automatic };

// What the chain tells its samplers once they are made.
namespace hamiltonian {
struct path_metric;
}
using hamiltonian::path_metric;

struct sampler_settings {
  int threads = 1;            // threads a sampler may use within its chain (--threads)
  std::vector<char> recorded;  // per variable: its values are read at kept iterations (written to the draws, or read by a derived variable that is)
  const data::data_table* heldout = nullptr;  // held-out data to score (--heldout)
  long warmup = 0;             // warmup iterations: adaptation happens during these
  // Hamiltonian samplers (--metric, --target-accept, --max-depth).
  metric_choice metric = metric_choice::automatic;
  double target_accept = 0.8;
  int max_depth = 10;
  collapsed_record collapsed = collapsed_record::draws;  // --collapsed
  // A path's approximation, when the chain started from a draw of it (--init pathfinder):
  // a Hamiltonian block whose coordinates it covers starts its metric from it, and its
  // warmup's first buffer is shorter (samplers/hamiltonian_metric.hpp).
  std::shared_ptr<const path_metric> start_metric;
  std::uint64_t seed = 1;  // the run's seed and the chain's index (from 0): see side_stream
  int chain = 0;
  // The sampler moves many states in turn (SMC's particles, loaded into the graph one
  // after another): what it keeps between steps is read afresh from the graph at each, and
  // what it integrates out (a collapsed theta) is drawn into the graph after each.
  bool particles = false;
  bool monitored(int v) const { return v >= 0 && static_cast<std::size_t>(v) < recorded.size() && recorded[static_cast<std::size_t>(v)]; }
};

// What one Hamiltonian transition did, for the draws' sampler columns (CmdStan's
// accept_stat__, stepsize__, treedepth__, n_leapfrog__, divergent__, energy__).
struct transition_stats {
  double accept_stat = NAN, step_size = NAN;
  int tree_depth = 0;
  long leapfrogs = 0;
  bool divergent = false;
  double energy = NAN;  // the Hamiltonian at the state drawn, with its momentum
};

// A random stream of its own for iteration `iteration` of a chain, seeded from (seed, chain,
// iteration, purpose) alone. Draws from it leave the chain's stream, and so every other
// draw, as they are, and a resumed run makes the same stream again. `purpose` keeps the
// streams of different uses apart.
inline ppl::rng side_stream(std::uint64_t seed, int chain, long iteration, std::uint32_t purpose) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(chain),
                    static_cast<std::uint32_t>(iteration), purpose};
  return ppl::rng(seq);
}

class sampler {
 public:
  virtual ~sampler() = default;
  // Called once before the first step. A sampler that keeps a variable's values elsewhere
  // (LDA's counts) writes them to the graph only when they are recorded.
  virtual void configure(const sampler_settings& /*settings*/) {}
  // Whether configure() took settings.heldout: the sampler can score held-out data (LDA's
  // document completion); and that score, as a perplexity, at the current state.
  virtual bool scores_heldout() const { return false; }
  virtual double heldout_perplexity(ppl::rng& /*rng*/) { return 0; }
  // One update of the variable given everything else; adaptation only when `warmup`.
  virtual void step(ppl::rng& rng, bool warmup) = 0;
  // Called at each kept iteration (`iteration` counts from 1, warmup included) before the
  // recorded values are read: a sampler that keeps a variable's values elsewhere writes
  // them to the graph now, drawing from side_stream if it draws.
  virtual void record(long /*iteration*/) {}
  // The change the last step made to the joint log density (lp__), where the sampler knows
  // it at little cost (a conjugate update from its statistics, NUTS from the densities it
  // computed); NaN where it does not, and the chain then computes lp__ in full when it
  // records one.
  virtual double last_change() const { return NAN; }
  // Acceptance statistics for the summary; empty when not Metropolis-type.
  virtual std::string report() const { return {}; }
  // Whether the sampler cannot move (a Hamiltonian step size collapsed below 1e-8 on the
  // unconstrained scale): the chain restarts it during warmup (inference/chain_start.cpp).
  virtual bool stranded() const { return false; }
  // The last transition's statistics; null for a sampler that has none (not Hamiltonian).
  virtual const transition_stats* last_transition() const { return nullptr; }
  // What warmup adapted, as lines of Stan's adaptation block: "Step size = 0.48",
  // "Diagonal elements of inverse mass matrix:", "0.91, 1.3". Empty when nothing is.
  virtual std::vector<std::string> adaptation() const { return {}; }
  // A sampler that integrates variables out replaces their statements' terms in lp__
  // with the marginal it keeps: it marks them in `skip` and returns the marginal's log.
  virtual double marginal_log_density(std::vector<char>& /*skip*/) { return 0; }
  // What the sampler keeps from one step to the next beyond the graph's values — adapted
  // step sizes and proposals, their running estimates, the counts its report gives —
  // written to or read from a run's saved state (`ppl infer --resume`). A resumed chain
  // makes its samplers afresh from the saved values, so what they derive from the values
  // (LDA's counts) is rebuilt, not saved. It must list everything else: a resumed run
  // gives the same draws as one never interrupted (tests/samplers/test_resume.cpp).
  virtual void persist(ppl::archive& /*a*/) {}
  // Whether its variables' values are no state of the chain: another sampler writes them,
  // at each kept iteration before they are read, from the values of others (collapsed theta
  // and phi, drawn from z's counts), and nothing reads them in between. A saved state then
  // leaves them out.
  virtual bool values_rewritten() const { return false; }
};

struct claim {
  bool ok = false;
  std::string reason;  // why it can (for `ppl plan`) or why it cannot (for errors)
};

class factory {
 public:
  virtual ~factory() = default;
  virtual std::string_view kind() const = 0;
  virtual claim can_sample(model::graph& g, int variable) const = 0;
  virtual std::unique_ptr<sampler> make(model::graph& g, int variable) const = 0;
  // A kind that updates its variables jointly (NUTS): every variable it claims in a model
  // goes to one sampler, made by make_block.
  virtual bool joins_block() const { return false; }
  virtual std::unique_ptr<sampler> make_block(model::graph& g, const std::vector<int>& variables) const {
    return make(g, variables.front());
  }
};

}  // namespace ppl::samplers
