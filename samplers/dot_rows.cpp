#include "samplers/dot_rows.hpp"

#include <algorithm>
#include <limits>

#include "model/build_progress.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::expr;

namespace {

// The two variables of `arg` when it is dot(A[...], B[...]) of two different variables'
// blocks (`out`'s left, right and their references); false otherwise.
bool dot_of_two(const expr& arg, dot_rows& out) {
  if (arg.which != expr::kind::call || arg.fn->name() != "dot" || arg.args.size() != 2) return false;
  out = {};
  out.left_ref = arg.args[0].get();
  out.right_ref = arg.args[1].get();
  out.left = direct_variable(*out.left_ref);
  out.right = direct_variable(*out.right_ref);
  return out.left >= 0 && out.right >= 0 && out.left != out.right;
}

// Calls at(i, left block's offset, right block's offset) for the `count` instances of `s`
// (their loop values in `loops`), in order, and sets d.size; false (part way through) at
// an instance whose two blocks are not views into the variables' own storage, of the same
// length at every instance.
template <typename At>
bool for_each_place(model::graph& g, const lang::ir::statement& s, const std::vector<ppl::index_t>& loops, std::size_t count, dot_rows& d,
                    At&& at) {
  const auto& a = g.value(d.left).data;
  const auto& b = g.value(d.right).data;
  const std::size_t depth = s.loops.size();
  for (std::size_t i = 0; i < count; ++i) {
    const ppl::index_t* l = loops.data() + i * depth;
    const ppl::view x = model::instances(g).eval_at(s, l, *d.left_ref);
    const ppl::view y = model::instances(g).eval_at(s, l, *d.right_ref);
    if (x.data < a.data() || x.data + x.size() > a.data() + a.size() || y.data < b.data() || y.data + y.size() > b.data() + b.size() ||
        x.size() != y.size() || (i > 0 && x.size() != d.size))
      return false;
    d.size = x.size();
    at(i, x.data - a.data(), y.data - b.data(), l);
    if ((i + 1) % model::report_every == 0) model::report_instances(g.model(), s, static_cast<double>(i + 1) / static_cast<double>(count));
  }
  return true;
}

// The order of the children by the block each adds to (`mine`, block offsets, multiples of
// `size` below `values`), children of one block in their own order: a counting sort,
// stable, in 4 bytes a child.
std::vector<std::uint32_t> by_block(const std::vector<std::uint32_t>& mine, ppl::index_t size, ppl::index_t values) {
  const ppl::index_t step = std::max<ppl::index_t>(size, 1);
  const auto blocks = static_cast<std::size_t>(values / step) + 1;
  std::vector<std::uint32_t> start(blocks + 1, 0);
  for (const std::uint32_t at : mine) ++start[at / static_cast<std::size_t>(step) + 1];
  for (std::size_t b = 0; b < blocks; ++b) start[b + 1] += start[b];
  std::vector<std::uint32_t> order(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) order[start[mine[i] / static_cast<std::size_t>(step)]++] = static_cast<std::uint32_t>(i);
  return order;
}

// `v` permuted into `order`, its memory released.
template <typename T>
std::vector<T> permuted(std::vector<T>& v, const std::vector<std::uint32_t>& order) {
  std::vector<T> out;
  out.reserve(order.size());
  for (const std::uint32_t i : order) out.push_back(v[i]);
  std::vector<T>().swap(v);
  return out;
}

}  // namespace

bool read_dot_rows(model::graph& g, const lang::ir::statement& s, const expr& arg, dot_rows& out) {
  if (!dot_of_two(arg, out)) return false;
  const std::vector<ppl::index_t> table = model::instances(g).table(s);
  const std::size_t count = s.loops.empty() ? 1 : table.size() / s.loops.size();
  out.left_offsets.reserve(count);
  out.right_offsets.reserve(count);
  return for_each_place(g, s, table, count, out, [&](std::size_t, ppl::index_t left, ppl::index_t right, const ppl::index_t*) {
    out.left_offsets.push_back(left);
    out.right_offsets.push_back(right);
  });
}

bool read_dot_children(model::graph& g, const lang::ir::statement& s, std::vector<ppl::index_t>& loops, std::size_t count, const expr* ref,
                       int variable, dot_children& out) {
  if (s.args.size() != 2 || s.args[1]->depends_on_unknown || s.args[1]->type.rank != 0) return false;
  dot_rows d;
  if (!dot_of_two(*s.args[0], d)) return false;
  const bool left = d.left_ref == ref;
  if ((left ? d.left : d.right) != variable || (!left && d.right_ref != ref)) return false;
  const int other = left ? d.right : d.left;
  if (g.model().variables[static_cast<std::size_t>(other)].role == lang::ir::role::derived) return false;
  constexpr auto fits = static_cast<ppl::index_t>(std::numeric_limits<std::uint32_t>::max());
  if (static_cast<ppl::index_t>(count) >= fits || g.value(other).size() >= fits || g.value(variable).size() >= fits ||
      g.value(s.target).size() >= fits)
    return false;
  // One pass over the places, 12 bytes a child (16 with a weight each), in instance order.
  std::vector<std::uint32_t> mine, theirs, values;
  std::vector<double> weights;
  mine.reserve(count), theirs.reserve(count), values.reserve(count);
  // A scale the same for every child (1 / sqrt(alpha)) is evaluated once.
  const bool one_scale = !lang::ir::uses_loop_variable(*s.args[1]);
  const auto weight = [&](const ppl::index_t* at) {
    const double scale = model::instances(g).eval_at(s, at, *s.args[1]).scalar();
    return 1 / (scale * scale);
  };
  if (!one_scale) weights.reserve(count);
  const bool placed = for_each_place(g, s, loops, count, d, [&](std::size_t, ppl::index_t l, ppl::index_t r, const ppl::index_t* at) {
    mine.push_back(static_cast<std::uint32_t>(left ? l : r));
    theirs.push_back(static_cast<std::uint32_t>(left ? r : l));
    values.push_back(static_cast<std::uint32_t>(model::instances(g).target(s, at).first));
    if (!one_scale) weights.push_back(weight(at));
  });
  if (!placed) return false;
  out = {};
  out.weights = one_scale ? std::vector<double>(1, weight(loops.data())) : std::vector<double>();
  std::vector<ppl::index_t>().swap(loops);  // every place is read: the table's 8 bytes a child go first
  // Then into the order of the blocks, an array at a time.
  const std::vector<std::uint32_t> order = by_block(mine, d.size, g.value(variable).size());
  out.other_at = permuted(theirs, order);
  out.value_at = permuted(values, order);
  if (!one_scale) out.weights = permuted(weights, order);
  for (const std::uint32_t i : order) {
    if (out.runs.empty() || out.runs.back().first != mine[i]) out.runs.push_back({mine[i], 0});
    ++out.runs.back().second;
  }
  for (std::size_t r = 1; r < out.runs.size(); ++r) out.runs[r].second += out.runs[r - 1].second;
  out.runs.shrink_to_fit();
  out.other = other;
  out.block = d.size;
  out.value_variable = s.target;
  return true;
}

}  // namespace ppl::samplers
