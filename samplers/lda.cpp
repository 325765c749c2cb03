// LDA's collapsed Gibbs sweeps: see lda.hpp. Built with -O3 (CMakeLists.txt) so that the
// dense kernel's loop over topics is vectorised.
#include "samplers/lda.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <stdexcept>

namespace ppl::samplers::lda {

namespace {

constexpr std::uint32_t block = 8;  // topics per block of the dense kernel's search

// lgamma(n + offset) for counts n, tabulated for small n when the offset is shared.
class lgamma_counts {
 public:
  explicit lgamma_counts(double offset, std::size_t size = 4096) : offset_(offset), table_(size) {
    for (std::size_t n = 0; n < size; ++n) table_[n] = std::lgamma(static_cast<double>(n) + offset);
  }
  double operator()(std::int64_t n) const {
    return static_cast<std::size_t>(n) < table_.size() ? table_[static_cast<std::size_t>(n)]
                                                       : std::lgamma(static_cast<double>(n) + offset_);
  }

 private:
  double offset_;
  std::vector<double> table_;
};

// The dense kernel's weights p[k] = (n_dk + alpha_k)(n_wk + eta_w) / (n_k + E) for every
// topic, and their sums over blocks of 8 topics; returns the total. Compiled twice, for
// AVX2 and for the baseline, and picked at load time by the processor.
__attribute__((target_clones("avx2", "default"))) double topic_weights(const std::int32_t* nd, const std::int32_t* nw,
                                                                       const double* alpha, const double* inv, double ew,
                                                                       std::uint32_t K, double* p, double* blocks) {
  for (std::uint32_t k = 0; k < K; ++k) p[k] = (nd[k] + alpha[k]) * (nw[k] + ew) * inv[k];
  const std::uint32_t full = K / block;
  double total = 0;
  for (std::uint32_t b = 0; b < full; ++b) {
    const double* q = p + b * block;
    blocks[b] = ((q[0] + q[1]) + (q[2] + q[3])) + ((q[4] + q[5]) + (q[6] + q[7]));
  }
  if (full * block < K) {
    double sum = 0;
    for (std::uint32_t k = full * block; k < K; ++k) sum += p[k];
    blocks[full] = sum;
  }
  for (std::uint32_t b = 0; b < (K + block - 1) / block; ++b) total += blocks[b];
  return total;
}

bool all_equal(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v[0]; });
}

}  // namespace

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
struct engine::token_arrays {
  const std::uint64_t* doc_start;
  const std::uint32_t* word;
  const std::uint32_t* z_index;  // null: token n is element n of z
  const double* eta;
  double* z;
  std::uint32_t topic(std::uint64_t n) const { return static_cast<std::uint32_t>(z[z_index ? z_index[n] : n]) - 1; }
  void set_topic(std::uint64_t n, std::uint32_t k) const { z[z_index ? z_index[n] : n] = k + 1.0; }
  // Document d's topic counts, rebuilt from z.
  void count_document(std::uint32_t d, std::uint32_t topics, std::int32_t* nd) const {
    std::fill(nd, nd + topics, 0);
    for (std::uint64_t n = doc_start[d]; n < doc_start[d + 1]; ++n) ++nd[topic(n)];
  }
};

engine::token_arrays engine::arrays() const {
  return {c_.doc_start.data(), c_.word.data(), c_.z_index.empty() ? nullptr : c_.z_index.data(), c_.eta.data(), z_};
}

engine::engine(corpus c, double* z) : c_(std::move(c)), z_(z) {
  const std::uint32_t K = c_.topics;
  for (double a : c_.alpha) alpha_sum_ += a;
  for (double e : c_.eta) eta_sum_ += e;
  counts_.nwk.assign(static_cast<std::size_t>(c_.words) * K, 0);
  counts_.nk.assign(K, 0);
  const token_arrays a = arrays();
  for (std::uint64_t n = 0; n < c_.word.size(); ++n) {
    const std::uint32_t k = a.topic(n);
    ++counts_.nwk[static_cast<std::size_t>(c_.word[n]) * K + k];
    ++counts_.nk[k];
  }
  derive(counts_, false);
}


