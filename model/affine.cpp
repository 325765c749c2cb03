#include "model/affine.hpp"

#include <algorithm>

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;

namespace {

bool constant_indices(const expr& e) {
  for (const auto& ix : e.indices)
    if ((ix.lo && ix.lo->depends_on_unknown) || (ix.hi && ix.hi->depends_on_unknown)) return false;
  return true;
}

// Whether e reads any of `variables`, directly or through derived variables (`seen`, by
// variable: a derived one already followed).
bool reads_through(const lang::ir::model& m, const expr& e, const std::vector<int>& variables, std::vector<char>& seen) {
  std::vector<int> reads;
  lang::ir::collect_reads(&e, reads);
  for (int r : reads) {
    if (std::find(variables.begin(), variables.end(), r) != variables.end()) return true;
    const auto v = static_cast<std::size_t>(r);
    if (m.variables[v].role != role::derived || seen[v]) continue;
    seen[v] = 1;
    for (const statement& st : m.statements)
      if (st.which == statement::kind::assign && st.target == r && reads_through(m, *st.value, variables, seen)) return true;
  }
  return false;
}

}  // namespace

affinity::affinity(const lang::ir::model& m, bool through_derived)
    : model_(m), through_derived_(through_derived), memo_(m.variables.size(), 0) {}

std::vector<int> affinity::reached() const {
  std::vector<int> r = reached_;
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

bool affinity::operator()(const expr& e) {
  if (!e.depends_on_unknown) return true;
  auto all_args = [&] {
    return std::all_of(e.args.begin(), e.args.end(), [&](const auto& a) { return (*this)(*a); });
  };
  // Exactly one argument reads unknowns and it is affine: a product or quotient by a constant.
  auto one_side = [&](std::size_t varying) {
    for (std::size_t i = 0; i < e.args.size(); ++i)
      if (i != varying && e.args[i]->depends_on_unknown) return false;
    return (*this)(*e.args[varying]);
  };
  switch (e.which) {
    case expr::kind::variable: {
      const auto v = static_cast<std::size_t>(e.slot);
      if (model_.variables[v].role == role::unknown || (model_.variables[v].role == role::derived && !through_derived_)) {
        reached_.push_back(e.slot);
        return true;
      }
      if (model_.variables[v].role != role::derived) return true;
      if (memo_[v] == 0) {
        memo_[v] = 2;
        bool ok = true;
        for (const statement& st : model_.statements) {
          if (st.which != statement::kind::assign || st.target != e.slot) continue;
          for (const auto& l : st.loops) ok = ok && !l.lo->depends_on_unknown && !l.hi->depends_on_unknown;
          for (const auto& ix : st.target_indices) ok = ok && !ix->depends_on_unknown;
          ok = ok && (*this)(*st.value);
        }
        memo_[v] = ok ? 1 : 2;
      }
      return memo_[v] == 1;
    }
    case expr::kind::index:
      return constant_indices(e) && (*this)(*e.args[0]);
    case expr::kind::vector_literal:
      return all_args();
    case expr::kind::call: {
      const std::string_view f = e.fn->name();
      if (f == "+" || f == "-" || f == "neg" || f == "sum" || f == "mean" || f == "'" || f == "transpose" || f == "append_row" ||
          f == "append_col" || f == "cumulative_sum")
        return all_args();
      if (e.args.size() != 2) return false;
      if (f == "*" || f == ".*" || f == "dot") return one_side(e.args[0]->depends_on_unknown ? 0 : 1);
      if (f == "/" || f == "./") return one_side(0);
      return false;
    }
    default:
      return false;
  }
}

bool reads_any(const lang::ir::model& m, const expr& e, const std::vector<int>& variables) {
  std::vector<char> seen(m.variables.size(), 0);
  return reads_through(m, e, variables, seen);
}

}  // namespace ppl::model
