#pragma once
// What the weighted methods (inference/importance.cpp, smc.cpp, rejection.cpp) share: a
// worker's graph whose unknowns are saved and restored as a particle, the rows they
// write, work spread over threads, and arithmetic on log weights.
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "draws/psis.hpp"
#include "model/graph.hpp"
#include "inference/monte_carlo.hpp"

namespace ppl::inference::particles {

class particle_graph {
 public:
  particle_graph(const lang::ir::model& m, const data::data_table& data, const std::vector<std::string>& monitors);
  model::graph& graph() { return *graph_; }
  // The number of values one particle holds: every unknown's.
  std::size_t state_size() const { return size_; }
  void save(double* out) const;
  // Sets the unknowns to a saved particle and recomputes the derived variables.
  void load(const double* in);
  // The recorded columns after lp__ and weight__ (or lp__ alone without `weighted`).
  std::vector<std::string> columns(bool weighted) const;
  // The current values as a row of those columns: lp__ (the untempered log joint),
  // `weight` when weighted, the recorded values.
  void row(bool weighted, double weight, std::vector<double>& out);

 private:
  std::unique_ptr<model::graph> graph_;
  std::vector<int> unknowns_, monitored_;
  std::size_t size_ = 0;
};

// One particle_graph per thread, built side by side.
std::vector<std::unique_ptr<particle_graph>> make_graphs(const lang::ir::model& m, const data::data_table& data,
                                                         const monte_carlo_options& o);

// fn(thread, i) for i in [0, count), in contiguous blocks, one per thread; rethrows the
// first failure once every thread has stopped.
void for_each_index(int threads, std::size_t count, const std::function<void(int, std::size_t)>& fn);

// A stream of its own for item `i` of a method's work (`purpose` tells methods apart):
// the same draws whatever thread takes it.
ppl::rng item_stream(std::uint64_t seed, std::size_t i, std::uint32_t purpose);

// The same for one of many small pieces of work (an SMC particle's moves at one
// temperature): the engine seeded by one 64-bit word mixed from the three by splitmix64,
// where item_stream's seed sequence would cost more than the few dozen draws it serves.
ppl::rng quick_stream(std::uint64_t seed, std::uint64_t i, std::uint32_t purpose);

// (sum w)^2 / sum w^2 of the weights exp(log_weights); 0 when every weight is 0.
double effective_size(const std::vector<double>& log_weights);
// log(mean(exp(x))) and its standard error by the delta method, sd(w) / (sqrt(n) mean(w)).
evidence_estimate log_mean_exp(const std::vector<double>& x);
// The runs' spread (smc's run_log_z, two or more): the evidence's standard error is at
// least sd(log Z_r) / sqrt(R), which grows as the runs disagree where the delta method's
// stays near 1 once one run dominates; past an sd of 1 (each run's Z off by a factor e,
// the mean of the Z_r carried by the largest) the estimate is marked unreliable, with a
// warning that gives the runs' range.
void runs_spread(weighted_result& r);
// Systematic resampling (Kitagawa 1996; Douc, Cappé & Moulines 2005): n indices drawn in
// proportion to exp(log_weights) from one uniform `u` in [0, 1).
// Log weights made probabilities in place (NaN counting as -inf); false where none is finite.
inline bool normalise_logs(std::vector<double>& x) {
  for (double& v : x)
    if (std::isnan(v)) v = -INFINITY;
  const double total = draws::log_sum_exp(x);
  if (!std::isfinite(total)) return false;
  for (double& v : x) v = std::exp(v - total);
  return true;
}

// The index a uniform u picks from probabilities p, never one of probability 0 (rounding can
// carry u past the last positive one).
inline std::size_t pick(const std::vector<double>& p, double u) {
  std::size_t k = 0;
  while (k + 1 < p.size() && (u -= p[k]) > 0) ++k;
  while (p[k] == 0 && k > 0) --k;
  return k;
}

std::vector<std::size_t> systematic_resample(const std::vector<double>& log_weights, std::size_t n, double u);

// Rows (row-major, `width` each) with normalised weights in column 1 written as weights,
// or, with o.resample, resampled to o.particles equally weighted rows.
void finish_rows(weighted_result& r, const std::vector<double>& log_weights, std::size_t width, const monte_carlo_options& o);

}  // namespace ppl::inference::particles