// inv from nk; the sparse kernel's word lists from nwk when asked.
void engine::derive(topic_counts& t, bool lists) const {
  const std::uint32_t K = c_.topics;
  t.inv.resize(K);
  for (std::uint32_t k = 0; k < K; ++k) t.inv[k] = 1 / (t.nk[k] + eta_sum_);
  if (!lists) return;
  t.list.resize(t.nwk.size());
  t.pos.resize(t.nwk.size());
  t.len.assign(c_.words, 0);
  for (std::uint32_t w = 0; w < c_.words; ++w) {
    const std::size_t row = static_cast<std::size_t>(w) * K;
    for (std::uint32_t k = 0; k < K; ++k)
      if (t.nwk[row + k] > 0) {
        t.pos[row + k] = static_cast<std::uint16_t>(t.len[w]);
        t.list[row + t.len[w]++] = static_cast<std::uint16_t>(k);
      }
  }
}

// The dense kernel: every topic's weight, in a loop the compiler vectorises, then block
// sums so that the search walks K / 8 blocks and at most 8 topics.
void engine::dense_documents(std::uint32_t first, std::uint32_t last, topic_counts& t, runtime::rng& rng, scratch& s,
                             std::vector<topic_move>* log) {
  const std::uint32_t K = c_.topics, B = (K + block - 1) / block;
  const double* alpha = c_.alpha.data();
  const double E = eta_sum_;
  const token_arrays a = arrays();
  std::int32_t* nwk = t.nwk.data();
  std::int32_t* nd = s.nd.data();
  std::int32_t* nk = t.nk.data();
  double* inv = t.inv.data();
  double* p = s.p.data();
  double* blocks = s.blocks.data();
  for (std::uint32_t d = first; d < last; ++d) {
    a.count_document(d, K, nd);
    for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) {
      const std::uint32_t w = a.word[n], old = a.topic(n);
      std::int32_t* nw = nwk + static_cast<std::size_t>(w) * K;
      const double ew = a.eta[w];
      --nd[old], --nw[old], --nk[old];
      inv[old] = 1 / (nk[old] + E);
      double u = runtime::unit_uniform(rng) * topic_weights(nd, nw, alpha, inv, ew, K, p, blocks);
      std::uint32_t b = 0;
      while (b + 1 < B && u >= blocks[b]) u -= blocks[b++];
      std::uint32_t k = b * block;
      const std::uint32_t end = std::min(K, k + block);
      while (k + 1 < end && u >= p[k]) u -= p[k++];
      ++nd[k], ++nw[k], ++nk[k];
      inv[k] = 1 / (nk[k] + E);
      if (k != old) {
        a.set_topic(n, k);
        if (log) log->push_back({w, static_cast<std::uint16_t>(old), static_cast<std::uint16_t>(k)});
      }
    }
  }
}

