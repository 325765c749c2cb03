// LDA's collapsed Gibbs sweeps: see lda.hpp. Built with -O3 (CMakeLists.txt) so that the
// dense kernel's loop over topics is vectorised.
#include "samplers/lda.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <stdexcept>

#include "stdlib/log_gamma.hpp"

namespace ppl::samplers::lda {

namespace {

constexpr std::uint32_t block = 8;  // topics per block of the dense kernel's search

// lgamma(n + offset) for counts n, tabulated for small n when the offset is shared.
class lgamma_counts {
 public:
  explicit lgamma_counts(double offset, std::size_t size = 4096) : offset_(offset), table_(size) {
    for (std::size_t n = 0; n < size; ++n) table_[n] = stdlib::log_gamma(static_cast<double>(n) + offset);
  }
  double operator()(std::int64_t n) const {
    return static_cast<std::size_t>(n) < table_.size() ? table_[static_cast<std::size_t>(n)]
                                                       : stdlib::log_gamma(static_cast<double>(n) + offset_);
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

engine::token_arrays engine::arrays() const {
  return {c_.doc_start.data(), c_.word.data(), c_.z_index.empty() ? nullptr : c_.z_index.data(), c_.eta.data(), z_,
          c_.doc_start.data()};
}

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

engine::~engine() = default;


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
void engine::dense_documents(const token_arrays& a, std::uint32_t first, std::uint32_t last, count_view t,
                             runtime::rng& rng, scratch& s) {
  const std::uint32_t K = c_.topics, B = (K + block - 1) / block;
  const double* alpha = c_.alpha.data();
  const double E = eta_sum_;
  std::int32_t* nwk = t.nwk;
  std::int32_t* nd = s.nd.data();
  std::int32_t* nk = t.nk;
  double* inv = t.inv;
  double* p = s.p.data();
  double* blocks = s.blocks.data();
  for (std::uint32_t d = first; d < last; ++d) {
    const std::uint64_t end = a.last(d);
    if (a.first(d) == end) continue;
    a.count_document(d, K, nd);
    for (std::uint64_t n = a.first(d); n < end; ++n) {
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
      if (k != old) a.set_topic(n, k);
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
void engine::sparse_documents(const token_arrays& a, std::uint32_t first, std::uint32_t last, count_view t,
                              runtime::rng& rng, scratch& s) {
  const std::uint32_t K = c_.topics;
  const double* alpha = c_.alpha.data();
  const double E = eta_sum_;
  std::int32_t* nwk = t.nwk;
  std::uint16_t* lists = t.list;
  std::uint16_t* positions = t.pos;
  std::uint32_t* lengths = t.len;
  std::int32_t* nd = s.nd.data();
  std::int32_t* nk = t.nk;
  double* inv = t.inv;
  double* coef = s.coef.data();
  double* q = s.p.data();
  std::uint16_t* dlist = s.doc_list.data();
  std::uint16_t* dpos = s.doc_pos.data();
  double S = 0;
  for (std::uint32_t k = 0; k < K; ++k) {
    S += alpha[k] * inv[k];
    coef[k] = alpha[k] * inv[k];
  }
  // A word's list of topics with n_wk > 0, and each topic's position in it.
  auto list_add = [&](std::size_t row, std::uint32_t w, std::uint32_t k) {
    positions[row + k] = static_cast<std::uint16_t>(lengths[w]);
    lists[row + lengths[w]++] = static_cast<std::uint16_t>(k);
  };
  auto list_remove = [&](std::size_t row, std::uint32_t w, std::uint32_t k) {
    const std::uint16_t i = positions[row + k], moved = lists[row + --lengths[w]];
    lists[row + i] = moved;
    positions[row + moved] = i;
  };
  for (std::uint32_t d = first; d < last; ++d) {
    const std::uint64_t end = a.last(d);
    if (a.first(d) == end) continue;
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
    for (std::uint64_t n = a.first(d); n < end; ++n) {
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
      if (nw[old] == 0) list_remove(row, w, old);
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
      if (nw[k] == 1) list_add(row, w, k);
      if (nd[k] == 1) {
        dpos[k] = static_cast<std::uint16_t>(dlen);
        dlist[dlen++] = static_cast<std::uint16_t>(k);
      }
      if (k != old) a.set_topic(n, k);
    }
    for (std::uint32_t i = 0; i < dlen; ++i) coef[dlist[i]] = alpha[dlist[i]] * inv[dlist[i]];
  }
}

void engine::documents(kernel k, const token_arrays& a, std::uint32_t first, std::uint32_t last, count_view t,
                       runtime::rng& rng, scratch& s) {
  if (k == kernel::sparse) sparse_documents(a, first, last, t, rng, s);
  else dense_documents(a, first, last, t, rng, s);
}

void engine::sweep(runtime::rng& rng, kernel k, int threads) {
  const bool lists = k == kernel::sparse;
  if (lists && c_.topics > 65535) throw std::invalid_argument("the sparse LDA kernel takes at most 65535 topics");
  if (lists && !lists_ready_) derive(counts_, true);
  lists_ready_ = lists;
  const auto T = static_cast<std::size_t>(threads_used(threads));
  if (T > 1) return parallel_sweep(rng, k, T);
  scratch s(c_.topics);
  documents(k, arrays(), 0, c_.documents, counts_.view(), rng, s);
}

int engine::threads_used(int threads) const {
  return static_cast<int>(std::min<std::uint32_t>(static_cast<std::uint32_t>(std::max(threads, 1)), std::max(c_.documents, 1u)));
}

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

void engine::parallel_sweep(runtime::rng& rng, kernel k, std::size_t T) {
  const auto chunks = static_cast<std::size_t>(merges_per_sweep(static_cast<int>(T))) / T;
  if (!partition_ || partition_->threads != T || partition_->chunks != chunks) partition_ = make_partition(T, chunks);
  const partition& P = *partition_;
  const std::uint32_t K = c_.topics;
  // One stream per thread, seeded from the chain's stream.
  std::vector<runtime::rng> streams;
  for (std::size_t b = 0; b < T; ++b) {
    std::seed_seq seq{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(b)};
    streams.emplace_back(seq);
  }
  if (!pool_ || pool_->size() != T) pool_ = std::make_unique<runtime::thread_pool>(T);
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
      runtime::rng stream = streams[b];
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
      lp += stdlib::log_gamma(alpha_sum_) - alpha_total(static_cast<std::int64_t>(c_.doc_start[d + 1] - c_.doc_start[d]));
      for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) {
        const std::uint32_t k = a.topic(n);
        const auto c = static_cast<std::size_t>(nd[k]++);
        lp += c < log_alpha_plus.size() ? log_alpha_plus[c] : std::log(c_.alpha[k] + static_cast<double>(c));
      }
      for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) nd[a.topic(n)] = 0;
    }
    // log p(w | z).
    if (b == 0)
      for (std::uint32_t k = 0; k < K; ++k) lp += stdlib::log_gamma(eta_sum_) - stdlib::log_gamma(counts_.nk[k] + eta_sum_);
    for (std::uint64_t w = c_.words * b / T; w < c_.words * (b + 1) / T; ++w) {
      const std::int32_t* nw = counts_.nwk.data() + w * K;
      for (std::uint32_t k = 0; k < K; ++k)
        if (nw[k] > 0)
          lp += symmetric_eta ? eta_terms(nw[k]) - eta_terms(0) : stdlib::log_gamma(nw[k] + c_.eta[w]) - stdlib::log_gamma(c_.eta[w]);
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
