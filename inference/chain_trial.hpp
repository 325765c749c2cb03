#pragma once
// A chain's trial of its plan (issue 40, "a plan that chooses by measured cost"): samplers
// the plan adds because they may pay — the non-centred scale moves — are run in turns with
// and without early in the warmup, and the chain keeps them for the rest
// of the run unless they did not pay: unless the least effective sample size among the
// unknowns, per unit of work the sweeps did, was clearly better without them both times.
//
// Work is counted by the graph (model::graph::work: statement instances evaluated), not
// timed, so that the choice, and so the draws, follow from the seed alone.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/archive.hpp"

namespace ppl::model {
class graph;
}

namespace ppl::inference {

class plan_trial {
 public:
  // Without the optional samplers, the efficiency must exceed theirs by this factor for
  // them to be dropped: leaving out a scale move a funnel needs costs far more (ESS 50x
  // lower on Oxford) than keeping one that does not pay (at most its share of the sweep),
  // and a window's least ESS is a noisy figure: both pairs of windows must say so.
  static constexpr double margin = 1.5;
  // Nor are they dropped when a scale's logarithm spreads wider than this over the trial
  // (its sd): a window of warmup cannot see the rare long stalls of centred updates at a
  // funnel's neck, which a posterior spread over orders of magnitude has. On Dyes (log sd
  // about 1.5) the windows said 3-10x better without the move while a whole run without it
  // gave 4x fewer ESS; on Rats (0.27 and 0.37) both agree the move does not pay.
  static constexpr double max_log_sd = 0.5;
  // A trial needs this much warmup: four windows of an eighth of it, at least 25 sweeps each.
  static constexpr long min_warmup = 200;
  // Nor is a window longer than this, so that the draws held stay within 4 x max_window x
  // max_scalars doubles (8 MB) a chain whatever the warmup: the windows are then the
  // 4 x max_window iterations after its first quarter.
  static constexpr long max_window = 250;
  // The scalars whose ESS is compared: the unknowns', the smallest variables first (the
  // hierarchy's scales and means before its many effects), up to this many.
  static constexpr std::size_t max_scalars = 1000;

  plan_trial() = default;
  // For a chain whose samplers marked in `optional` may be left out, `what` naming them; no
  // trial when none is optional, when a sampler adapts to the sweep during the warmup
  // (`adapting`: NUTS, HMC), or when the warmup is shorter than min_warmup. `unknowns` are
  // the chain's unknowns whose values are its state.
  // `scales` are the positive scalars the optional samplers are for (a scale move's theta).
  plan_trial(std::vector<char> optional, std::string what, long warmup, bool adapting, const model::graph& g,
             const std::vector<int>& unknowns, std::vector<int> scales);

  // Whether sampler k steps at iteration `it` (1-based).
  bool steps(std::size_t k, long it) const;
  // Before each sweep, and after it (iteration `it`): the windows' draws and the work of
  // their sweeps alone (not a start's or a report's); the choice at the last.
  void before(const model::graph& g);
  void after(const model::graph& g, long it);
  // The choice in words, for the draws file's comments and the run's report; empty
  // without optional samplers, or before a trial has chosen.
  const std::string& verdict() const { return verdict_; }
  // The trial's state for a saved chain (--resume, checkpoints).
  void persist(ppl::archive& a);

  // A window's efficiency: the least ESS of the scalars' draws in it, per unit of its work;
  // series constant in the window (ESS NaN) are left out, NaN when all are. Every scalar
  // counts, those the optional samplers do not move too: in a hierarchy they mix with the
  // scale (Dyes' within-batch variance mixed 8x slower per draw without the scale move of
  // the between-batch one).
  static double efficiency(const std::vector<std::vector<double>>& window, std::uint64_t work);
  // The ESS of one series' ranks (ties share their mean rank): the same for any monotone
  // transform, a scale or its precision, a heavy tail or not.
  static double rank_ess(const std::vector<double>& series);

 private:
  // At the last window's end: the choice and its verdict.
  void decide(const model::graph& g);

  std::vector<char> optional_;
  std::string what_;
  // The windows: (marks[i], marks[i + 1]], with them in the even ones; all 0 without a trial.
  std::array<long, 5> marks_{};
  std::vector<std::pair<int, std::size_t>> tracked_;
  std::vector<int> scales_;
  std::vector<std::vector<double>> scale_logs_;  // per scale, log of its draws over the trial
  std::array<std::vector<std::vector<double>>, 4> windows_;  // per window, per tracked scalar, its draws
  std::vector<std::uint64_t> window_work_ = std::vector<std::uint64_t>(4, 0);  // the work of each window's sweeps
  std::uint64_t sweep_start_ = 0;                                              // the graph's work before this sweep
  int decided_ = -1;                                          // -1 not yet (or no trial), 0 dropped, 1 kept
  std::string verdict_;
};

}  // namespace ppl::inference
