// Conjugate children through an alias (samplers/conjugate_alias.hpp).
#include "samplers/conjugate_alias.hpp"

#include "model/instances.hpp"

namespace ppl::samplers {

using lang::ir::statement;

bool read_alias(model::graph& g, int variable, const statement& child, const std::vector<likelihood>& allowed, alias_rows& out) {
  const auto& m = g.model();
  for (std::size_t k = 0; k < allowed.size(); ++k) {
    const likelihood& l = allowed[k];
    if (l.dist != child.dist_name || l.arg >= child.args.size()) continue;
    const int d = direct_variable(*child.args[l.arg]);
    link form = link::direct;
    if (d < 0 || d == variable || !alias_form(m, d, variable, form) || form != l.form) continue;
    // The definition instance behind each element of d.
    const auto& defs = m.variables[static_cast<std::size_t>(d)].statements;
    std::vector<std::vector<ppl::index_t>> tables;
    tables.reserve(defs.size());
    std::vector<std::pair<const statement*, const ppl::index_t*>> defined(static_cast<std::size_t>(g.value(d).size()), {nullptr, nullptr});
    for (int si : defs) {
      const statement& s = m.statements[static_cast<std::size_t>(si)];
      tables.push_back(model::instances(g).table(s));
      const std::size_t depth = s.loops.size(), count = depth ? tables.back().size() / depth : 1;
      for (std::size_t i = 0; i < count; ++i) {
        const ppl::index_t* loops = tables.back().data() + i * depth;
        const auto [offset, size] = model::instances(g).target(s, loops);
        if (size != 1) return false;
        defined[static_cast<std::size_t>(offset)] = {&s, loops};
      }
    }
    const auto table = model::instances(g).table(child);
    const std::size_t depth = child.loops.size(), count = depth ? table.size() / depth : 1;
    const double* alias_base = g.value(d).data.data();
    const double* base = g.value(variable).data.data();
    out = alias_rows{};
    out.alias = d, out.which = k, out.arg = l.arg;
    for (std::size_t i = 0; i < count; ++i) {
      const ppl::index_t* loops = table.data() + i * depth;
      const auto [offset, size] = model::instances(g).target(child, loops);
      const ppl::index_t at = model::instances(g).eval_at(child, loops, *child.args[l.arg]).data - alias_base;
      if (at < 0 || at >= g.value(d).size() || !defined[static_cast<std::size_t>(at)].first) return false;
      const auto [def, def_loops] = defined[static_cast<std::size_t>(at)];
      out.ref = reference_in(*def->value, form, variable);
      out.elements.push_back(model::instances(g).eval_at(*def, def_loops, *out.ref).data - base);
      const double factor = is_scaled(form) ? model::instances(g).eval_at(*def, def_loops, scale_in(*def->value, form, variable)).scalar() : 0.0;
      out.value_offsets.push_back(offset);
      out.value_sizes.push_back(size);
      const auto& args = model::instances(g).args_at(child, loops);
      for (std::size_t a = 0; a < args.size(); ++a) out.fixed_args.push_back(a == l.arg ? factor : args[a][0]);
    }
    return true;
  }
  return false;
}

}  // namespace ppl::samplers
