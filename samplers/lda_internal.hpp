#pragma once
// The engine's private parts (lda.hpp), shared by the files that implement it: lda.cpp
// (construction and the kernels), lda_partition.cpp (the parallel sweep),
// lda_posterior.cpp (log p(w, z), theta and phi given z) and lda_heldout.cpp (document
// completion). Nothing outside them includes this.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "samplers/lda.hpp"

namespace ppl::samplers::lda {

constexpr std::uint32_t block = 8;  // topics per block of the dense kernel's search

// Per-thread working space: the current document's topic counts, the weights and the
// sparse kernel's document list.
struct engine::scratch {
  explicit scratch(std::uint32_t k)
      : nd(k), p(k), blocks((k + block - 1) / block), doc_list(k), doc_pos(k), coef(k) {}
  std::vector<std::int32_t> nd;
  std::vector<double> p, blocks;
  std::vector<std::uint16_t> doc_list, doc_pos;
  std::vector<double> coef;
};

// The corpus's arrays and z, as the kernels touch them at every token, loaded once per
// call. Read through the engine's members at every token instead, their headers can share
// cache lines with what another thread writes, and each token would then pay a cache miss.
// A parallel sweep reads its own copy of word and z_index, reordered within each document
// so that the tokens of a word group are together, and sweeps one group at a time.
struct engine::token_arrays {
  const std::uint64_t* doc_start;
  const std::uint32_t* word;
  const std::uint32_t* z_index;  // null: token n is element n of z
  const double* eta;
  double* z;
  // The tokens to sweep in document d: [part_start[d * stride + offset], the next).
  const std::uint64_t* part_start;
  std::size_t stride = 1, offset = 0;
  std::uint32_t topic(std::uint64_t n) const { return static_cast<std::uint32_t>(z[z_index ? z_index[n] : n]) - 1; }
  void set_topic(std::uint64_t n, std::uint32_t k) const { z[z_index ? z_index[n] : n] = k + 1.0; }
  std::uint64_t first(std::uint32_t d) const { return part_start[d * stride + offset]; }
  std::uint64_t last(std::uint32_t d) const { return part_start[d * stride + offset + 1]; }
  // Document d's topic counts, rebuilt from z.
  void count_document(std::uint32_t d, std::uint32_t topics, std::int32_t* nd) const {
    std::fill(nd, nd + topics, 0);
    for (std::uint64_t n = doc_start[d]; n < doc_start[d + 1]; ++n) ++nd[topic(n)];
  }
};

// How a parallel sweep divides the corpus between T threads (see lda.hpp).
struct engine::partition {
  std::size_t threads = 0, chunks = 0;  // chunks: merges of the topic totals per stage
  std::vector<std::uint32_t> block_start;  // documents of thread p's block: [block_start[p], block_start[p + 1])
  std::vector<std::uint32_t> group_start;  // words of group g: [group_start[g], group_start[g + 1])
  std::vector<std::uint32_t> word, z_index;  // per token, grouped by word group within each document
  std::vector<std::uint64_t> cell_start;     // document d's tokens of group g: from cell_start[d * (T + 1) + g]
  // The documents of the j-th chunk of block p's tokens in group g, an equal share of them:
  // from chunk_start[(p * T + g) * (chunks + 1) + j].
  std::vector<std::uint32_t> chunk_start;
};

// A thread's own part of a parallel sweep, allocated by the thread that uses it.
struct engine::thread_state {
  explicit thread_state(std::uint32_t k) : space(k), nk(k), inv(k), start(k), delta{std::vector<std::int32_t>(k), std::vector<std::int32_t>(k)} {}
  scratch space;
  std::vector<std::int32_t> nk;
  std::vector<double> inv;
  std::vector<std::int32_t> start;     // nk when the stage began
  std::vector<std::int32_t> delta[2];  // what the thread's last two stages changed in nk
};

}  // namespace ppl::samplers::lda
