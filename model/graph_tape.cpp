// Which statements a gradient replays from a tape (model/tape.hpp), and their recording.
// A tape is kept per statement for the graph's life: the data, and so every index the
// tape resolved, do not change once the graph is built.
#include <algorithm>

#include "model/graph.hpp"
#include "stdlib/function.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::statement;

std::size_t graph::taped_statements() const {
  return static_cast<std::size_t>(std::count_if(tapes_.begin(), tapes_.end(), [](const auto& t) { return t != nullptr; }));
}

namespace {

// The largest sub-expressions that depend on unknowns and read some of the statement's
// loop variables but not all (the HMM's log(theta[:, k]) in a loop over t and k): a tape
// evaluates each once per value of the loop variables it reads. What reads the
// statement's own target is written as it runs and is never shared.
void collect_shared(const expr& e, const statement& s, int own_target, std::vector<const expr*>& out) {
  if (!e.depends_on_unknown || e.which == expr::kind::ode) return;
  const bool computed = e.which == expr::kind::call || e.which == expr::kind::vector_literal;
  if (computed && lang::ir::uses_loop_variable(e) && (own_target < 0 || !lang::ir::reads_variable(e, own_target))) {
    const bool misses_one = std::any_of(s.loops.begin(), s.loops.end(), [&](const auto& loop) {
      return !lang::ir::any_node(e, [&](const expr& x) { return x.which == expr::kind::loop_var && x.slot == loop.slot; });
    });
    if (misses_one) {
      out.push_back(&e);
      return;
    }
  }
  for (const auto& a : e.args) collect_shared(*a, s, own_target, out);
}

}  // namespace

tape* graph::recorded_tape(const statement& s) {
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (index >= tapes_.size() || eval_.log) return nullptr;
  tape* kept = tapes_[index].get();
  return kept && kept->valid(values_) ? kept : nullptr;
}

tape* graph::tape_forward(const statement& s, const std::vector<const expr*>& hoisted) {
  const auto index = static_cast<std::size_t>(&s - model_.statements.data());
  if (tapes_.size() != model_.statements.size()) {
    tapes_.resize(model_.statements.size());
    tape_refused_.assign(model_.statements.size(), 0);
  }
  const int target = s.which == statement::kind::assign ? s.target : -1;
  // What an instance evaluates: a definition's value, a factor's term, a `~`'s term as its
  // log-density call (statement::density).
  const expr* root = s.which == statement::kind::sample ? s.density.get() : s.value.get();
  auto& kept = tapes_[index];
  if (kept && kept->valid(values_)) return kept->forward(values_, target) ? kept.get() : nullptr;
  kept.reset();
  if (tape_refused_[index] || eval_.log || !options_.tapes) return nullptr;
  // What fixes the tape's shape must be free of unknowns.
  const bool built = s.which == statement::kind::factor || (s.which == statement::kind::sample && root) ||
                     (s.which == statement::kind::assign && defined_[static_cast<std::size_t>(s.target)].empty());
  if (!built || !instances_fixed(s)) {
    tape_refused_[index] = 1;
    return nullptr;
  }
  auto fresh = std::make_unique<tape>();
  fresh->hoist(hoisted);
  if (s.loops.size() > 1) {
    std::vector<const expr*> shared;
    collect_shared(*root, s, target, shared);
    fresh->share(shared);
  }
  try {
    for_each_instance(s, [&] {
      const std::uint32_t node = fresh->record(eval_, *root, frame_);
      index_t offset = 0;
      if (target >= 0) {
        const view x = fresh->recorded_value(node, frame_);
        offset = target_offset(s, x.size());
        std::copy(x.begin(), x.end(), values_[static_cast<std::size_t>(target)].data.begin() + offset);
      }
      fresh->instances.push_back({node, offset});
    });
  } catch (const tape::refused&) {
    tape_refused_[index] = 1;
    return nullptr;
  } catch (const eval_error&) {
    return nullptr;  // the instance path reports it
  } catch (const stdlib::argument_error&) {
    return nullptr;
  }
  if (!fresh->finish(values_, target)) {
    tape_refused_[index] = 1;
    return nullptr;
  }
  kept = std::move(fresh);
  return kept.get();
}

}  // namespace ppl::model
