#include "lang/evidence.hpp"

#include "stdlib/flat.hpp"
#include "stdlib/restricted.hpp"

namespace ppl::lang {

using ir::role;
using ir::statement;

namespace {
bool is_evidence(const ir::model& m, const statement& s) {
  return s.which == statement::kind::factor ||
         (s.which == statement::kind::sample && m.variables[static_cast<std::size_t>(s.target)].observed);
}
}  // namespace

std::vector<char> likelihood_statements(const ir::model& m) {
  std::vector<char> out(m.statements.size(), 0);
  for (std::size_t i = 0; i < m.statements.size(); ++i) out[i] = is_evidence(m, m.statements[i]);
  return out;
}

std::vector<char> informed_variables(const ir::model& m) {
  // Walk up from every observation and factor through the statements defining what they read.
  std::vector<char> seen(m.variables.size(), 0);
  std::vector<int> stack;
  for (const auto& s : m.statements) {
    if (!is_evidence(m, s)) continue;
    for (int r : ir::statement_reads(s)) stack.push_back(r);
  }
  while (!stack.empty()) {
    const auto v = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    if (seen[v]) continue;
    seen[v] = 1;
    for (int si : m.variables[v].statements) {
      const auto& s = m.statements[static_cast<std::size_t>(si)];
      if (s.which == statement::kind::sample && m.variables[v].observed) continue;
      for (int r : ir::statement_reads(s)) stack.push_back(r);
    }
  }
  return seen;
}

std::vector<char> predictive_statements(const ir::model& m) {
  const std::vector<char> informed = informed_variables(m);
  // downstream[v]: v is an informed unknown or computed from one. Statements come parents
  // first, but a variable may be given by several statements, so repeat until nothing moves.
  std::vector<char> downstream(m.variables.size(), 0);
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    downstream[v] = m.variables[v].role == role::unknown && informed[v];
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& s : m.statements) {
      if (s.which == statement::kind::factor) continue;
      const auto t = static_cast<std::size_t>(s.target);
      if (downstream[t] || m.variables[t].role == role::data) continue;
      for (int r : ir::statement_reads(s))
        if (downstream[static_cast<std::size_t>(r)]) {
          downstream[t] = changed = 1;
          break;
        }
    }
  }
  // Only a variable whose densities all integrate to one can be left out of its parents'
  // conditionals: a censored value's density carries the interval's probability.
  for (const auto& s : m.statements)
    if (s.which == statement::kind::sample && (stdlib::censored(*s.dist) || stdlib::improper(*s.dist)))
      downstream[static_cast<std::size_t>(s.target)] = 0;
  std::vector<char> out(m.statements.size(), 0);
  for (std::size_t i = 0; i < m.statements.size(); ++i) {
    const auto& s = m.statements[i];
    if (s.which != statement::kind::sample) continue;
    const auto t = static_cast<std::size_t>(s.target);
    out[i] = m.variables[t].role == role::unknown && !informed[t] && downstream[t];
  }
  return out;
}

}  // namespace ppl::lang
