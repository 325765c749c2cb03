// LDA's engine: its counts and the serial sweep's kernels, dense and sparse (lda.hpp).
// Built with -O3 (CMakeLists.txt) so that the dense kernel's loop over topics is
// vectorised. The parallel sweep is in lda_partition.cpp, log p(w, z) and theta and phi
// given z in lda_posterior.cpp, document completion in lda_heldout.cpp.
#include "samplers/lda.hpp"

#include <algorithm>
#include <stdexcept>

#include "samplers/lda_internal.hpp"

namespace ppl::samplers::lda {

namespace {

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

}  // namespace

engine::token_arrays engine::arrays() const {
  return {c_.doc_start.data(), c_.word.data(), c_.z_index.empty() ? nullptr : c_.z_index.data(), c_.eta.data(), z_,
          c_.doc_start.data()};
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
                             ppl::rng& rng, scratch& s) {
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
      double u = ppl::unit_uniform(rng) * topic_weights(nd, nw, alpha, inv, ew, K, p, blocks);
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
                              ppl::rng& rng, scratch& s) {
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
      double u = ppl::unit_uniform(rng) * (Q + ew * (R + S));
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
                       ppl::rng& rng, scratch& s) {
  if (k == kernel::sparse) sparse_documents(a, first, last, t, rng, s);
  else dense_documents(a, first, last, t, rng, s);
}

void engine::sweep(ppl::rng& rng, kernel k, int threads) {
  const bool lists = k == kernel::sparse;
  if (lists && c_.topics > 65535) throw std::invalid_argument("the sparse LDA kernel takes at most 65535 topics");
  if (lists && !lists_ready_) derive(counts_, true);
  lists_ready_ = lists;
  if (in_team()) return team_sweep(rng, k);
  const auto T = static_cast<std::size_t>(threads_used(threads));
  if (T > 1) return parallel_sweep(rng, k, T);
  scratch s(c_.topics);
  documents(k, arrays(), 0, c_.documents, counts_.view(), rng, s);
}

int engine::threads_used(int threads) const {
  return static_cast<int>(std::min<std::uint32_t>(static_cast<std::uint32_t>(std::max(threads, 1)), std::max(c_.documents, 1u)));
}

}  // namespace ppl::samplers::lda
