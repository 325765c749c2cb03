#pragma once
// A statement argument dot(A[...], B[...]) whose two blocks sit at places that do not
// depend on unknowns (a rating's u[user[r]] . v[item[r]]): the places are found once, and
// each instance's product is then read from the two variables' storage in place, with no
// evaluation. Used by the conjugate update of a vector's Normal children and by the
// held-out predictions of matrix factorisation.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "lang/ir.hpp"
#include "model/graph.hpp"

namespace ppl::samplers {

struct dot_rows {
  int left = -1, right = -1;  // the two variables
  const lang::ir::expr* left_ref = nullptr;
  const lang::ir::expr* right_ref = nullptr;
  ppl::index_t size = 0;  // the blocks' length
  std::vector<ppl::index_t> left_offsets, right_offsets;  // per instance, in instance order

  // The product at instance i, from the variables' current values.
  double at(const model::graph& g, std::size_t i) const {
    const double* a = g.value(left).data.data() + left_offsets[i];
    const double* b = g.value(right).data.data() + right_offsets[i];
    double sum = 0;
    for (ppl::index_t k = 0; k < size; ++k) sum += a[k] * b[k];
    return sum;
  }
};

// Fills `out` and returns true when `arg` (an argument of `s`) is such a product; false
// otherwise, `out` then unspecified.
bool read_dot_rows(model::graph& g, const lang::ir::statement& s, const lang::ir::expr& arg, dot_rows& out);

// The children y ~ Normal(dot(v-block, x-block), s) of a vector v's conjugate update (a
// rating in matrix factorisation), both blocks at fixed places and s fixed: the
// coefficients are read in place from the other variable x, with weight 1 / s^2. The
// children are sorted by the block of v they add to, so that a block's statistics stay in
// cache while its children are summed (the ratings of one item, read by item), in runs:
// (v's block offset, the end of its run); per child, x's block offset and the value's, in
// 32 bits: 12 bytes a child with the weight shared, not 40.
struct dot_children {
  int other = -1;          // x; -1: not such children
  int value_variable = -1;  // y's
  ppl::index_t block = 0;  // the blocks' length
  std::vector<std::pair<ppl::index_t, std::uint32_t>> runs;
  std::vector<std::uint32_t> other_at, value_at;
  std::vector<double> weights;  // 1 / s^2: one where s is the same for every child, else one each

  // The runs whose block of v lies in [from, to): [first, last) (the runs are by block).
  std::pair<std::size_t, std::size_t> runs_in(ppl::index_t from, ppl::index_t to) const {
    const auto below = [](const std::pair<ppl::index_t, std::uint32_t>& run, ppl::index_t e) { return run.first < e; };
    const auto first = std::lower_bound(runs.begin(), runs.end(), from, below);
    const auto last = std::lower_bound(first, runs.end(), to, below);
    return {static_cast<std::size_t>(first - runs.begin()), static_cast<std::size_t>(last - runs.begin())};
  }
  // How many children runs [first, last) hold.
  std::size_t children(std::size_t first, std::size_t last) const {
    return first == last ? 0 : runs[last - 1].second - (first == 0 ? 0 : runs[first - 1].second);
  }

  // Calls add(x's block, y, weight, v's block offset) for each child, a run at a time.
  template <typename Add>
  void for_each(const model::graph& g, Add&& add) const {
    for_each(g, 0, runs.size(), add);
  }
  // The same for the children of runs [first, last) alone (a process's share of the blocks).
  template <typename Add>
  void for_each(const model::graph& g, std::size_t first, std::size_t last, Add&& add) const {
    const double* x = g.value(other).data.data();
    const double* y = g.value(value_variable).data.data();
    const bool shared = weights.size() == 1;
    std::size_t i = first == 0 ? 0 : runs[first - 1].second;
    // The other blocks are read in no order (an item's raters among all the users): each is
    // fetched `ahead` children early, so that its cache misses overlap the sums before it.
    constexpr std::size_t ahead = 12;
    const std::size_t n = other_at.size();
    for (std::size_t r = first; r < last; ++r)
      for (const std::size_t end = runs[r].second; i < end; ++i) {
        if (i + ahead < n) {
          const double* next = x + other_at[i + ahead];
          __builtin_prefetch(next);
          __builtin_prefetch(next + block - 1);
        }
        add(x + other_at[i], y[value_at[i]], weights[shared ? 0 : i], runs[r].first);
      }
  }
};

// Fills `out` for the `count` instances of `s` (their loop values in `loops`) when its first
// argument is dot(ref, x) or dot(x, ref) with `ref` a block of `variable`, x another
// variable's block (not derived), both at places free of unknowns, and its second a scalar
// free of unknowns; false otherwise, `out` then unspecified. When it returns true `loops` has
// been read whole and is emptied, its memory released before the children are sorted (at
// Netflix's 100M ratings the table is 800 MB of the setup's peak).
bool read_dot_children(model::graph& g, const lang::ir::statement& s, std::vector<ppl::index_t>& loops, std::size_t count,
                       const lang::ir::expr* ref, int variable, dot_children& out);

}  // namespace ppl::samplers
