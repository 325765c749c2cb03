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
// - parallel: documents split into one block per thread and words into as many groups
//   (ranges of word ids), after the partitioned scheme of Yan, Xu & Qi (2009) for AD-LDA
//   (Newman et al. 2009). A sweep has one stage per thread; in stage s thread p samples
//   the tokens of its block whose words are in group (p + s) mod T, so no two threads
//   touch the same document or the same word's counts at once, and each thread works in
//   its own 1/T of the word-topic table (at K = 50 on the full corpus, 1.8 MB: within a
//   core's cache). Only the topic totals n_k are shared by all: each thread keeps its own
//   copy, and the copies are merged `sync_stages` times per sweep (16 by default). That is
//   the one approximation: within a stage a thread does not see the other threads'
//   changes to n_k, at most a sixteenth of a sweep's moves spread over K totals of about
//   tokens / K each. A seed gives the same draws for the same number of threads.
// - across processes (an MPI job running one chain, cli/cluster_mpi_team.cpp): AD-LDA as
//   Newman, Asuncion, Smyth & Welling (2009) distribute it. Each process holds the whole
//   corpus and the word-topic counts, but samples only its own range of documents (an
//   equal share of the tokens) against its copy of the counts, in `team_stages` equal
//   parts; after each part the processes exchange the moves they made (word, old topic,
//   new topic for each token that changed topic: an allgather of 12 bytes per move, not
//   the K x V table) and apply each other's, so every copy again holds the counts of the
//   current z exactly. The approximation is AD-LDA's: within a part a process does not
//   see the other processes' moves, at most 1/team_stages of a sweep's (AD-LDA as
//   published merges once per sweep, which on small corpora left the chain measurably
//   behind the serial one: tests/models/test_lda.cpp). Each process keeps only its own
//   documents' z up to date.
// Document-topic counts are never stored: tokens are kept grouped by document and a
// document's counts are rebuilt from z when the sweep reaches it.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/random.hpp"
#include "core/thread_pool.hpp"
#include "samplers/team.hpp"

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

// The processes sharing one chain's sweep (samplers/team.hpp).
using team = samplers::team;
using samplers::process_team;

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

// What a kernel reads and writes as it sweeps: the word rows of topic_counts (shared by
// the threads of a parallel sweep, each writing only its group's rows) and the topic
// totals with their inverses (each thread's own in a parallel sweep).
struct count_view {
  std::int32_t* nwk;
  std::int32_t* nk;
  double* inv;
  std::uint16_t* list;
  std::uint16_t* pos;
  std::uint32_t* len;
};

// The word-topic and topic counts, with what the kernels derive from them.
struct topic_counts {
  std::vector<std::int32_t> nwk;  // words × topics, word-major
  std::vector<std::int32_t> nk;   // per topic
  std::vector<double> inv;        // 1 / (n_k + sum(eta))
  // The sparse kernel's lists of each word's topics with n_wk > 0, and each topic's
  // position in its word's list.
  std::vector<std::uint16_t> list, pos;
  std::vector<std::uint32_t> len;

  count_view view() { return {nwk.data(), nk.data(), inv.data(), list.data(), pos.data(), len.data()}; }
};

class engine {
 public:
  // z: the model's values of z (topics 1..K stored as doubles), read and written in place.
  engine(corpus c, double* z);
  ~engine();

  void sweep(ppl::rng& rng, kernel k, int threads);
  // log p(w, z) with theta and phi integrated out.
  double log_joint() const;
  // theta (documents × topics) and phi (topics × words) given z, where document d's theta
  // is Dirichlet(n_d + alpha) and topic k's phi Dirichlet(n_k + eta): their means (the
  // Rao–Blackwellised estimates of the posterior means), or one draw.
  void theta_means(double* out) const;
  void phi_means(double* out) const;
  void theta_draws(double* out, ppl::rng& rng) const;
  void phi_draws(double* out, ppl::rng& rng) const;
  // Document completion (Wallach et al. 2009, section 4.2): in each held-out document the
  // tokens at odd positions (1st, 3rd, ...) are observed, their topics drawn `sweeps`
  // times with phi fixed at its current posterior mean, theta estimated from the second
  // half of those sweeps, and the tokens at even positions scored under theta and phi.
  completion complete(const held_out& heldout, ppl::rng& rng, int sweeps = 20) const;

  const corpus& data() const { return c_; }
  // Sweep as one of `t`'s processes (null: alone). Set before the first sweep.
  void set_team(team* t) { team_ = t; }
  // A team's sweep: how many times per sweep the processes exchange their moves.
  int team_stages = 8;
  bool in_team() const { return team_ && team_->size() > 1; }
  // A parallel sweep: how many times per sweep the threads' topic totals are merged
  // (rounded up to a multiple of the number of threads).
  int sync_stages = 16;
  // The threads a sweep asked for `threads` uses (no more than the documents), and how
  // many times it merges the topic totals.
  int threads_used(int threads) const;
  int merges_per_sweep(int threads) const;

 private:
  struct scratch;
  struct token_arrays;
  struct partition;
  struct thread_state;
  token_arrays arrays() const;
  void derive(topic_counts& t, bool lists) const;
  // Sweeps the tokens `a` gives of documents [first, last) against counts `t`.
  void dense_documents(const token_arrays& a, std::uint32_t first, std::uint32_t last, count_view t,
                       ppl::rng& rng, scratch& s);
  void sparse_documents(const token_arrays& a, std::uint32_t first, std::uint32_t last, count_view t,
                        ppl::rng& rng, scratch& s);
  void documents(kernel k, const token_arrays& a, std::uint32_t first, std::uint32_t last, count_view t,
                 ppl::rng& rng, scratch& s);
  std::unique_ptr<partition> make_partition(std::size_t threads, std::size_t chunks) const;
  void parallel_sweep(ppl::rng& rng, kernel k, std::size_t threads);
  void team_sweep(ppl::rng& rng, kernel k);
  void apply_moves(const std::vector<std::uint32_t>& moves, const std::vector<std::size_t>& sizes, kernel k);
  // log p(z) of documents [first, last), and log p(w | z) when `words`.
  double log_joint_parts(std::uint32_t first, std::uint32_t last, bool words) const;

  corpus c_;
  double* z_;
  double alpha_sum_ = 0, eta_sum_ = 0;
  bool lists_ready_ = false;
  topic_counts counts_;
  std::unique_ptr<ppl::thread_pool> pool_;
  std::unique_ptr<partition> partition_;  // of the last parallel sweep
  std::vector<std::unique_ptr<thread_state>> states_;
  team* team_ = nullptr;
  double team_documents_lp_ = 0;  // log p(z) of every process's documents, from the last sweep
};

}  // namespace ppl::samplers::lda
