// What LDA's counts say about the model: log p(w, z) with theta and phi integrated out,
// and theta and phi given z (lda.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "samplers/dirichlet_draw.hpp"
#include "samplers/lda_internal.hpp"
#include "stdlib/log_gamma.hpp"

namespace ppl::samplers::lda {

namespace {

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

bool all_equal(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v[0]; });
}

}  // namespace

// Both terms are Dirichlet-multinomials, sum_k lgamma(n_k + a_k) - lgamma(a_k) +
// lgamma(sum a) - lgamma(n + sum a), one per document (log p(z)) and one per topic
// (log p(w | z)); topics or words with a zero count add nothing to the first sum.
double engine::log_joint() const {
  // A process of a team has only its own documents' z: their part was summed at the sweep.
  if (in_team()) return team_documents_lp_ + log_joint_parts(0, 0, true);
  return log_joint_parts(0, c_.documents, true);
}

double engine::log_joint_parts(std::uint32_t first, std::uint32_t last, bool words) const {
  const std::uint32_t K = c_.topics;
  const bool symmetric_alpha = all_equal(c_.alpha), symmetric_eta = all_equal(c_.eta);
  // No count exceeds the tokens: a small corpus (whose lp__ is computed at every kept
  // draw, as any corpus's) does not pay for tables of 4096.
  const std::size_t table = std::min<std::size_t>(4096, c_.word.size() + 1);
  std::vector<double> log_alpha_plus(symmetric_alpha ? table : 0);
  for (std::size_t c = 0; c < log_alpha_plus.size(); ++c) log_alpha_plus[c] = std::log(c_.alpha[0] + static_cast<double>(c));
  const lgamma_counts alpha_total(alpha_sum_, table), eta_terms(c_.eta[0], table);
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
    const std::uint64_t span = last - first;
    for (std::uint64_t d = first + span * b / T; d < first + span * (b + 1) / T; ++d) {
      lp += stdlib::log_gamma(alpha_sum_) - alpha_total(static_cast<std::int64_t>(c_.doc_start[d + 1] - c_.doc_start[d]));
      for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) {
        const std::uint32_t k = a.topic(n);
        const auto c = static_cast<std::size_t>(nd[k]++);
        lp += c < log_alpha_plus.size() ? log_alpha_plus[c] : std::log(c_.alpha[k] + static_cast<double>(c));
      }
      for (std::uint64_t n = a.doc_start[d]; n < a.doc_start[d + 1]; ++n) nd[a.topic(n)] = 0;
    }
    // log p(w | z).
    if (!words) {
      parts[b] = lp;
      return;
    }
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

void engine::theta_draws(double* out, ppl::rng& rng) const {
  const std::uint32_t K = c_.topics;
  std::vector<std::int32_t> nd(K);
  std::vector<double> shape(K);
  const token_arrays a = arrays();
  for (std::uint32_t d = 0; d < c_.documents; ++d) {
    a.count_document(d, K, nd.data());
    for (std::uint32_t k = 0; k < K; ++k) shape[k] = nd[k] + c_.alpha[k];
    dirichlet_draw(shape.data(), K, rng, out + static_cast<std::size_t>(d) * K);
  }
}

void engine::phi_draws(double* out, ppl::rng& rng) const {
  const std::uint32_t K = c_.topics, V = c_.words;
  std::vector<double> shape(V);
  for (std::uint32_t k = 0; k < K; ++k) {
    for (std::uint32_t w = 0; w < V; ++w) shape[w] = counts_.nwk[static_cast<std::size_t>(w) * K + k] + c_.eta[w];
    dirichlet_draw(shape.data(), V, rng, out + static_cast<std::size_t>(k) * V);
  }
}

}  // namespace ppl::samplers::lda