// The sparse kernel (Yao, Mimno & McCallum 2009, section 3). With c_k = 1 / (n_k + E):
//   weight_k = alpha_k eta_w c_k            (s: smoothing, summed over all topics)
//            + n_dk eta_w c_k               (r: the document's topics)
//            + (alpha_k + n_dk) c_k n_wk    (q: the word's topics)
// S = sum alpha_k c_k is kept up to date across the sweep, R = sum n_dk c_k across a
// document, and coef_k = (alpha_k + n_dk) c_k for every topic; q is summed afresh over the
// word's list for every token.
void engine::sparse_documents(std::uint32_t first, std::uint32_t last, topic_counts& t, runtime::rng& rng, scratch& s,
                              std::vector<topic_move>* log) {
  const std::uint32_t K = c_.topics;
  const double* alpha = c_.alpha.data();
  const double E = eta_sum_;
  const token_arrays a = arrays();
  std::int32_t* nwk = t.nwk.data();
  const std::uint16_t* lists = t.list.data();
  const std::uint32_t* lengths = t.len.data();
  std::int32_t* nd = s.nd.data();
  std::int32_t* nk = t.nk.data();
  double* inv = t.inv.data();
  double* coef = s.coef.data();
  double* q = s.p.data();
  std::uint16_t* dlist = s.doc_list.data();
  std::uint16_t* dpos = s.doc_pos.data();
  double S = 0;
  for (std::uint32_t k = 0; k < K; ++k) {
    S += alpha[k] * inv[k];
    coef[k] = alpha[k] * inv[k];
  }
  for (std::uint32_t d = first; d < last; ++d) {
    a.count_document(d, K, nd);
    std::uint32_t dlen = 0;
    double R = 0;
    for (std::uint32_t k = 0; k < K; ++k)
      if (nd[k] > 0) {
        dpos[k] = static_cast<std::uint16_t>(dlen);
        dlist[dlen++] = static_cast<std::uint16_t>(k);
        R += nd[k] * inv[k];
        coef[k] = (alpha[k] + nd[k]) * inv[k];
      }
    for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) {
      const std::uint32_t w = a.word[n], old = a.topic(n);
      const std::size_t row = static_cast<std::size_t>(w) * K;
      std::int32_t* nw = nwk + row;
      const double ew = a.eta[w];
      // Take the token out.
      S -= alpha[old] * inv[old];
      R -= nd[old] * inv[old];
      --nd[old], --nw[old], --nk[old];
      inv[old] = 1 / (nk[old] + E);
      S += alpha[old] * inv[old];
      R += nd[old] * inv[old];
      coef[old] = (alpha[old] + nd[old]) * inv[old];
      if (nw[old] == 0) t.list_remove(row, w, old);
      if (nd[old] == 0) {
        const std::uint16_t i = dpos[old], moved = dlist[--dlen];
        dlist[i] = moved;
        dpos[moved] = i;
      }
      // The word bucket, term by term.
      const std::uint16_t* wl = lists + row;
      const std::uint32_t wlen = lengths[w];
      double Q = 0;
      for (std::uint32_t i = 0; i < wlen; ++i) Q += q[i] = coef[wl[i]] * nw[wl[i]];
      double u = runtime::unit_uniform(rng) * (Q + ew * (R + S));
      std::uint32_t k = K;
      if (u < Q) {
        std::uint32_t i = 0;
        while (i + 1 < wlen && u >= q[i]) u -= q[i++];
        k = wl[i];
      } else {
        u = (u - Q) / ew;
        if (u < R) {
          std::uint32_t i = 0;
          for (; i + 1 < dlen; ++i) {
            const double r = nd[dlist[i]] * inv[dlist[i]];
            if (u < r) break;
            u -= r;
          }
          k = dlist[i];
        } else {
          u -= R;
          k = 0;
          for (; k + 1 < K; ++k) {
            const double r = alpha[k] * inv[k];
            if (u < r) break;
            u -= r;
          }
        }
      }
      // Put it back with topic k.
      S -= alpha[k] * inv[k];
      R -= nd[k] * inv[k];
      ++nd[k], ++nw[k], ++nk[k];
      inv[k] = 1 / (nk[k] + E);
      S += alpha[k] * inv[k];
      R += nd[k] * inv[k];
      coef[k] = (alpha[k] + nd[k]) * inv[k];
      if (nw[k] == 1) t.list_add(row, w, k);
      if (nd[k] == 1) {
        dpos[k] = static_cast<std::uint16_t>(dlen);
        dlist[dlen++] = static_cast<std::uint16_t>(k);
      }
      if (k != old) {
        a.set_topic(n, k);
        if (log) log->push_back({w, static_cast<std::uint16_t>(old), static_cast<std::uint16_t>(k)});
      }
    }
    for (std::uint32_t i = 0; i < dlen; ++i) coef[dlist[i]] = alpha[dlist[i]] * inv[dlist[i]];
  }
}

