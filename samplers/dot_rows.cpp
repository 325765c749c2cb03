#include "samplers/dot_rows.hpp"

#include <algorithm>
#include <limits>

#include "model/build_progress.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

using lang::ir::expr;

bool read_dot_rows(model::graph& g, const lang::ir::statement& s, const expr& arg, dot_rows& out) {
  if (arg.which != expr::kind::call || arg.fn->name() != "dot" || arg.args.size() != 2) return false;
  out = {};
  out.left_ref = arg.args[0].get();
  out.right_ref = arg.args[1].get();
  out.left = direct_variable(*out.left_ref);
  out.right = direct_variable(*out.right_ref);
  if (out.left < 0 || out.right < 0 || out.left == out.right) return false;
  const auto table = model::instances(g).table(s);
  const std::size_t depth = s.loops.size(), count = depth ? table.size() / depth : 1;
  const auto& a = g.value(out.left).data;
  const auto& b = g.value(out.right).data;
  out.left_offsets.reserve(count);
  out.right_offsets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const ppl::index_t* loops = table.data() + i * depth;
    const ppl::view x = model::instances(g).eval_at(s, loops, *out.left_ref);
    const ppl::view y = model::instances(g).eval_at(s, loops, *out.right_ref);
    // Both must be views into the variables' own storage, of one length.
    if (x.data < a.data() || x.data + x.size() > a.data() + a.size() || y.data < b.data() || y.data + y.size() > b.data() + b.size() ||
        x.size() != y.size() || (i > 0 && x.size() != out.size))
      return false;
    out.size = x.size();
    out.left_offsets.push_back(x.data - a.data());
    out.right_offsets.push_back(y.data - b.data());
    if ((i + 1) % model::report_every == 0) model::report_instances(g.model(), s, static_cast<double>(i + 1) / static_cast<double>(count));
  }
  return true;
}

namespace {

// The children's numbers in the order of the blocks at offsets `mine` (each a multiple of
// `size` within `values`), children of one block in their own order: a counting sort,
// stable, in 4 bytes a child.
std::vector<std::uint32_t> by_block(const std::vector<ppl::index_t>& mine, ppl::index_t size, ppl::index_t values) {
  const ppl::index_t step = std::max<ppl::index_t>(size, 1);
  const auto blocks = static_cast<std::size_t>(values / step) + 1;
  std::vector<std::uint32_t> start(blocks + 1, 0);
  for (const ppl::index_t at : mine) ++start[static_cast<std::size_t>(at / step) + 1];
  for (std::size_t b = 0; b < blocks; ++b) start[b + 1] += start[b];
  std::vector<std::uint32_t> order(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) order[start[static_cast<std::size_t>(mine[i] / step)]++] = static_cast<std::uint32_t>(i);
  return order;
}

}  // namespace

bool read_dot_children(model::graph& g, const lang::ir::statement& s, const std::vector<ppl::index_t>& loops, std::size_t count,
                       const expr* ref, int variable, dot_children& out) {
  if (s.args.size() != 2 || s.args[1]->depends_on_unknown || s.args[1]->type.rank != 0) return false;
  dot_rows d;
  if (!read_dot_rows(g, s, *s.args[0], d)) return false;
  const bool left = d.left_ref == ref;
  if ((left ? d.left : d.right) != variable || (!left && d.right_ref != ref)) return false;
  const int other = left ? d.right : d.left;
  if (g.model().variables[static_cast<std::size_t>(other)].role == lang::ir::role::derived) return false;
  const auto& mine = left ? d.left_offsets : d.right_offsets;
  const auto& theirs = left ? d.right_offsets : d.left_offsets;
  constexpr auto fits = static_cast<ppl::index_t>(std::numeric_limits<std::uint32_t>::max());
  if (static_cast<ppl::index_t>(count) >= fits || g.value(other).size() >= fits || g.value(s.target).size() >= fits) return false;
  const std::vector<std::uint32_t> order = by_block(mine, d.size, g.value(variable).size());
  out = {};
  out.other_at.reserve(count);
  out.value_at.reserve(count);
  // A scale the same for every child (1 / sqrt(alpha)) is evaluated once.
  const bool one_scale = !lang::ir::uses_loop_variable(*s.args[1]);
  const auto weight = [&](const ppl::index_t* at) {
    const double scale = model::instances(g).eval_at(s, at, *s.args[1]).scalar();
    return 1 / (scale * scale);
  };
  if (one_scale) out.weights.assign(1, weight(loops.data()));
  else out.weights.reserve(count);
  for (std::size_t i : order) {
    const ppl::index_t* at = loops.data() + i * s.loops.size();
    if (!one_scale) out.weights.push_back(weight(at));
    if (out.runs.empty() || out.runs.back().first != mine[i]) out.runs.push_back({mine[i], 0});
    out.other_at.push_back(static_cast<std::uint32_t>(theirs[i]));
    out.value_at.push_back(static_cast<std::uint32_t>(model::instances(g).target(s, at).first));
    out.runs.back().second = static_cast<std::uint32_t>(out.other_at.size());
  }
  out.runs.shrink_to_fit();
  out.other = other;
  out.block = d.size;
  out.value_variable = s.target;
  return true;
}

}  // namespace ppl::samplers
