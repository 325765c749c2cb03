// Building nodes: shapes of unknown and computed variables, and their first values.
#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/core.h>

#include "model/graph.hpp"
#include "stdlib/checks.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::role;
using lang::ir::statement;


namespace {

bool args_depend_on_unknowns(const statement& s) {
  for (const auto& a : s.args)
    if (a->depends_on_unknown) return true;
  return false;
}

// Whether the bounds of a statement's support can change from draw to draw: they read an
// argument that depends on unknowns (Binomial(n, p) with n unknown; not with p unknown).
bool support_follows_unknowns(const statement& s) {
  if (!s.dist->support_moves()) return false;
  for (std::size_t i = 0; i < s.args.size(); ++i)
    if (s.dist->support_reads(i) && s.args[i]->depends_on_unknown) return true;
  return false;
}

// The block of a variable that a value of `value_rank` dimensions at `offset` fills: "y[3]"
// for a scalar, "y" or "y[2]" for a vector-valued distribution's value.
std::string block_label(const std::string& name, const shape& s, index_t offset, int value_rank) {
  shape outer;
  outer.rank = s.rank - value_rank;
  index_t block = 1;
  for (int d = 0; d < s.rank; ++d)
    if (d < outer.rank) outer.dims[static_cast<std::size_t>(d)] = s[d];
    else block *= s[d];
  return element_name(name, outer, block ? offset / block : 0);
}

std::string listed(view x) {
  std::string out = "[";
  for (index_t i = 0; i < x.size() && i < 8; ++i) out += (i ? ", " : "") + stdlib::format_number(x[i]);
  return out + (x.size() > 8 ? ", ...]" : "]");
}

// Why an observed value is outside its support, naming the parameter that bounds it where
// one does: "y[3] = 12 is above n = 10 of Binomial", "y = [3, 4, 5] sums to 12, not n = 10
// of Multinomial".
std::string outside_support(const std::string& what, view x, const statement& s, const std::vector<view>& args) {
  const stdlib::support support = s.dist->value_support(args);
  const auto params = s.dist->params();
  const std::string value = what + " = " + (x.size() == 1 ? stdlib::format_number(x[0]) : listed(x));
  double total = 0;
  for (double v : x) total += v;
  for (std::size_t i = 0; i < args.size() && i < params.size(); ++i) {
    if (!s.dist->support_reads(i) || args[i].size() != 1) continue;
    const std::string bound = std::string(params[i].name) + " = " + stdlib::format_number(args[i][0]) + " of " + s.dist_name;
    if (support.kind == stdlib::support_kind::count_vector && total != support.upper && args[i][0] == support.upper)
      return value + " sums to " + stdlib::format_number(total) + ", not " + bound;
    if (x.size() == 1 && x[0] > support.upper && args[i][0] == support.upper) return value + " is above " + bound;
    if (x.size() == 1 && x[0] < support.lower && args[i][0] == support.lower) return value + " is below " + bound;
  }
  const char* set = support.kind == stdlib::support_kind::covariance      ? " (symmetric positive-definite matrices)"
                    : support.kind == stdlib::support_kind::correlation   ? " (correlation matrices: symmetric positive-definite, unit diagonal)"
                    : support.kind == stdlib::support_kind::cholesky_corr ? " (Cholesky factors of correlation matrices: lower triangular, "
                                                                            "positive diagonal, rows of unit length)"
                    : support.kind == stdlib::support_kind::simplex       ? " (non-negative, summing to 1)"
                                                                          : "";
  return value + " is outside the support of " + s.dist_name + set;
}

}  // namespace

std::string outside_support_message(const std::string& name, const shape& s, index_t offset, view x, const statement& st,
                                    const std::vector<view>& args) {
  return outside_support(block_label(name, s, offset, x.shape.rank), x, st, args);
}

shape graph::value_shape_of(const statement& s, const std::vector<view>& args) {
  if (s.dist->value_rank() == 0) return shape::scalar();
  try {
    return s.dist->value_shape_at(args);
  } catch (const stdlib::parameter_error& e) {
    fail_in(s, s.pos, e.what());
  }
}

