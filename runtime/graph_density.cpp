// Log densities: the joint, and the terms of one element's Markov blanket.
#include <cmath>

#include "runtime/graph.hpp"

namespace ppl::runtime {

using lang::ir::role;
using lang::ir::statement;

namespace {

bool reads(const statement& s, int v) {
  for (int r : lang::ir::statement_reads(s))
    if (r == v) return true;
  return false;
}

}  // namespace

// Sum of one statement's terms; with `only_watched`, only the instances whose evaluation
// read the watched element. Parameters that depend on unknowns are checked, and an
// invalid one makes the term -inf (a state outside the support), not an error.
double graph::statement_log_density(const statement& s, bool only_watched) {
  double total = 0;
  read_watch* watch = eval_.watch;
  for_each_instance(s, [&] {
    if (watch) watch->hit = false;
    if (s.which == statement::kind::factor) {
      double f;
      try {
        f = eval_.eval(*s.value, frame_).scalar();
      } catch (const eval_error& e) {
        fail_in(s, e.pos, e.what());
      }
      if (!only_watched || watch->hit) total += f;
      return;
    }
    const auto& args = eval_args(s);
    const tensor& t = values_[static_cast<std::size_t>(s.target)];
    shape value = value_shape_of(s, args);
    index_t offset = target_offset(s, value.size());
    if (only_watched && !watch->hit) {
      // The watched element may be the value this term is the density of.
      if (watch->variable != s.target || watch->element < offset || watch->element >= offset + value.size()) return;
    }
    for (const auto& a : s.args)
      if (a->depends_on_unknown) {
        try {
          s.dist->check(args);
        } catch (const stdlib::parameter_error&) {
          total = -INFINITY;
          return;
        }
        break;
      }
    total += s.dist->log_density(args, view{t.data.data() + offset, value}, true);
  });
  return total;
}

double graph::log_density() {
  double total = 0;
  for (const statement& s : model_.statements)
    if (s.which != statement::kind::assign) total += statement_log_density(s, false);
  return total;
}

double graph::log_density_blanket(int variable, index_t element) {
  // Derived variables that depend (transitively) on `variable`: terms reading them are
  // included whole.
  std::vector<char> affected(model_.variables.size(), 0);
  affected[static_cast<std::size_t>(variable)] = 1;
  for (const statement& s : model_.statements)
    if (s.which == statement::kind::assign && model_.variables[static_cast<std::size_t>(s.target)].role == role::derived)
      for (int r : lang::ir::statement_reads(s))
        if (affected[static_cast<std::size_t>(r)]) affected[static_cast<std::size_t>(s.target)] = 1;
  double total = 0;
  read_watch watch{variable, element, false};
  for (const statement& s : model_.statements) {
    if (s.which == statement::kind::assign) continue;
    bool direct = reads(s, variable) || s.target == variable;
    bool through_derived = false;
    for (int r : lang::ir::statement_reads(s))
      if (r != variable && affected[static_cast<std::size_t>(r)]) through_derived = true;
    if (through_derived) {
      total += statement_log_density(s, false);
    } else if (direct) {
      eval_.watch = &watch;
      total += statement_log_density(s, true);
      eval_.watch = nullptr;
    }
  }
  return total;
}

}  // namespace ppl::runtime
