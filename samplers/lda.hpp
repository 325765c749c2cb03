#pragma once
// The counts and sweeps of collapsed Gibbs sampling for LDA, used by the `collapsed` kind
// when a model has LDA's structure (collapsed.hpp). With theta and phi integrated out,
// token i of document d with word w takes topic k with probability proportional to
//   (n_dk + alpha_k) (n_wk + eta_w) / (n_k + sum(eta))
// counts excluding token i (Griffiths & Steyvers 2004; seeds: the LDA notes). Three ways
// to sweep, all exact except the last:
// - dense: the O(K) textbook update, vectorised over topics, with 1 / (n_k + sum(eta))
//   cached per topic and a two-level search instead of a running sum;
// - sparse: SparseLDA (Yao, Mimno & McCallum 2009), which splits the weight into a
//   smoothing bucket (every topic, rarely visited), a document bucket (the topics of the
//   document) and a word bucket (the topics the word has), so a token costs about the
//   number of topics its word and document have rather than K;
// - parallel: AD-LDA (Newman et al. 2009): documents split into one block per thread,
//   each thread sweeping its block against its own copy of the word-topic counts. This is
//   an approximation: a thread sees the other threads' moves only when the copies are
//   synchronised. Newman et al. synchronise once per sweep; the error that leaves grows
//   with how stale the copies get (on the bars of tests/samplers/test_lda.cpp, log p(w, z)
//   ends 0.5% below the serial sampler's), so here each block is swept in `sync_stages`
//   stages (16 by default) and after each stage every thread replays the moves the others
//   logged into its own copy, which costs the number of moves rather than words × topics.
//   With 16 stages the final log p(w, z) matches the serial sampler's within run-to-run
//   noise. A seed gives the same draws for the same number of threads.
// Document-topic counts are never stored: tokens are kept grouped by document and a
// document's counts are rebuilt from z when the sweep reaches it.
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/random.hpp"
#include "runtime/thread_pool.hpp"

namespace ppl::samplers::lda {

struct corpus {
  std::uint32_t topics = 0, documents = 0, words = 0;
  std::vector<double> alpha;              // per topic: every document's theta ~ Dirichlet(alpha)
  std::vector<double> eta;                // per word: every topic's phi ~ Dirichlet(eta)
  std::vector<std::uint64_t> doc_start;   // document d's tokens: [doc_start[d], doc_start[d + 1])
  std::vector<std::uint32_t> word;        // per token, documents in order; 0-based
  std::vector<std::uint32_t> z_index;     // per token, its element of z; empty: the token's own position
};

enum class kernel { dense, sparse };

// Held-out documents, tokens grouped by document like corpus::word.
struct held_out {
  std::vector<std::uint64_t> doc_start;
  std::vector<std::uint32_t> word;
};

// log p of the held-out tokens of a document-completion estimate.
struct completion {
  double log_likelihood = 0;
  std::uint64_t tokens = 0;
  double perplexity() const;
};

// Topics at which the sparse kernel is chosen: below it the dense kernel's vectorised
// loop is as fast (bench/RESULTS.md).
constexpr std::uint32_t sparse_from_topics = 100;

// Word-topic counts as one thread sees them, with what the kernels derive from them.
struct topic_counts {
  std::vector<std::int32_t> nwk;  // words × topics, word-major
  std::vector<std::int32_t> nk;   // per topic
  std::vector<double> inv;        // 1 / (n_k + sum(eta))
  // The sparse kernel's lists of each word's topics with n_wk > 0, and each topic's
  // position in its word's list.
  std::vector<std::uint16_t> list, pos;
  std::vector<std::uint32_t> len;

  void list_add(std::size_t row, std::uint32_t w, std::uint32_t k) {
    pos[row + k] = static_cast<std::uint16_t>(len[w]);
    list[row + len[w]++] = static_cast<std::uint16_t>(k);
  }
  void list_remove(std::size_t row, std::uint32_t w, std::uint32_t k) {
    const std::uint16_t i = pos[row + k], moved = list[row + --len[w]];
    list[row + i] = moved;
    pos[row + moved] = i;
  }
};

// A token of word `word` that moved between topics, logged by one thread of a parallel
// sweep for the others to replay.
struct topic_move {
  std::uint32_t word;
  std::uint16_t from, to;
};

class engine {
 public:
  // z: the model's values of z (topics 1..K stored as doubles), read and written in place.
  engine(corpus c, double* z);

  void sweep(runtime::rng& rng, kernel k, int threads);
  // log p(w, z) with theta and phi integrated out.
  double log_joint() const;
  // Rao–Blackwellised posterior means: theta (documents × topics) and phi (topics × words).
  void theta_means(double* out) const;
  void phi_means(double* out) const;
  // Document completion (Wallach et al. 2009, section 4.2): in each held-out document the
  // tokens at odd positions (1st, 3rd, ...) are observed, their topics drawn `sweeps`
  // times with phi fixed at its current posterior mean, theta estimated from the second
  // half of those sweeps, and the tokens at even positions scored under theta and phi.
  completion complete(const held_out& heldout, runtime::rng& rng, int sweeps = 20) const;

  const corpus& data() const { return c_; }
  // AD-LDA: how many times per sweep the threads' copies are synchronised.
  int sync_stages = 16;

 private:
  struct scratch;
  struct token_arrays;
  token_arrays arrays() const;
  void derive(topic_counts& t, bool lists) const;
  // Sweeps documents [first, last) against counts `t`; moves are logged when `log` is given.
  void dense_documents(std::uint32_t first, std::uint32_t last, topic_counts& t, runtime::rng& rng, scratch& s,
                       std::vector<topic_move>* log);
  void sparse_documents(std::uint32_t first, std::uint32_t last, topic_counts& t, runtime::rng& rng, scratch& s,
                        std::vector<topic_move>* log);
  void documents(kernel k, std::uint32_t first, std::uint32_t last, topic_counts& t, runtime::rng& rng, scratch& s,
                 std::vector<topic_move>* log = nullptr);
  void parallel_sweep(runtime::rng& rng, kernel k, int threads);
  void replay(topic_counts& t, const std::vector<topic_move>& moves, bool lists) const;

  corpus c_;
  double* z_;
  double alpha_sum_ = 0, eta_sum_ = 0;
  bool lists_ready_ = false;
  topic_counts counts_;
  std::vector<topic_counts> copies_;  // threads 2.. of a parallel sweep, in step with counts_ between sweeps
  bool copies_ready_ = false;
  std::unique_ptr<runtime::thread_pool> pool_;
  std::vector<std::vector<topic_move>> logs_[2];  // per thread, the moves of the last two stages
  std::vector<std::uint32_t> block_start_;  // documents of each thread's block
};

}  // namespace ppl::samplers::lda