// Gives variable v its shape: the largest index each of its statements writes, followed
// by the shape of the value at the first instance.
void graph::allocate(int v) {
  const auto& var = model_.variables[static_cast<std::size_t>(v)];
  if (var.filled_from >= 0) return allocate_partly_observed(v);
  shape s;
  s.rank = var.type.rank;
  bool value_known = false;
  // A variable computed by `=` and observed by `~` (log_y = log(y); log_y ~ Normal(...))
  // has the shape its `=` statements give; a vectorised `~` reads that shape for its loop.
  const bool computed = std::any_of(var.statements.begin(), var.statements.end(), [&](int si) {
    return model_.statements[static_cast<std::size_t>(si)].which == statement::kind::assign;
  });
  for (int si : var.statements) {
    const statement& st = model_.statements[static_cast<std::size_t>(si)];
    if (computed && st.which == statement::kind::sample) continue;
    int k = static_cast<int>(st.target_indices.size());
    bool block_known = false;
    for_each_instance(st, [&] {
      if (st.target_from) {  // x[i, from:to]: dimension k reaches `to`, the value's others follow it
        index_t to = 0;
        try {
          to = eval_.eval_index(*st.target_to, frame_);
        } catch (const eval_error& e) {
          fail_in(st, e.pos, e.what());
        }
        s.dims[static_cast<std::size_t>(k)] = std::max(s.dims[static_cast<std::size_t>(k)], to);
        if (!block_known) {
          block_known = true;
          const shape value = value_shape_of(st, eval_args(st));
          for (int d = 1; d < value.rank; ++d)
            s.dims[static_cast<std::size_t>(k + d)] = std::max(s.dims[static_cast<std::size_t>(k + d)], value[d]);
        }
      }
      for (int d = 0; d < k; ++d) {
        index_t j;
        try {
          j = eval_.eval_index(*st.target_indices[static_cast<std::size_t>(d)], frame_);
        } catch (const eval_error& e) {
          fail_in(st, e.pos, e.what());
        }
        if (j < 1) fail_in(st, st.target_indices[static_cast<std::size_t>(d)]->pos, "index " + std::to_string(j) + " is below 1; indices start at 1");
        s.dims[static_cast<std::size_t>(d)] = std::max(s.dims[static_cast<std::size_t>(d)], j);
      }
      if (value_known || st.target_from) return;
      value_known = true;
      shape value;
      if (st.which == statement::kind::sample) {
        const auto& args = eval_args(st);
        try {
          value = st.dist->value_shape_at(args);
        } catch (const stdlib::parameter_error& e) {
          fail_in(st, st.pos, e.what());
        }
      } else {
        try {
          value = eval_.eval(*st.value, frame_).shape;
        } catch (const eval_error& e) {
          fail_in(st, e.pos, e.what());
        }
      }
      for (int d = 0; d < value.rank; ++d) s.dims[static_cast<std::size_t>(k + d)] = value[d];
    });
  }
  double elements = 1;
  for (int d = 0; d < s.rank; ++d) elements *= static_cast<double>(s.dims[static_cast<std::size_t>(d)]);
  if (elements > static_cast<double>(max_elements))
    ppl::fail_at(model_.source, var.pos, fmt::format("`{}` would have {:.0f} elements, more than the limit of {} (2^28)",
                                                      var.name, elements, max_elements));
  values_[static_cast<std::size_t>(v)] = tensor(s, std::nan(""));
  defined_[static_cast<std::size_t>(v)].assign(static_cast<std::size_t>(s.size()), 0);
}

// A partly observed unknown (lang/checker_missing.cpp) has the data's shape and values;
// the given elements count as defined, and its statements define the missing ones.
void graph::allocate_partly_observed(int v) {
  const auto& var = model_.variables[static_cast<std::size_t>(v)];
  const tensor& given = values_[static_cast<std::size_t>(var.filled_from)];
  values_[static_cast<std::size_t>(v)] = given;
  auto& defined = defined_[static_cast<std::size_t>(v)];
  auto& imputed = imputed_[static_cast<std::size_t>(v)];
  defined.assign(static_cast<std::size_t>(given.size()), 1);
  imputed.clear();
  for (index_t e = 0; e < given.size(); ++e)
    if (std::isnan(given.data[static_cast<std::size_t>(e)])) {
      defined[static_cast<std::size_t>(e)] = 0;
      imputed.push_back(e);
    }
}

