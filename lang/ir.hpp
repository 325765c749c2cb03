#pragma once
// The checked model: every name resolved, every expression typed, every variable given a
// role. The checker (lang/checker.*) builds it from the syntax tree; model/ builds the
// graph from it and evaluates its expressions.
#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lang/ast.hpp"
#include "core/source_error.hpp"
#include "stdlib/distribution.hpp"
#include "stdlib/function.hpp"
#include "stdlib/types.hpp"

namespace ppl::lang::ir {

using stdlib::scalar_kind;
using stdlib::type_sig;

struct expr;
using expr_ptr = std::unique_ptr<expr>;

// One position of an index: a single index (drops the dimension) or a range (keeps it).
struct index_item {
  enum class kind { single, range, all } which = kind::single;
  expr_ptr lo;  // single: the index; range: the start (null: 1)
  expr_ptr hi;  // range: the end (null: the extent)
};

struct expr {
  // ode: an ODE's solution at given times (model/evaluator_ode.cpp); args: the
  // right-hand side, the initial state, the initial time, the output times, then the
  // relative and absolute tolerances and the most steps when given. local: the time or the
  // state an ODE's right-hand side is written in, bound while the solver runs.
  enum class kind { int_const, real_const, variable, loop_var, call, index, vector_literal, ode, local };
  enum class ode_method { rk45, bdf };
  kind which = kind::int_const;
  type_sig type;
  std::size_t pos = 0;          // byte offset in the model source, for messages
  int id = 0;                   // dense numbering, for per-node scratch storage
  double constant = 0;          // int_const, real_const
  int slot = -1;                // variable: its id; loop_var, local: its slot; ode: its time's local (slot + 1 its state's)
  ode_method method = ode_method::rk45;  // ode
  const stdlib::function* fn = nullptr;  // call
  std::vector<expr_ptr> args;   // call arguments; index: args[0] is the base; literal items
  std::vector<index_item> indices;       // index
  bool depends_on_unknown = false;       // reads an unknown or derived variable
  // A loop bound the checker wrote for a vectorised statement (lang/vectorise.cpp): it
  // reads only its arguments' shapes, which never change, so it reads no values.
  bool shape_only = false;
  int depth = 1;                         // of the tree below (calls count; bounded by the checker)
};

// The deepest expression tree the checker accepts: evaluation and differentiation recurse
// once per level.
constexpr int max_expression_depth = 1000;

enum class role {
  data,              // declared with `data` (or a size bound by a declaration)
  transformed_data,  // `=` of data only: computed once
  unknown,           // the target of `~` that is not data: sampled
  derived,           // `=` that depends on unknowns: recomputed from them
};

struct bound_spec {
  expr_ptr lower, upper;
};

// A param's constraint on the vector as a whole, beyond its elements' supports: Stan's
// `ordered[K]` (strictly increasing) and `positive_ordered[K]` (and above 0).
enum class vector_constraint { none, ordered, positive_ordered };

struct variable {
  std::string name;
  type_sig type;
  ir::role role = role::data;
  std::size_t pos = 0;                // where it is declared or first defined
  bool observed = false;              // data (or transformed data) that is the target of `~`
  bool is_size = false;               // implied by a declaration's dims: `data doc: int[N]`
  std::vector<expr_ptr> dims;         // data: declared dims (each an int expression or size)
  bound_spec bounds;                  // data: declared bounds
  expr_ptr default_value;             // data: `= expr`
  std::vector<int> statements;        // statements whose target is this variable
  // Missing values in observed data (lang/checker_missing.cpp): an unknown whose elements
  // are the data's where given (filled_from: the data variable holding them) and imputed
  // where missing; and that data variable, whose missing values (NaN) are allowed.
  int filled_from = -1;
  bool may_miss = false;
  vector_constraint constraint = vector_constraint::none;  // param: declared ordered
};

struct loop {
  int slot = 0;  // loop variable slot
  std::string name;
  expr_ptr lo, hi;
  // Written by the checker, not the model: the elements of a vectorised statement, or an
  // `if` (a loop of one or no instance). Messages leave it out.
  bool hidden = false;
  bool condition = false;  // an `if`: hi is 1 where its condition holds, else 0
};

struct statement {
  enum class kind { sample, assign, factor };
  kind which = kind::sample;
  std::size_t pos = 0;
  std::vector<loop> loops;               // enclosing loops, outermost first
  int target = -1;                       // sample/assign: the variable
  std::vector<expr_ptr> target_indices;  // single int indices of the target
  // sample only: a range `from:to` after the indices (`error[2, 1:2] ~ Dirichlet(a)`): the
  // value's first dimension fills dimension target_indices.size() from `from` to `to`, a
  // block of it (null: the value fills the dimensions after the indices whole).
  expr_ptr target_from, target_to;
  const stdlib::distribution* dist = nullptr;
  std::string dist_name;
  std::vector<expr_ptr> args;            // sample: the distribution's arguments
  expr_ptr value;                        // assign: the value; factor: the term
  // sample in a loop, with a term that reads unknowns: the term as an expression, the call
  // D_lpdf(target[indices] | args...) with constants (lang/checker_log_density.cpp), which a
  // gradient may record on a tape when it cannot take the statement's rows as a batch
  // (model/graph_tape.cpp); null otherwise. Nothing else reads it.
  expr_ptr density;
};

// Hashes a std::string and a std::string_view alike, so that a lookup by view makes no copy.
struct name_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

// What a `print(...)` prints (lang/prints.hpp): the derived variable holding an argument,
// the argument as written, the loops it is indexed by, and where the print stands.
struct printed_value {
  int variable = -1;
  std::string label, loops;
  std::size_t pos = 0;
};

struct model {
  source_file source;
  line_index lines;                      // of source.text: line numbers for many positions
  std::vector<variable> variables;
  std::vector<statement> statements;     // in dependency order: parents before children
  std::vector<printed_value> prints;     // in the order of the model's text
  std::vector<std::string> loop_names;   // by slot
  int expr_count = 0;                    // ids are 0 .. expr_count - 1
  int local_count = 0;                   // the slots of ODEs' times and states (expr::kind::local)
  // Functions the checker made for this model (the extent of a vectorised statement, a
  // `normal_lpdf`), which expressions point to.
  std::vector<std::unique_ptr<stdlib::function>> lowered_functions;
  // Distributions made for this model: a censored or truncated one (stdlib/restricted.hpp).
  std::vector<std::unique_ptr<stdlib::distribution>> lowered_distributions;
  // Each variable's index by name, kept by the checker as it adds them: every name in a
  // model of 100,000 statements is looked up several times.
  std::unordered_map<std::string, int, name_hash, std::equal_to<>> names;

