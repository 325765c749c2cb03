// LDA's partitioned parallel sweep (lda.hpp): how the corpus is divided between the
// threads, and the sweep that runs the stages and merges the topic totals.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "samplers/lda_internal.hpp"

namespace ppl::samplers::lda {

int engine::merges_per_sweep(int threads) const {
  return (std::max(sync_stages, 1) + threads - 1) / threads * threads;
}

namespace {

// Splits [0, total) at the T - 1 points where a running count reaches equal shares:
// returns the T + 1 ends. count(i) is item i's weight.
template <typename Count>
std::vector<std::uint32_t> equal_shares(std::uint32_t total, std::size_t T, Count count) {
  std::uint64_t sum = 0;
  for (std::uint32_t i = 0; i < total; ++i) sum += count(i);
  std::vector<std::uint32_t> ends{0};
  std::uint64_t running = 0;
  for (std::uint32_t i = 0; i < total && ends.size() < T; ++i) {
    running += count(i);
    while (ends.size() < T && running * T >= sum * ends.size()) ends.push_back(i + 1);
  }
  while (ends.size() < T + 1) ends.push_back(total);
  ends.back() = total;
  return ends;
}

}  // namespace

// Documents into T blocks of equal tokens; words into T ranges chosen so that the stages
// are balanced: a stage lasts as long as its largest cell (block p, group (p + s) mod T),
// so the ranges start at equal token shares and each boundary then moves to where the sum
// over stages of the largest cell is least (a few passes of coordinate descent).
std::unique_ptr<engine::partition> engine::make_partition(std::size_t T, std::size_t chunks) const {
  auto part = std::make_unique<partition>();
  partition& P = *part;
  P.threads = T;
  P.chunks = chunks;
  P.block_start = equal_shares(c_.documents, T, [&](std::uint32_t d) { return c_.doc_start[d + 1] - c_.doc_start[d]; });
  // Tokens of each word in each block: prefix[p][w] = tokens of block p with word < w.
  std::vector<std::vector<std::uint64_t>> prefix(T, std::vector<std::uint64_t>(c_.words + 1, 0));
  for (std::size_t p = 0; p < T; ++p)
    for (std::uint64_t n = c_.doc_start[P.block_start[p]]; n < c_.doc_start[P.block_start[p + 1]]; ++n) ++prefix[p][c_.word[n] + 1];
  std::vector<std::uint64_t> word_tokens(c_.words, 0);
  for (std::size_t p = 0; p < T; ++p)
    for (std::uint32_t w = 0; w < c_.words; ++w) {
      word_tokens[w] += prefix[p][w + 1];
      prefix[p][w + 1] += prefix[p][w];
    }
  P.group_start = equal_shares(c_.words, T, [&](std::uint32_t w) { return word_tokens[w]; });
  auto cost = [&](const std::vector<std::uint32_t>& g) {
    std::uint64_t total = 0;
    for (std::size_t stage = 0; stage < T; ++stage) {
      std::uint64_t largest = 0;
      for (std::size_t p = 0; p < T; ++p) {
        const std::size_t q = (p + stage) % T;
        largest = std::max(largest, prefix[p][g[q + 1]] - prefix[p][g[q]]);
      }
      total += largest;
    }
    return total;
  };
  if (T <= 8)
    for (int pass = 0; pass < 3; ++pass)
      for (std::size_t i = 1; i < T; ++i) {
        std::vector<std::uint32_t> g = P.group_start;
        std::uint32_t best = g[i];
        std::uint64_t best_cost = cost(g);
        for (std::uint32_t w = g[i - 1]; w <= g[i + 1]; ++w) {
          g[i] = w;
          if (const std::uint64_t c = cost(g); c < best_cost) best_cost = c, best = w;
        }
        P.group_start[i] = best;
      }
  std::vector<std::uint32_t> group(c_.words);
  for (std::size_t g = 0; g < T; ++g)
    std::fill(group.begin() + P.group_start[g], group.begin() + P.group_start[g + 1], static_cast<std::uint32_t>(g));
  // Each document's tokens reordered by group (a counting sort, stable within a group).
  const std::uint64_t N = c_.word.size();
  P.word.resize(N);
  P.z_index.resize(N);
  P.cell_start.resize(static_cast<std::size_t>(c_.documents) * (T + 1));
  std::vector<std::uint64_t> next(T);
  for (std::uint32_t d = 0; d < c_.documents; ++d) {
    std::uint64_t* cells = P.cell_start.data() + static_cast<std::size_t>(d) * (T + 1);
    std::fill(cells, cells + T + 1, 0);
    for (std::uint64_t n = c_.doc_start[d]; n < c_.doc_start[d + 1]; ++n) ++cells[group[c_.word[n]] + 1];
    cells[0] = c_.doc_start[d];
    for (std::size_t g = 0; g < T; ++g) next[g] = cells[g + 1] += cells[g];
    for (std::size_t g = 0; g < T; ++g) next[g] = cells[g];
    for (std::uint64_t n = c_.doc_start[d]; n < c_.doc_start[d + 1]; ++n) {
      const std::uint64_t to = next[group[c_.word[n]]]++;
      P.word[to] = c_.word[n];
      P.z_index[to] = c_.z_index.empty() ? static_cast<std::uint32_t>(n) : c_.z_index[n];
    }
  }
  // Chunks: the documents of a cell split into equal shares of the cell's tokens.
  P.chunk_start.resize(T * T * (chunks + 1));
  for (std::size_t p = 0; p < T; ++p)
    for (std::size_t g = 0; g < T; ++g) {
      const std::uint32_t first = P.block_start[p];
      const std::vector<std::uint32_t> ends = equal_shares(P.block_start[p + 1] - first, chunks, [&](std::uint32_t i) {
        const std::size_t cell = static_cast<std::size_t>(first + i) * (T + 1) + g;
        return P.cell_start[cell + 1] - P.cell_start[cell];
      });
      for (std::size_t j = 0; j <= chunks; ++j) P.chunk_start[(p * T + g) * (chunks + 1) + j] = first + ends[j];
    }
  return part;
}

void engine::parallel_sweep(ppl::rng& rng, kernel k, std::size_t T) {
  const auto chunks = static_cast<std::size_t>(merges_per_sweep(static_cast<int>(T))) / T;
  if (!partition_ || partition_->threads != T || partition_->chunks != chunks) partition_ = make_partition(T, chunks);
  const partition& P = *partition_;
  const std::uint32_t K = c_.topics;
  // One stream per thread, seeded from the chain's stream.
  std::vector<ppl::rng> streams;
  for (std::size_t b = 0; b < T; ++b) {
    std::seed_seq seq{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(b)};
    streams.emplace_back(seq);
  }
  if (!pool_ || pool_->size() != T) pool_ = std::make_unique<ppl::thread_pool>(T);
  if (states_.size() != T) {
    states_.clear();
    states_.resize(T);
  }
  const count_view shared = counts_.view();
  const std::size_t steps = T * chunks;
  for (std::size_t step = 0; step < steps; ++step) {
    pool_->run([&](std::size_t b) {
      if (!states_[b]) states_[b] = std::make_unique<thread_state>(K);
      thread_state& st = *states_[b];
      if (step == 0) {
        st.nk = counts_.nk;
        st.inv = counts_.inv;
      } else {
        // The other threads' changes to the topic totals in the last step.
        for (std::size_t other = 0; other < T; ++other)
          if (other != b) {
            const std::int32_t* delta = states_[other]->delta[(step - 1) % 2].data();
            for (std::uint32_t t = 0; t < K; ++t) st.nk[t] += delta[t];
          }
        for (std::uint32_t t = 0; t < K; ++t) st.inv[t] = 1 / (st.nk[t] + eta_sum_);
      }
      st.start = st.nk;
      const std::size_t g = (b + step / chunks) % T, j = step % chunks;
      token_arrays a = arrays();
      a.word = P.word.data();
      a.z_index = P.z_index.data();
      a.part_start = P.cell_start.data();
      a.stride = T + 1;
      a.offset = g;
      const std::uint32_t* chunk = P.chunk_start.data() + (b * T + g) * (chunks + 1) + j;
      count_view view = shared;
      view.nk = st.nk.data();
      view.inv = st.inv.data();
      // The stream is copied to the stack: next to the other threads' in memory it would
      // share cache lines written at every token.
      ppl::rng stream = streams[b];
      documents(k, a, chunk[0], chunk[1], view, stream, st.space);
      streams[b] = stream;
      std::int32_t* delta = st.delta[step % 2].data();
      for (std::uint32_t t = 0; t < K; ++t) delta[t] = st.nk[t] - st.start[t];
    });
  }
  counts_.nk = states_[0]->nk;
  for (std::size_t other = 1; other < T; ++other)
    for (std::uint32_t t = 0; t < K; ++t) counts_.nk[t] += states_[other]->delta[(steps - 1) % 2][t];
  derive(counts_, false);
}

}  // namespace ppl::samplers::lda