// One pass over a statement's instances: draw (unknowns, simulated observations), compute
// (`=`), or check the observed values against the distribution's support.
void graph::run_statement(const statement& s, rng* rng, bool draw) {
  const auto& var = model_.variables[static_cast<std::size_t>(s.target)];
  tensor& t = values_[static_cast<std::size_t>(s.target)];
  auto& defined = defined_[static_cast<std::size_t>(s.target)];
  // Parameters computed from unknowns are checked, and observed values against a support
  // they move (y[i] ~ Uniform(0, theta)), at the chain's start instead: the first draw of
  // the unknowns may be a poor one, and the start draws again.
  bool check_params = draw || !args_depend_on_unknowns(s);
  // While a variable is built, each of its elements is defined by one statement instance.
  auto mark_defined = [&](index_t element) {
    auto& flag = defined[static_cast<std::size_t>(element)];
    if (flag && var.filled_from >= 0)  // a block of a partly observed unknown, some of it given
      fail_in(s, s.pos, "`" + element_name(var.name, t.shape, element) + "` is given in the data but other elements of the block " +
                            s.dist_name + " gives here are missing; ppl imputes a block only when all of it is missing "
                            "(give all of it, or none)");
    if (flag) fail_in(s, s.pos, element_name(var.name, t.shape, element) + " is defined twice");
    flag = 1;
  };
  if (s.which == statement::kind::assign && !defined.empty() && build_batch(s)) return;
  for_each_instance(s, [&] {
    if (s.which == statement::kind::assign) {
      auto [offset, size] = assign_current(s);
      for (index_t i = 0; i < size && !defined.empty(); ++i) mark_defined(offset + i);
      return;
    }
    const auto& args = eval_args(s);
    bool valid = true;
    if (check_params) {
      try {
        s.dist->check(args);
      } catch (const stdlib::parameter_error& e) {
        // A start's parameters that follow unknowns may be invalid at the values chosen:
        // the value is left NaN, and the chain's start tries again (graph_start.cpp).
        valid = starting_ && draw && args_depend_on_unknowns(s);
        if (!valid) fail_in(s, s.pos, std::string(e.what()) + (draw ? ", while drawing `" + var.name + "` from its prior" : ""));
      }
    }
    shape value = value_shape_of(s, args);
    index_t size = value.size();
    index_t offset = target_offset(s, size);
    if (draw && !valid) {
      std::fill_n(t.data.data() + offset, size, std::nan(""));
    } else if (draw && starting_ && var.role == role::unknown) {
      start_value(s, args, t.data.data() + offset, size, *rng);
    } else if (draw) {
      s.dist->draw(args, *rng, t.data.data() + offset);
    } else {
      view x{t.data.data() + offset, value};
      if ((check_params || !support_follows_unknowns(s)) && !s.dist->in_support(args, x))
        fail_in(s, s.pos, outside_support_message(var.name, t.shape, offset, x, s, args));
    }
    for (index_t i = 0; i < size && draw && !defined.empty(); ++i) mark_defined(offset + i);
  });
}

