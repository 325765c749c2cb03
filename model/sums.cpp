// Observed sums of unknowns: where their summands are, and a start on the set where they
// hold (see sums.hpp).
#include "model/sums.hpp"

#include <cmath>
#include <map>
#include <numeric>

#include "core/source_error.hpp"
#include "stdlib/sum.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::statement;

namespace {

// The unknown whose values hold `p`, and p's element in it; variable -1 when none does.
summand locate(graph& g, const double* p) {
  const auto& m = g.model();
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != lang::ir::role::unknown) continue;
    const auto& d = g.value(static_cast<int>(v)).data;
    if (!d.empty() && p >= d.data() && p < d.data() + d.size())
      return {static_cast<int>(v), static_cast<index_t>(p - d.data()), m.variables[v].type.kind == stdlib::scalar_kind::integer};
  }
  return {};
}

}  // namespace

std::vector<observed_sum> observed_sums(graph& g) {
  const auto& m = g.model();
  std::vector<observed_sum> out;
  for (std::size_t si = 0; si < m.statements.size(); ++si) {
    const statement& s = m.statements[si];
    if (s.which != statement::kind::sample || s.dist->name() != "Sum" || !g.likelihood(static_cast<int>(si))) continue;
    std::vector<const expr*> items;  // a vector literal's items, else the vector whole
    if (s.args[0]->which == expr::kind::vector_literal)
      for (const auto& a : s.args[0]->args) items.push_back(a.get());
    else
      items.push_back(s.args[0].get());
    const std::vector<index_t> loops = instances(g).table(s);
    const std::size_t per = s.loops.size(), count = per == 0 ? 1 : loops.size() / per;
    for (std::size_t i = 0; i < count; ++i) {
      const index_t* l = loops.data() + i * per;
      observed_sum o;
      o.statement = &s;
      double fixed = 0;
      for (const expr* item : items) {
        const view v = instances(g).eval_at(s, l, *item);
        for (index_t k = 0; k < v.size(); ++k) {
          if (!item->depends_on_unknown) {
            fixed += v[k];
            continue;
          }
          const summand u = locate(g, v.data + k);
          if (u.variable < 0)
            ppl::fail_at(m.source, item->pos, "a summand of an observed Sum must be an unknown itself, not computed from "
                                               "unknowns: ppl moves the summands in pairs that keep the sum (write Sum([a, b]), "
                                               "with a + 1 as an unknown of its own)");
          o.unknowns.push_back(u);
        }
      }
      o.total = g.value(s.target).data[static_cast<std::size_t>(instances(g).target(s, l).first)] - fixed;
      out.push_back(std::move(o));
    }
  }
  // Two sums through one unknown would need moves of three or more summands at once.
  std::map<std::pair<int, index_t>, const statement*> seen;
  for (const auto& o : out)
    for (const auto& u : o.unknowns)
      if (const auto [at, fresh] = seen.try_emplace({u.variable, u.element}, o.statement); !fresh)
        ppl::fail_at(m.source, o.statement->pos,
                      "`" + m.variables[static_cast<std::size_t>(u.variable)].name +
                          (g.value(u.variable).size() > 1 ? "` (element " + std::to_string(u.element + 1) + ")" : "`") +
                          " is a summand of this Sum and of the one on line " + std::to_string(m.lines.locate(at->second->pos).line) +
                          "; ppl moves each summand within one observed sum only");
  return out;
}

void start_on_sums(graph& g) {
  const std::vector<observed_sum> sums = observed_sums(g);
  if (sums.empty()) return;
  auto& values = g.values();
  for (const observed_sum& o : sums) {
    const std::size_t k = o.unknowns.size();
    if (k == 0) continue;
    std::vector<double> x(k);
    bool non_negative = true, integer = false;
    for (std::size_t i = 0; i < k; ++i) {
      const summand& u = o.unknowns[i];
      x[i] = values[static_cast<std::size_t>(u.variable)].data[static_cast<std::size_t>(u.element)];
      non_negative = non_negative && x[i] >= 0;
      integer = integer || u.integer;
    }
    const double current = std::accumulate(x.begin(), x.end(), 0.0);
    if (!std::isfinite(current) || stdlib::sum_holds(current, o.total)) continue;
    for (std::size_t i = 0; i < k; ++i) {
      if (non_negative && o.total >= 0)
        x[i] = o.total * (current > 0 ? x[i] / current : 1.0 / static_cast<double>(k));
      else
        x[i] += (o.total - current) / static_cast<double>(k);
    }
    if (integer && o.total == std::round(o.total)) {
      // Floors, and the rest given one each to the largest fractional parts.
      std::vector<std::size_t> order(k);
      std::iota(order.begin(), order.end(), 0);
      std::vector<double> fraction(k);
      double floors = 0;
      for (std::size_t i = 0; i < k; ++i) {
        const double f = std::floor(x[i]);
        fraction[i] = x[i] - f;
        x[i] = f;
        floors += f;
      }
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
      for (std::size_t r = 0; r < k && floors < o.total; ++r, floors += 1) x[order[r]] += 1;
    }
    for (std::size_t i = 0; i < k; ++i)
      values[static_cast<std::size_t>(o.unknowns[i].variable)].data[static_cast<std::size_t>(o.unknowns[i].element)] = x[i];
  }
  g.update_derived();
}

}  // namespace ppl::model