void engine::documents(kernel k, std::uint32_t first, std::uint32_t last, topic_counts& t, runtime::rng& rng, scratch& s,
                       std::vector<topic_move>* log) {
  if (k == kernel::sparse) sparse_documents(first, last, t, rng, s, log);
  else dense_documents(first, last, t, rng, s, log);
}

void engine::sweep(runtime::rng& rng, kernel k, int threads) {
  const bool lists = k == kernel::sparse;
  if (lists && c_.topics > 65535) throw std::invalid_argument("the sparse LDA kernel takes at most 65535 topics");
  if (lists && !lists_ready_) {
    derive(counts_, true);
    copies_ready_ = false;
  }
  lists_ready_ = lists;
  threads = static_cast<int>(std::min<std::uint32_t>(static_cast<std::uint32_t>(std::max(threads, 1)), c_.documents));
  if (threads > 1) return parallel_sweep(rng, k, threads);
  copies_ready_ = false;
  scratch s(c_.topics);
  documents(k, 0, c_.documents, counts_, rng, s);
}

// Moves another thread made, applied to a copy of the counts.
void engine::replay(topic_counts& t, const std::vector<topic_move>& moves, bool lists) const {
  const std::uint32_t K = c_.topics;
  for (const topic_move& m : moves) {
    const std::size_t row = static_cast<std::size_t>(m.word) * K;
    if (--t.nwk[row + m.from] == 0 && lists) t.list_remove(row, m.word, m.from);
    if (++t.nwk[row + m.to] == 1 && lists) t.list_add(row, m.word, m.to);
    --t.nk[m.from];
    ++t.nk[m.to];
  }
}

void engine::parallel_sweep(runtime::rng& rng, kernel k, int threads) {
  const bool lists = k == kernel::sparse;
  const auto T = static_cast<std::size_t>(threads);
  // Blocks of documents with about the same number of tokens.
  if (block_start_.size() != T + 1) {
    block_start_.assign(1, 0);
    const std::uint64_t tokens = c_.word.size();
    for (std::size_t b = 1; b < T; ++b) {
      auto it = std::lower_bound(c_.doc_start.begin(), c_.doc_start.end() - 1, tokens * b / T);
      block_start_.push_back(std::max(block_start_.back(), static_cast<std::uint32_t>(it - c_.doc_start.begin())));
    }
    block_start_.push_back(c_.documents);
    copies_ready_ = false;
  }
  for (auto& l : logs_) l.resize(T);
  // One stream per thread, seeded from the chain's stream.
  std::vector<runtime::rng> streams;
  for (std::size_t b = 0; b < T; ++b) {
    std::seed_seq seq{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(b)};
    streams.emplace_back(seq);
  }
  auto counts_of = [&](std::size_t b) -> topic_counts& { return b == 0 ? counts_ : copies_[b - 1]; };
  if (!pool_ || pool_->size() != T) pool_ = std::make_unique<runtime::thread_pool>(T);
  auto on_threads = [&](const std::function<void(std::size_t)>& fn) { pool_->run(fn); };
  if (!copies_ready_) {
    // Each thread copies the counts itself, so that its copy sits in its own memory.
    copies_.resize(T - 1);
    on_threads([&](std::size_t b) {
      if (b > 0) copies_[b - 1] = topic_counts(counts_);
    });
    copies_ready_ = true;
  }
  // The documents of thread b's block in a stage: an equal share of the block's tokens.
  auto stage_start = [&](std::size_t b, std::uint64_t stage, std::uint64_t stages) {
    const std::uint64_t first = c_.doc_start[block_start_[b]], last = c_.doc_start[block_start_[b + 1]];
    auto it = std::lower_bound(c_.doc_start.begin() + block_start_[b], c_.doc_start.begin() + block_start_[b + 1],
                               first + (last - first) * stage / stages);
    return static_cast<std::uint32_t>(it - c_.doc_start.begin());
  };
  // Thread b brings its copy up to date with the moves the others logged in a stage.
  auto catch_up = [&](std::size_t b, const std::vector<std::vector<topic_move>>& logs) {
    topic_counts& t = counts_of(b);
    for (std::size_t other = 0; other < T; ++other)
      if (other != b) replay(t, logs[other], lists);
    derive(t, false);
  };
  // Stage s logs into logs_[s % 2] while catching up from logs_[(s - 1) % 2], so one
  // barrier per stage suffices.
  const auto stages = static_cast<std::uint64_t>(std::max(sync_stages, 1));
  for (std::uint64_t stage = 0; stage < stages; ++stage) {
    on_threads([&](std::size_t b) {
      if (stage > 0) catch_up(b, logs_[(stage - 1) % 2]);
      // The thread's stream, log and working space are local: next to the other threads'
      // in memory, they would share cache lines written at every token.
      runtime::rng stream = streams[b];
      scratch space(c_.topics);
      std::vector<topic_move> log;
      log.swap(logs_[stage % 2][b]);
      log.clear();
      documents(k, stage_start(b, stage, stages), stage_start(b, stage + 1, stages), counts_of(b), stream, space, &log);
      log.swap(logs_[stage % 2][b]);
      streams[b] = stream;
    });
  }
  on_threads([&](std::size_t b) { catch_up(b, logs_[(stages - 1) % 2]); });
}