// An `=` statement while its variable is built, as one batch where it can be (a derived
// plate such as an Ising model's site energies: one pass per expression node instead of
// the evaluator per instance). The element each instance defines is marked first (2: by
// this statement, for now), then batch_assign computes the values. False, with nothing
// changed, when a target index is out of range, an element is defined twice or the
// statement does not batch: the instance-by-instance pass then reports what comes first.
bool graph::build_batch(const statement& s) {
  const tensor& t = values_[static_cast<std::size_t>(s.target)];
  auto& defined = defined_[static_cast<std::size_t>(s.target)];
  if (static_cast<int>(s.target_indices.size()) != t.shape.rank) return false;
  bool ok = true;
  for_each_instance(s, [&] {
    index_t offset = 0;
    for (int k = 0; ok && k < t.shape.rank; ++k) {
      index_t j = 0;
      try {
        j = eval_.eval_index(*s.target_indices[static_cast<std::size_t>(k)], frame_);
      } catch (const eval_error&) {
        ok = false;
      }
      ok = ok && j >= 1 && j <= t.shape[k];
      offset += (j - 1) * t.shape.stride(k);
    }
    if (!ok) return;
    char& flag = defined[static_cast<std::size_t>(offset)];
    ok = flag == 0;
    if (ok) flag = 2;
  });
  ok = ok && batch_assign(s);
  for (char& flag : defined)
    if (flag == 2) flag = ok ? 1 : 0;
  return ok;
}

// The elements a `~` on a computed variable observes must all exist: one that reaches past
// what the `=` statements computed is most likely a BUGS corner constraint (a[1] <- 0
// beside a[k] ~ dnorm(...)), which makes some elements of an unknown fixed: say how to
// write it.
void graph::check_computed_elements(const statement& st) {
  const auto& var = model_.variables[static_cast<std::size_t>(st.target)];
  const shape& computed = values_[static_cast<std::size_t>(st.target)].shape;
  const auto k = st.target_indices.size();
  for_each_instance(st, [&] {
    for (std::size_t d = 0; d < k && static_cast<int>(d) < computed.rank; ++d) {
      index_t j = 0;
      try {
        j = eval_.eval_index(*st.target_indices[d], frame_);
      } catch (const eval_error& e) {
        fail_in(st, e.pos, e.what());
      }
      if (j >= 1 && j <= computed[static_cast<int>(d)]) continue;
      fail_in(st, st.target_indices[d]->pos,
              "`" + var.name + "` is computed with `=`, so its `~` statements observe what `=` computed, but no `=` computes this element "
              "(index " + std::to_string(j) + "); a variable is either computed or an unknown: to fix some elements of an unknown "
              "(BUGS's corner constraint a[1] <- 0), give the unknown elements a name of their own (a_free[k] ~ ..., then "
              "a[k + 1] = a_free[k] beside a[1] = 0)");
    }
  });
}

// After the last statement that defines `v`: every element must have been defined. An
// element of a computed variable that no `=` defines is a hole, as in BUGS (an error only
// where it is read); an unknown's elements all need a prior.
void graph::finish_definitions(int v) {
  const auto& var = model_.variables[static_cast<std::size_t>(v)];
  auto& defined = defined_[static_cast<std::size_t>(v)];
  if (var.role == role::derived || var.role == role::transformed_data) {
    note_undefined(v, defined);
  } else {
    for (std::size_t e = 0; e < defined.size(); ++e)
      if (!defined[e])
        ppl::fail_at(model_.source, var.pos,
                      element_name(var.name, values_[static_cast<std::size_t>(v)].shape, static_cast<index_t>(e)) +
                          (var.filled_from >= 0 ? " is missing in the data, and no `~` observes it, so nothing says how to impute it"
                                                : " is never defined"));
  }
  defined.clear();
  defined.shrink_to_fit();
}

