#include "model/blanket.hpp"

#include <algorithm>
#include <tuple>

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;

namespace {

// Whether an expression indexes `variable` with an index that depends on unknowns.
bool unknown_index(const expr* e, int variable) {
  if (!e) return false;
  if (e->which == expr::kind::index && e->args[0]->which == expr::kind::variable && e->args[0]->slot == variable)
    for (const auto& ix : e->indices)
      if ((ix.lo && ix.lo->depends_on_unknown) || (ix.hi && ix.hi->depends_on_unknown)) return true;
  for (const auto& a : e->args)
    if (unknown_index(a.get(), variable)) return true;
  for (const auto& ix : e->indices)
    if (unknown_index(ix.lo.get(), variable) || unknown_index(ix.hi.get(), variable)) return true;
  return false;
}

bool reads_through_unknown_index(const statement& s, int variable) {
  for (const auto& l : s.loops)
    if (unknown_index(l.lo.get(), variable) || unknown_index(l.hi.get(), variable)) return true;
  for (const auto& a : s.args)
    if (unknown_index(a.get(), variable)) return true;
  return unknown_index(s.value.get(), variable);
}

bool reads(const statement& s, int variable) {
  auto r = lang::ir::statement_reads(s);
  return std::find(r.begin(), r.end(), variable) != r.end();
}

}  // namespace

blanket::blanket(graph& g, int variable)
    : graph_(g), variable_(variable), tables_(g.model().statements.size()), has_table_(g.model().statements.size(), 0) {
  mark_relevant_derived();
  const auto& m = g.model();
  auto n = static_cast<std::size_t>(g.value(variable).size());
  lists terms(n), derived(n);
  // The element's own prior term(s).
  for (int si : m.variables[static_cast<std::size_t>(variable)].statements) {
    if (m.statements[static_cast<std::size_t>(si)].which != statement::kind::sample) continue;
    const auto& t = table(si);
    std::size_t count = t.depth ? t.loops.size() / t.depth : 1;
    for (std::size_t i = 0; i < count; ++i) {
      auto [offset, size] = instances(g).target(m.statements[static_cast<std::size_t>(si)], t.loops.data() + i * t.depth);
      for (index_t e = offset; e < offset + size; ++e) terms[static_cast<std::size_t>(e)].push_back({si, 0, static_cast<index_t>(i)});
    }
  }
  // Direct readers, then readers through chains of derived variables.
  for (std::size_t e = 0; e < n; ++e) {
    const readers& direct = readers_of(variable);
    auto& mine = terms[e];
    mine.insert(mine.end(), direct.terms[e].begin(), direct.terms[e].end());
    std::vector<instance_ref> queue = direct.derived[e];
    for (std::size_t k = 0; k < queue.size(); ++k) {
      const statement& ds = m.statements[static_cast<std::size_t>(queue[k].statement)];
      auto [offset, size] = instances(g).target(ds, loops_of(queue[k]));
      const readers& next = readers_of(ds.target);
      whole_.insert(whole_.end(), next.whole.begin(), next.whole.end());
      for (index_t f = offset; f < offset + size; ++f) {
        mine.insert(mine.end(), next.terms[static_cast<std::size_t>(f)].begin(), next.terms[static_cast<std::size_t>(f)].end());
        for (const auto& r : next.derived[static_cast<std::size_t>(f)])
          if (std::find(queue.begin(), queue.end(), r) == queue.end()) queue.push_back(r);
      }
    }
    derived[e] = std::move(queue);
  }
  const auto& direct = readers_of(variable);
  whole_.insert(whole_.end(), direct.whole.begin(), direct.whole.end());
  std::sort(whole_.begin(), whole_.end());
  whole_.erase(std::unique(whole_.begin(), whole_.end()), whole_.end());
  for (auto& list : terms)  // a statement counted whole is not counted again by instance
    std::erase_if(list, [&](const instance_ref& r) { return std::binary_search(whole_.begin(), whole_.end(), r.statement); });
  compress(terms, term_offsets_, terms_);
  compress(derived, derived_offsets_, derived_);
  readers_.clear();
  // Runs of an element's terms that hold every instance of their statement (alpha in
  // theta[i] ~ Gamma(alpha, beta)) are evaluated as the statement, through its plate
  // paths, rather than instance by instance; runs of derived instances likewise (beta in
  // Idt[i, j] <- Y[i, j] * exp(beta * z[i]) * dL0[j]) are recomputed as one batch.
  mark_whole_runs(n, term_offsets_, terms_);
  mark_whole_runs(n, derived_offsets_, derived_);
}

void blanket::mark_whole_runs(std::size_t elements, const std::vector<index_t>& offsets, std::vector<instance_ref>& refs) {
  for (std::size_t e = 0; e < elements; ++e) {
    for (index_t k = offsets[e], end = offsets[e + 1], next = k; k < end; k = next) {
      const int si = refs[static_cast<std::size_t>(k)].statement;
      while (next < end && refs[static_cast<std::size_t>(next)].statement == si) ++next;
      const auto& t = table(si);
      const auto count = static_cast<index_t>(t.depth ? t.loops.size() / t.depth : 1);
      if (next - k == count && count >= 2) refs[static_cast<std::size_t>(k)].whole_run = static_cast<int>(count);
    }
  }
}

