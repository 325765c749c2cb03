#pragma once
// What the files of the chain engine share: one chain and the steps of its run.
// inference/chain.cpp runs chains (the iteration loop, rows, progress, threads and
// processes); chain_start.cpp builds a chain (its graph, samplers and a start where the
// log density is finite); chain_state.cpp saves and restores its state (--resume,
// checkpoints); chain_plan.cpp reads the plan and the monitored variables.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/archive.hpp"
#include "core/random.hpp"
#include "inference/chain.hpp"
#include "inference/chain_trial.hpp"
#include "inference/heldout_prediction.hpp"

namespace ppl::inference {

// One chain: its graph, its samplers in dependency order, its random stream.
struct chain {
  std::unique_ptr<model::graph> graph;
  std::vector<std::unique_ptr<samplers::sampler>> samplers;
  std::vector<std::string> sampled;  // the variables of each sampler, for its report: "b1, W1"
  std::vector<char> rewritten;       // per variable: its values are no state (sampler::values_rewritten)
  ppl::rng rng;
  std::vector<int> monitored;
  std::vector<char> derived_every, derived_kept;  // derived variables recomputed each iteration, at kept ones
  // lp__ at the current state, kept up to date from the samplers' changes (NaN when one
  // does not know its change: computed in full when next recorded).
  double lp = NAN;
  // --heldout for a model no sampler scores: the Normal observations' held-out RMSE.
  std::unique_ptr<heldout_prediction> prediction;
  // Whether the optional samplers (the scale moves) stay, tried during warmup.
  plan_trial trial;
  // The plan and the settings its samplers are made with (again at a restart).
  std::vector<samplers::assignment> plan;
  samplers::sampler_settings settings;
  // How the start was moved along Pathfinder's path or restarted, for the run's report
  // (empty: neither), and the restarts so far.
  std::string start_report;
  int restarts = 0;
  // --dic: the deviance of each kept draw, and what DIC's penalties need.
  std::unique_ptr<deviance_record> deviance;
};

// lp__: the log joint density, with collapsed variables' terms replaced by the marginal
// their sampler keeps (inference/chain.cpp).
double log_joint(chain& c);

// Starts `g` again, repairs included, until `remade()` (whatever depends on the start made
// again, then the log density it returns) is finite: up to 100 starts from `given`, Stan's
// uniform(-2, 2) for the failing terms' unknowns after the first few. Throws the error
// naming the first term that is not finite when none is (inference/chain_start.cpp).
void start_where_finite(model::graph& g, ppl::rng& rng, const model::start_options& given, const std::function<double()>& remade);

// Builds chain `index`: its graph (moving the arrays out of `take`, the table `data` is,
// when given), its samplers, and a start where the log density is finite, or the state
// saved in `o.resume`. Returns the iterations done: 0, or those of the saved state
// (inference/chain_start.cpp).
long build_chain(chain& c, const lang::ir::model& m, const data::data_table& data, data::data_table* take,
                 const run_options& o, int index);

// After warmup iteration `it`: a chain whose Hamiltonian step size has collapsed in the
// warmup's first half (a start far in a vague prior's tail, where the gradient is 1e80)
// starts again from the best of three new candidate starts (Stan's, and a tenth and a
// hundredth of the jitter), its samplers made afresh to adapt over the rest of the warmup.
// The warmup's draws are discarded, so the draws kept stay the chain's own; each chain
// restarts from its own stream, so the chains stay independent for R-hat. Returns whether it
// restarted (inference/chain_start.cpp).
bool restart_stranded(chain& c, const run_options& o, int index, long it);

// A chain's saved state, and reading it back in two parts: the values before the
// samplers are made, then the samplers' own state (inference/chain_state.cpp).
std::string save_chain(chain& c, long completed);
long load_chain_values(chain& c, ppl::archive& a);
void load_chain_samplers(chain& c, ppl::archive& a);

// The plan's lines for the report and the draws file's header (inference/chain_plan.cpp).
std::vector<plan_line> plan_lines(model::graph& g, const std::map<std::string, std::string>& overrides, samplers::collapsed_record record);

}  // namespace ppl::inference
