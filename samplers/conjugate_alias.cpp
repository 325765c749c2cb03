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
    // By element of d: its definition (by number) and that definition's instance.
    constexpr std::size_t none = ~std::size_t{0};
    std::vector<std::pair<std::size_t, std::size_t>> defined(static_cast<std::size_t>(g.value(d).size()), {none, 0});
    for (int si : defs) {
      const statement& s = m.statements[static_cast<std::size_t>(si)];
      tables.push_back(model::instances(g).table(s));
      const std::size_t depth = s.loops.size(), count = depth ? tables.back().size() / depth : 1;
      for (std::size_t i = 0; i < count; ++i) {
        const auto [offset, size] = model::instances(g).target(s, tables.back().data() + i * depth);
        if (size != 1) return false;
        defined[static_cast<std::size_t>(offset)] = {tables.size() - 1, i};
      }
    }
    // A factor that reads unknowns is read again at each update (read_factors).
    std::vector<alias_factor> varying(defs.size());
    for (std::size_t k = 0; k < defs.size(); ++k) {
      const statement& s = m.statements[static_cast<std::size_t>(defs[k])];
      const lang::ir::expr* factor = is_scaled(form) ? &scale_in(*s.value, form, variable) : nullptr;
      if (!factor || !factor->depends_on_unknown) continue;
      varying[k].def = &s, varying[k].factor = factor;
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
      if (at < 0 || at >= g.value(d).size() || defined[static_cast<std::size_t>(at)].first == none) return false;
      const auto [k, instance] = defined[static_cast<std::size_t>(at)];
      const statement* def = &m.statements[static_cast<std::size_t>(defs[k])];
      const ppl::index_t* def_loops = tables[k].data() + instance * def->loops.size();
      if (varying[k].def) varying[k].rows.push_back(i), varying[k].instances.push_back(instance);
      out.ref = reference_in(*def->value, form, variable);
      out.elements.push_back(model::instances(g).eval_at(*def, def_loops, *out.ref).data - base);
      const double factor = is_scaled(form) ? model::instances(g).eval_at(*def, def_loops, scale_in(*def->value, form, variable)).scalar() : 0.0;
      out.value_offsets.push_back(offset);
      out.value_sizes.push_back(size);
      const auto& args = model::instances(g).args_at(child, loops);
      for (std::size_t a = 0; a < args.size(); ++a) out.fixed_args.push_back(a == l.arg ? factor : args[a][0]);
    }
    // The definitions' tables, no longer read here, go with their factors.
    for (std::size_t k = 0; k < defs.size(); ++k)
      if (varying[k].def) varying[k].loops = std::move(tables[k]), out.varying.push_back(std::move(varying[k]));
    return true;
  }
  return false;
}

void read_factors(model::graph& g, const std::vector<alias_factor>& varying, std::size_t n_args, std::size_t arg,
                  std::vector<double>& fixed_args) {
  std::vector<double> column;
  for (const auto& f : varying) {
    const std::size_t depth = f.def->loops.size(), count = depth ? f.loops.size() / depth : 1;
    if (!model::instances(g).batch_values(*f.def, *f.factor, column)) {
      column.resize(count);
      for (std::size_t i = 0; i < count; ++i) column[i] = model::instances(g).eval_at(*f.def, f.loops.data() + i * depth, *f.factor).scalar();
    }
    for (std::size_t k = 0; k < f.rows.size(); ++k) fixed_args[f.rows[k] * n_args + arg] = column[f.instances[k]];
  }
}

}  // namespace ppl::samplers
