// A conjugate update block by block, over threads and the processes of a team
// (samplers/conjugate_blocks.hpp).
#include "samplers/conjugate_blocks.hpp"

#include <random>
#include <stdexcept>

namespace ppl::samplers {

std::vector<std::size_t> split_by_work(std::span<const prior_block> blocks, const std::vector<const dot_children*>& dots, std::size_t parts) {
  std::vector<double> work(blocks.size());
  double total = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    work[b] = static_cast<double>(blocks[b].size);
    for (const dot_children* d : dots) {
      const auto [first, last] = d->runs_in(blocks[b].offset, blocks[b].offset + blocks[b].size);
      work[b] += static_cast<double>(d->children(first, last));
    }
    total += work[b];
  }
  std::vector<std::size_t> bounds(parts + 1, blocks.size());
  bounds[0] = 0;
  double sum = 0;
  std::size_t part = 1;
  for (std::size_t b = 0; b < blocks.size() && part < parts; ++b) {
    // Part p begins at the first block whose work up to it reaches p / parts of the total.
    while (part < parts && sum >= total * static_cast<double>(part) / static_cast<double>(parts)) bounds[part++] = b;
    sum += work[b];
  }
  return bounds;
}

block_sweep::block_sweep(const model::graph& g, std::vector<prior_block> blocks, std::vector<const dot_children*> dots, ppl::index_t stride,
                         add_linear_fn add)
    : graph_(g), blocks_(std::move(blocks)), dots_(std::move(dots)), stride_(stride), add_(add) {}

void block_sweep::share(team& t) {
  team_ = &t;
  process_bounds_ = split_by_work(blocks_, dots_, static_cast<std::size_t>(t.size()));
  // What each process sends: its blocks' values, then its change to lp__.
  part_numbers_.assign(process_bounds_.size() - 1, 1);
  for (std::size_t p = 0; p < part_numbers_.size(); ++p)
    for (std::size_t b = process_bounds_[p]; b < process_bounds_[p + 1]; ++b) part_numbers_[p] += static_cast<std::size_t>(blocks_[b].size);
}

void block_sweep::use_threads(std::size_t n) {
  pool_ = std::make_unique<ppl::thread_pool>(n);
  thread_bounds_.clear();
  part_stats_.resize(n);
}

std::string block_sweep::report() const {
  std::string r = team_ ? "blocks shared by " + std::to_string(team_->size()) + " processes" : std::string();
  if (pool_) r += (r.empty() ? "blocks shared by " : ", ") + std::to_string(pool_->size()) + " threads" + (team_ ? " each" : "");
  return r;
}

std::span<const prior_block> block_sweep::mine() const {
  if (!team_) return blocks_;
  const auto r = static_cast<std::size_t>(team_->rank());
  return std::span<const prior_block>(blocks_).subspan(process_bounds_[r], process_bounds_[r + 1] - process_bounds_[r]);
}

double block_sweep::run(ppl::rng& chain_rng, const std::vector<double>& constant, const block_draw& draw, double* values) {
  if (!team_ && !pool_) return draw_part(blocks_, chain_rng, stats_, constant, draw);  // the chain's own stream, as ever
  const std::uint64_t seed = chain_rng();
  const std::size_t parts = pool_ ? pool_->size() : 1, first = team_ ? static_cast<std::size_t>(team_->rank()) * parts : 0;
  const auto stream = [&](std::size_t part) {
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(first + part)};
    return ppl::rng(seq);
  };
  const std::span<const prior_block> own = mine();
  double change = 0;
  if (!pool_) {
    ppl::rng rng = stream(0);
    change = draw_part(own, rng, stats_, constant, draw);
  } else {
    if (thread_bounds_.empty()) thread_bounds_ = split_by_work(own, dots_, parts);
    std::vector<double> changes(parts, 0.0);
    pool_->run([&](std::size_t p) {
      ppl::rng rng = stream(p);
      changes[p] = draw_part(own.subspan(thread_bounds_[p], thread_bounds_[p + 1] - thread_bounds_[p]), rng, part_stats_[p], constant, draw);
    });
    for (double c : changes) change += c;
  }
  return team_ ? exchange(values, change) : change;
}

// Each block's statistics (the constant children's, then its dot rows', in the order the
// whole variable's sum takes them, so that the serial draws are those of that sum) and its draw.
double block_sweep::draw_part(std::span<const prior_block> part, ppl::rng& rng, std::vector<double>& stats, const std::vector<double>& constant,
                              const block_draw& draw) const {
  double change = 0;
  for (const prior_block& b : part) {
    const auto n = static_cast<std::size_t>(b.size * stride_);
    const auto at = static_cast<std::ptrdiff_t>(b.offset * stride_);
    if (constant.empty()) stats.assign(n, 0.0);
    else stats.assign(constant.begin() + at, constant.begin() + at + static_cast<std::ptrdiff_t>(n));
    double* const base = stats.data() - at;
    for (const dot_children* d : dots_) {
      const auto [first, last] = d->runs_in(b.offset, b.offset + b.size);
      d->for_each(graph_, first, last, [&](const double* x, double y, double w, ppl::index_t element) { add_(x, y, w, d->block, base + element * stride_); });
    }
    change += draw(b, rng, base);
  }
  return change;
}

// This process's blocks of `values` with its `change` to lp__ sent to every process, every
// other process's written into `values`; the team's change returned.
double block_sweep::exchange(double* values, double change) {
  buffer_.clear();
  for (const prior_block& b : mine()) buffer_.insert(buffer_.end(), values + b.offset, values + b.offset + b.size);
  buffer_.push_back(change);
  team_->gather(buffer_, sizes_);
  double total = 0;
  std::size_t at = 0;
  for (std::size_t p = 0; p < part_numbers_.size(); ++p) {
    const std::size_t expected = part_numbers_[p];
    if (p >= sizes_.size() || sizes_[p] != expected)
      throw std::logic_error("conjugate update shared by processes: process " + std::to_string(p) + " sent " +
                             std::to_string(p < sizes_.size() ? sizes_[p] : 0) + " numbers, expected " + std::to_string(expected));
    if (static_cast<int>(p) != team_->rank())
      for (std::size_t b = process_bounds_[p]; b < process_bounds_[p + 1]; ++b) {
        std::copy_n(buffer_.begin() + static_cast<std::ptrdiff_t>(at), blocks_[b].size, values + blocks_[b].offset);
        at += static_cast<std::size_t>(blocks_[b].size);
      }
    else
      at += expected - 1;
    total += buffer_[at++];
  }
  return total;
}

}  // namespace ppl::samplers
