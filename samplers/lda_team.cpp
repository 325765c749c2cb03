// A sweep shared by the processes of a team: AD-LDA (Newman, Asuncion, Smyth & Welling
// 2009, section 3) with the processes as its P workers (lda.hpp). Each samples its own
// documents against its copy of the counts; the moves are then exchanged over the team,
// after which every copy holds the counts of the current z.
#include <algorithm>

#include "samplers/lda_internal.hpp"

namespace ppl::samplers::lda {

// Every process's moves (word, old topic, new topic; `sizes` per process) applied to the
// counts, but this process's own, which its sweep made in place.
void engine::apply_moves(const std::vector<std::uint32_t>& moves, const std::vector<std::size_t>& sizes, kernel k) {
  const std::uint32_t K = c_.topics;
  std::size_t at = 0;
  for (std::size_t p = 0; p < sizes.size(); ++p) {
    const std::size_t end = at + sizes[p];
    if (static_cast<int>(p) != team_->rank())
      for (std::size_t i = at; i + 2 < end; i += 3) {
        const std::size_t row = static_cast<std::size_t>(moves[i]) * K;
        --counts_.nwk[row + moves[i + 1]], --counts_.nk[moves[i + 1]];
        ++counts_.nwk[row + moves[i + 2]], ++counts_.nk[moves[i + 2]];
      }
    at = end;
  }
  derive(counts_, k == kernel::sparse);
}

void engine::team_sweep(ppl::rng& rng, kernel k) {
  const auto R = static_cast<std::uint64_t>(team_->size()), r = static_cast<std::uint64_t>(team_->rank());
  // This process's documents: those whose first token falls in its share of the tokens.
  const std::uint64_t tokens = c_.word.size();
  auto first_of = [&](std::uint64_t q) {
    return static_cast<std::uint32_t>(std::lower_bound(c_.doc_start.begin(), c_.doc_start.end() - 1, tokens * q / R) - c_.doc_start.begin());
  };
  const std::uint32_t first = first_of(r), last = r + 1 == R ? c_.documents : first_of(r + 1);
  // A stream of its own, seeded from the chain's (which every process advances alike), so
  // that the processes' draws are independent and the chain's next numbers the same.
  const std::uint64_t seed = rng();
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(r)};
  ppl::rng own(seq);
  scratch s(c_.topics);
  const std::uint64_t from = c_.doc_start[first], to = c_.doc_start[last];
  std::uint32_t done = first;
  for (int stage = 1; stage <= std::max(team_stages, 1); ++stage) {
    // Every process takes part in every stage, with no documents left or not.
    const std::uint64_t upto = from + (to - from) * static_cast<std::uint64_t>(stage) / static_cast<std::uint64_t>(std::max(team_stages, 1));
    std::uint32_t next = done;
    while (next < last && c_.doc_start[next] < upto) ++next;
    if (stage == std::max(team_stages, 1)) next = last;
    const token_arrays a = arrays();
    const std::uint64_t lo = c_.doc_start[done], hi = c_.doc_start[next];
    std::vector<std::uint32_t> before(hi - lo);
    for (std::uint64_t n = lo; n < hi; ++n) before[n - lo] = a.topic(n);
    documents(k, a, done, next, counts_.view(), own, s);
    done = next;
    std::vector<std::uint32_t> moves;
    for (std::uint64_t n = lo; n < hi; ++n)
      if (const std::uint32_t now = a.topic(n); now != before[n - lo]) moves.insert(moves.end(), {a.word[n], before[n - lo], now});
    std::vector<std::size_t> sizes;
    team_->gather(moves, sizes);
    apply_moves(moves, sizes, k);
  }
  // log p(z) needs every document's z, which only its own process has: each adds its part.
  team_documents_lp_ = team_->sum(log_joint_parts(first, last, false));
}

}  // namespace ppl::samplers::lda
