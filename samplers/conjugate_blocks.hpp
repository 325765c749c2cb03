#pragma once
// A conjugate update block by block: where every child whose statistics change is a dot
// row (a rating in matrix factorisation, `dot(U[user[r]], V[item[r]])`), each block's
// statistics are summed into a few numbers that stay in cache and drawn from at once, and
// the variable's whole table of statistics is never held (a user's 528 bytes at rank 10:
// 254 MB for Netflix's users, written and read again each sweep).
//
// Given the other side's features a user's vector depends only on that user's ratings, so
// the blocks can be split by work (a block's values plus its ratings) between the threads
// of a chain (`--threads`) and between the processes of a team (samplers/team.hpp: one chain
// run by `mpirun -np R ppl infer ... --chains 1`). Each part is drawn from a stream of its
// own, seeded from the chain's, which every process advances alike; the processes then
// exchange the blocks they drew, with their change to lp__, so that every copy of the chain
// holds the same state. The draws depend on the number of parts, but each block is an exact
// draw from its conditional: the chain's posterior is the single thread's.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/tensor.hpp"
#include "core/thread_pool.hpp"
#include "model/graph.hpp"
#include "samplers/dot_rows.hpp"
#include "samplers/team.hpp"

namespace ppl::samplers {

// One instance of the prior: the `index`-th of the sampler's prior table `table`, and the
// values it draws, [offset, offset + size) of the variable.
struct prior_block {
  std::uint32_t table = 0;
  std::uint32_t index = 0;
  ppl::index_t offset = 0, size = 0;
};

// The bounds of `parts` consecutive parts of `blocks` of about equal work, a block costing
// its size (the draw) plus the children `dots` add to it (the statistics): part p is
// [bounds[p], bounds[p + 1]).
std::vector<std::size_t> split_by_work(std::span<const prior_block> blocks, const std::vector<const dot_children*>& dots, std::size_t parts);

// Draws one block given its statistics (`stats`: as if the variable's, so that the block's
// own begin at stats + offset * stride) from `rng`; returns the change in the kernels.
using block_draw = std::function<double(const prior_block&, ppl::rng&, const double* stats)>;

class block_sweep {
 public:
  using add_linear_fn = void (*)(const double* c, double y, double w, ppl::index_t k, double* stats);
  block_sweep(const model::graph& g, std::vector<prior_block> blocks, std::vector<const dot_children*> dots, ppl::index_t stride,
              add_linear_fn add);

  // This process's part of the blocks only, exchanged with the team's others after each run.
  void share(team& t);
  // The (process's) blocks split between `n` threads.
  void use_threads(std::size_t n);
  bool threaded() const { return pool_ != nullptr; }
  std::span<const prior_block> blocks() const { return blocks_; }
  std::string report() const;  // "blocks shared by 2 processes", or empty

  // One update of every block: each part's statistics (from `constant`, the constant
  // children's, when not empty) and draws; `values`, the variable's, then hold every
  // process's blocks. Returns the change in the kernels, summed over parts and processes.
  double run(ppl::rng& chain_rng, const std::vector<double>& constant, const block_draw& draw, double* values);

 private:
  double draw_part(std::span<const prior_block> part, ppl::rng& rng, std::vector<double>& stats, const std::vector<double>& constant,
                   const block_draw& draw) const;
  std::span<const prior_block> mine() const;
  double exchange(double* values, double change);

  const model::graph& graph_;
  std::vector<prior_block> blocks_;
  std::vector<const dot_children*> dots_;
  ppl::index_t stride_;
  add_linear_fn add_;
  std::vector<double> stats_;  // one block's statistics (serial)
  // A team: its parts of blocks_, this process's rank, the exchange's buffers.
  team* team_ = nullptr;
  std::vector<std::size_t> process_bounds_;
  std::vector<std::size_t> part_numbers_;  // by process: the numbers it sends (share)
  std::vector<double> buffer_;
  std::vector<std::size_t> sizes_;
  // Threads: the pool, their parts of mine(), each one's statistics.
  std::unique_ptr<ppl::thread_pool> pool_;
  std::vector<std::size_t> thread_bounds_;
  std::vector<std::vector<double>> part_stats_;
};

}  // namespace ppl::samplers
