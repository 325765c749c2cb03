// Document completion for LDA's held-out perplexity (lda.hpp; Wallach et al. 2009).
#include <cmath>
#include <cstdint>
#include <vector>

#include "samplers/lda_internal.hpp"

namespace ppl::samplers::lda {

double completion::perplexity() const {
  return tokens == 0 ? NAN : std::exp(-log_likelihood / static_cast<double>(tokens));
}

completion engine::complete(const held_out& heldout, ppl::rng& rng, int sweeps) const {
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
    for (auto& k : z) ++nd[k = static_cast<std::uint32_t>(ppl::unit_uniform(rng) * K)];
    std::fill(theta.begin(), theta.end(), 0.0);
    int kept = 0;
    for (int s = 0; s < sweeps; ++s) {
      for (std::size_t i = 0; i < observed; ++i) {
        const double* pw = phi.data() + static_cast<std::size_t>(heldout.word[first + 2 * i]) * K;
        --nd[z[i]];
        double total = 0;
        for (std::uint32_t k = 0; k < K; ++k) p[k] = total += (nd[k] + c_.alpha[k]) * pw[k];
        const double u = ppl::unit_uniform(rng) * total;
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

}  // namespace ppl::samplers::lda