// Both terms are Dirichlet-multinomials, sum_k lgamma(n_k + a_k) - lgamma(a_k) +
// lgamma(sum a) - lgamma(n + sum a), one per document (log p(z)) and one per topic
// (log p(w | z)); topics or words with a zero count add nothing to the first sum.
double engine::log_joint() const {
  const std::uint32_t K = c_.topics;
  const bool symmetric_alpha = all_equal(c_.alpha), symmetric_eta = all_equal(c_.eta);
  std::vector<double> log_alpha_plus(symmetric_alpha ? 4096 : 0);
  for (std::size_t c = 0; c < log_alpha_plus.size(); ++c) log_alpha_plus[c] = std::log(c_.alpha[0] + static_cast<double>(c));
  const lgamma_counts alpha_total(alpha_sum_), eta_terms(c_.eta[0]);
  // Shared between the threads of a parallel sweep when there are some: documents and
  // words in equal ranges.
  const std::size_t T = pool_ ? pool_->size() : 1;
  const token_arrays a = arrays();
  std::vector<double> parts(T, 0.0);
  auto part = [&](std::size_t b) {
    double lp = 0;
    // log p(z), token by token: lgamma(n + a) - lgamma(a) = sum_{c < n} log(a + c), so
    // each token adds log(alpha_k + the count of its topic before it in the document).
    // O(tokens), where scanning every document's K counts would be O(documents x K).
    std::vector<std::int32_t> nd(K, 0);
    for (std::uint64_t d = c_.documents * b / T; d < c_.documents * (b + 1) / T; ++d) {
      lp += std::lgamma(alpha_sum_) - alpha_total(static_cast<std::int64_t>(c_.doc_start[d + 1] - c_.doc_start[d]));
      for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) {
        const std::uint32_t k = a.topic(n);
        const auto c = static_cast<std::size_t>(nd[k]++);
        lp += c < log_alpha_plus.size() ? log_alpha_plus[c] : std::log(c_.alpha[k] + static_cast<double>(c));
      }
      for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) nd[a.topic(n)] = 0;
    }
    // log p(w | z).
    if (b == 0)
      for (std::uint32_t k = 0; k < K; ++k) lp += std::lgamma(eta_sum_) - std::lgamma(counts_.nk[k] + eta_sum_);
    for (std::uint64_t w = c_.words * b / T; w < c_.words * (b + 1) / T; ++w) {
      const std::int32_t* nw = counts_.nwk.data() + w * K;
      for (std::uint32_t k = 0; k < K; ++k)
        if (nw[k] > 0)
          lp += symmetric_eta ? eta_terms(nw[k]) - eta_terms(0) : std::lgamma(nw[k] + c_.eta[w]) - std::lgamma(c_.eta[w]);
    }
    parts[b] = lp;
  };
  if (T > 1) pool_->run(part);
  else part(0);
  double lp = 0;
  for (double x : parts) lp += x;
  return lp;
}