  int find(std::string_view name) const {
    auto it = names.find(name);
    return it == names.end() ? -1 : it->second;
  }
};

// Whether anything in the model is unknown: without an unknown there is nothing to infer.
inline bool has_unknowns(const model& m) {
  for (const auto& v : m.variables)
    if (v.role == role::unknown) return true;
  return false;
}

// Appends every variable an expression reads (with repeats); not those whose shape alone
// it reads.
inline void collect_reads(const expr* e, std::vector<int>& out) {
  if (!e || e->shape_only) return;
  if (e->which == expr::kind::variable) out.push_back(e->slot);
  for (const auto& a : e->args) collect_reads(a.get(), out);
  for (const auto& ix : e->indices) {
    collect_reads(ix.lo.get(), out);
    collect_reads(ix.hi.get(), out);
  }
}

// Whether an expression reads a variable (not its shape alone).
inline bool reads_variable(const expr& e, int variable) {
  std::vector<int> reads;
  collect_reads(&e, reads);
  return std::find(reads.begin(), reads.end(), variable) != reads.end();
}

// Whether some node of an expression (its arguments and index bounds included) satisfies
// `pred`.
template <class Pred>
bool any_node(const expr& e, const Pred& pred) {
  if (pred(e)) return true;
  for (const auto& a : e.args)
    if (any_node(*a, pred)) return true;
  for (const auto& ix : e.indices)
    if ((ix.lo && any_node(*ix.lo, pred)) || (ix.hi && any_node(*ix.hi, pred))) return true;
  return false;
}

// Whether an expression reads a loop variable anywhere (its value can differ between the
// instances of a plate), or an ODE's time or state (its value changes as the solver runs).
inline bool uses_loop_variable(const expr& e) {
  return any_node(e, [](const expr& x) { return x.which == expr::kind::loop_var || x.which == expr::kind::local; });
}

// Every variable a statement reads: loop bounds, indices, arguments and value.
inline std::vector<int> statement_reads(const statement& s) {
  std::vector<int> out;
  for (const auto& l : s.loops) {
    collect_reads(l.lo.get(), out);
    collect_reads(l.hi.get(), out);
  }
  for (const auto& ix : s.target_indices) collect_reads(ix.get(), out);
  collect_reads(s.target_from.get(), out);
  collect_reads(s.target_to.get(), out);
  for (const auto& a : s.args) collect_reads(a.get(), out);
  collect_reads(s.value.get(), out);
  return out;
}

}  // namespace ppl::lang::ir