// Derived variables matter to a blanket only if some `~` or `factor` depends on them.
void blanket::mark_relevant_derived() {
  const auto& m = graph_.model();
  relevant_.assign(m.variables.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& s : m.statements) {
      const bool density = s.which != statement::kind::assign;
      if (density && graph_.predictive(s)) continue;
      if (!density && !relevant_[static_cast<std::size_t>(s.target)]) continue;
      for (int r : lang::ir::statement_reads(s))
        if (m.variables[static_cast<std::size_t>(r)].role == role::derived && !relevant_[static_cast<std::size_t>(r)])
          relevant_[static_cast<std::size_t>(r)] = changed = true;
    }
  }
}

const blanket::statement_table& blanket::table(int statement) {
  auto& t = tables_[static_cast<std::size_t>(statement)];
  if (!has_table_[static_cast<std::size_t>(statement)]) {
    const auto& s = graph_.model().statements[static_cast<std::size_t>(statement)];
    t.loops = instances(graph_).table(s);
    t.depth = s.loops.size();
    has_table_[static_cast<std::size_t>(statement)] = 1;
  }
  return t;
}

const index_t* blanket::loops_of(const instance_ref& r) {
  const auto& t = table(r.statement);
  return t.loops.data() + static_cast<std::size_t>(r.instance) * t.depth;
}

const blanket::readers& blanket::readers_of(int variable) {
  auto it = readers_.find(variable);
  if (it != readers_.end()) return it->second;
  const auto& m = graph_.model();
  readers out;
  auto n = static_cast<std::size_t>(graph_.value(variable).size());
  out.terms.resize(n);
  out.derived.resize(n);
  for (std::size_t si = 0; si < m.statements.size(); ++si) {
    const statement& s = m.statements[si];
    bool derived = s.which == statement::kind::assign;
    if (derived ? !relevant_[static_cast<std::size_t>(s.target)] : graph_.predictive(s)) continue;
    if (!reads(s, variable)) continue;
    bool dynamic = reads_through_unknown_index(s, variable);
    if (dynamic && !derived) {
      out.whole.push_back(static_cast<int>(si));
      continue;
    }
    const auto& t = table(static_cast<int>(si));
    std::size_t count = t.depth ? t.loops.size() / t.depth : 1;
    for (std::size_t i = 0; i < count; ++i) {
      instance_ref ref{static_cast<int>(si), 0, static_cast<index_t>(i)};
      const index_t* loops = t.loops.data() + i * t.depth;
      read_log log = instances(graph_).reads(s, loops);
      if (dynamic) log.push_back({variable, 0, static_cast<index_t>(n)});  // depends on all of it
      // A `~` of this variable is already its own elements' prior term; it is a reader only
      // of the other elements it reads (x[t - 1] in x[t] ~ Normal(a * x[t - 1], s)).
      index_t own_offset = 0, own_size = 0;
      if (s.which == statement::kind::sample && s.target == variable) std::tie(own_offset, own_size) = instances(graph_).target(s, loops);
      for (const auto& r : log) {
        if (r.variable != variable) continue;
        for (index_t e = r.offset; e < r.offset + r.size; ++e)
          if (e < own_offset || e >= own_offset + own_size) (derived ? out.derived : out.terms)[static_cast<std::size_t>(e)].push_back(ref);
      }
    }
  }
  return readers_.emplace(variable, std::move(out)).first->second;
}

void blanket::compress(lists& in, std::vector<index_t>& offsets, std::vector<instance_ref>& out) {
  offsets.assign(1, 0);
  for (auto& list : in) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    out.insert(out.end(), list.begin(), list.end());
    offsets.push_back(static_cast<index_t>(out.size()));
    std::vector<instance_ref>().swap(list);
  }
}

double blanket::log_density(index_t element, bool include_prior) {
  const auto& m = graph_.model();
  double total = 0;
  for (index_t k = term_offsets_[element], end = term_offsets_[element + 1]; k < end;) {
    const auto& r = terms_[static_cast<std::size_t>(k)];
    const statement& s = m.statements[static_cast<std::size_t>(r.statement)];
    const bool skip = !include_prior && s.target == variable_ && s.which == statement::kind::sample;
    if (r.whole_run > 0) {
      if (!skip) total += instances(graph_).log_density(s);
      k += r.whole_run;
      continue;
    }
    if (!skip) total += instances(graph_).log_density(s, loops_of(r));
    ++k;
  }
  for (int s : whole_) total += instances(graph_).log_density(m.statements[static_cast<std::size_t>(s)]);
  return total;
}

void blanket::update(index_t element) {
  const auto& m = graph_.model();
  // Sorted by statement, which is dependency order.
  for (index_t k = derived_offsets_[element], end = derived_offsets_[element + 1]; k < end;) {
    const auto& r = derived_[static_cast<std::size_t>(k)];
    const statement& s = m.statements[static_cast<std::size_t>(r.statement)];
    if (r.whole_run > 0) {
      instances(graph_).run(s);
      k += r.whole_run;
      continue;
    }
    instances(graph_).run(s, loops_of(r));
    ++k;
  }
}

}  // namespace ppl::model
