#include "samplers/dot_rows.hpp"

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
    if ((i + 1) % model::report_every == 0 && model::build_reported())
      model::report_instances(g.model().lines.locate(s.pos).line, static_cast<double>(i + 1) / static_cast<double>(count));
  }
  return true;
}

}  // namespace ppl::samplers