double completion::perplexity() const {
  return tokens == 0 ? NAN : std::exp(-log_likelihood / static_cast<double>(tokens));
}

completion engine::complete(const held_out& heldout, runtime::rng& rng, int sweeps) const {
  const std::uint32_t K = c_.topics;
  std::vector<double> phi(static_cast<std::size_t>(c_.words) * K);  // word-major, as nwk
  for (std::uint32_t w = 0; w < c_.words; ++w)
    for (std::uint32_t k = 0; k < K; ++k)
      phi[static_cast<std::size_t>(w) * K + k] = (counts_.nwk[static_cast<std::size_t>(w) * K + k] + c_.eta[w]) * counts_.inv[k];
  completion out;
  std::vector<std::int32_t> nd(K);
  std::vector<std::uint32_t> z;
  std::vector<double> p(K), theta(K);
  for (std::size_t d = 0; d + 1 < heldout.doc_start.size(); ++d) {
    const std::uint64_t first = heldout.doc_start[d], last = heldout.doc_start[d + 1];
    const std::size_t observed = static_cast<std::size_t>((last - first + 1) / 2);
    if (last - first < 2) continue;
    std::fill(nd.begin(), nd.end(), 0);
    z.resize(observed);
    for (auto& k : z) ++nd[k = static_cast<std::uint32_t>(runtime::unit_uniform(rng) * K)];
    std::fill(theta.begin(), theta.end(), 0.0);
    int kept = 0;
    for (int s = 0; s < sweeps; ++s) {
      for (std::size_t i = 0; i < observed; ++i) {
        const double* pw = phi.data() + static_cast<std::size_t>(heldout.word[first + 2 * i]) * K;
        --nd[z[i]];
        double total = 0;
        for (std::uint32_t k = 0; k < K; ++k) p[k] = total += (nd[k] + c_.alpha[k]) * pw[k];
        const double u = runtime::unit_uniform(rng) * total;
        std::uint32_t k = 0;
        while (k + 1 < K && p[k] <= u) ++k;
        ++nd[z[i] = k];
      }
      if (2 * s >= sweeps) {
        for (std::uint32_t k = 0; k < K; ++k) theta[k] += (nd[k] + c_.alpha[k]) / (static_cast<double>(observed) + alpha_sum_);
        ++kept;
      }
    }
    for (std::uint64_t n = first + 1; n < last; n += 2) {
      const double* pw = phi.data() + static_cast<std::size_t>(heldout.word[n]) * K;
      double like = 0;
      for (std::uint32_t k = 0; k < K; ++k) like += theta[k] / kept * pw[k];
      out.log_likelihood += std::log(like);
      ++out.tokens;
    }
  }
  return out;
}

void engine::theta_means(double* out) const {
  const std::uint32_t K = c_.topics;
  std::vector<std::int32_t> nd(K);
  const token_arrays a = arrays();
  for (std::uint32_t d = 0; d < c_.documents; ++d) {
    a.count_document(d, K, nd.data());
    const double total = static_cast<double>(c_.doc_start[d + 1] - c_.doc_start[d]) + alpha_sum_;
    for (std::uint32_t k = 0; k < K; ++k) out[static_cast<std::size_t>(d) * K + k] = (nd[k] + c_.alpha[k]) / total;
  }
}

void engine::phi_means(double* out) const {
  const std::uint32_t K = c_.topics, V = c_.words;
  for (std::uint32_t k = 0; k < K; ++k) {
    const double total = counts_.nk[k] + eta_sum_;
    for (std::uint32_t w = 0; w < V; ++w)
      out[static_cast<std::size_t>(k) * V + w] = (counts_.nwk[static_cast<std::size_t>(w) * K + k] + c_.eta[w]) / total;
  }
}

}  // namespace ppl::samplers::lda