void graph::build_statements(rng& rng, bool) {
  check_initial_names();
  std::vector<char> given(model_.variables.size(), 0);  // set from --init
  starting_ = true;
  // Per variable, the last statement after which none defines more of it: where its
  // elements must all be defined. Found once, not by looking ahead from every statement
  // (a variable defined element by element in 50,000 statements).
  std::vector<int> completed_at(model_.variables.size(), -1);
  for (std::size_t i = 0; i < model_.statements.size(); ++i) {
    const statement& s = model_.statements[i];
    if (s.which == statement::kind::factor) continue;
    if (s.which == statement::kind::assign || model_.variables[static_cast<std::size_t>(s.target)].role == role::unknown)
      completed_at[static_cast<std::size_t>(s.target)] = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < model_.statements.size(); ++i) {
    const statement& s = model_.statements[i];
    if (s.which == statement::kind::factor) continue;
    int v = s.target;
    const auto& var = model_.variables[static_cast<std::size_t>(v)];
    bool observed_data = var.role == role::data && !missing_[static_cast<std::size_t>(v)];
    if (has_holes_) check_hole_reads(s);
    if (observed_data || (var.role == role::transformed_data && var.observed && s.which == statement::kind::sample)) {
      if (!observed_data) check_computed_elements(s);
      run_statement(s, nullptr, false);
      continue;
    }
    if (var.role == role::data) defined_[static_cast<std::size_t>(v)].clear();
    if (!built_[static_cast<std::size_t>(v)] && var.role != role::data) {
      built_[static_cast<std::size_t>(v)] = 1;
      allocate(v);
      // Values given with --init are set before anything that depends on them is drawn.
      if (set_initial(v)) {
        given[static_cast<std::size_t>(v)] = 1;
        defined_[static_cast<std::size_t>(v)].clear();
      }
    } else if (var.role == role::data && defined_[static_cast<std::size_t>(v)].empty()) {
      defined_[static_cast<std::size_t>(v)].assign(static_cast<std::size_t>(values_[static_cast<std::size_t>(v)].size()), 0);
    }
    if (given[static_cast<std::size_t>(v)]) continue;
    run_statement(s, &rng, s.which == statement::kind::sample);
    if (supports(*this).ordered(v) && completes_target(i)) arrange_ordered_start(v, rng);
    const bool last_defining = completed_at[static_cast<std::size_t>(v)] <= static_cast<int>(i);
    if (last_defining && (var.role != role::data || s.which == statement::kind::sample)) finish_definitions(v);
  }
  starting_ = false;
  if (has_holes_)
    for (const statement& s : model_.statements)
      if (s.which == statement::kind::factor) check_hole_reads(s);
}

void graph::draw_prior(rng& rng) {
  for (const statement& s : model_.statements) {
    if (s.which == statement::kind::factor) continue;
    const auto& var = model_.variables[static_cast<std::size_t>(s.target)];
    bool redraw = var.role == role::unknown || missing_[static_cast<std::size_t>(s.target)];
    if (redraw || var.role == role::derived) run_statement(s, &rng, s.which == statement::kind::sample);
    if (supports(*this).ordered(s.target) && completes_target(static_cast<std::size_t>(&s - model_.statements.data()))) sort_ordered_draw(s.target);
  }
}

void graph::draw_variable(int variable, rng& rng) {
  for (int si : model_.variables[static_cast<std::size_t>(variable)].statements) {
    const statement& s = model_.statements[static_cast<std::size_t>(si)];
    if (s.which == statement::kind::sample) run_statement(s, &rng, true);
  }
  if (supports(*this).ordered(variable)) sort_ordered_draw(variable);
}

void graph::update_derived() {
  for (const statement& s : model_.statements)
    if (s.which == statement::kind::assign && model_.variables[static_cast<std::size_t>(s.target)].role == role::derived)
      recompute(s);
}

void graph::update_derived(const std::vector<char>& needed) {
  for (const statement& s : model_.statements)
    if (s.which == statement::kind::assign && model_.variables[static_cast<std::size_t>(s.target)].role == role::derived &&
        needed[static_cast<std::size_t>(s.target)])
      recompute(s);
}

// An `=` statement again, as one batch where it can be (once the graph is built: while it
// is, each element's first definition is tracked instance by instance).
void graph::recompute(const statement& s) {
  work_ += instance_count(s);
  if (defined_[static_cast<std::size_t>(s.target)].empty()) {
    if (affine_definition* a = affine_definition_of(s)) {
      apply_affine_definition(*a, s);
      return;
    }
    if (batch_assign(s)) return;
    // A definition a gradient replays from its tape (a recursion, which the batch refuses):
    // the replay's values are the instance path's bit for bit, without the walk.
    if (tape* t = recorded_tape(s); t && t->forward(values_, s.target)) return;
  }
  run_statement(s, nullptr, false);
}

}  // namespace ppl::model
