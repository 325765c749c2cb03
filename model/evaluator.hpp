#pragma once
// Evaluates checked expressions over the current values of a model's variables. Each
// expression node owns a scratch buffer that is reused from one evaluation to the next, so
// evaluating a statement inside a plate allocates nothing in the steady state; indexing a
// variable on its leading dimensions returns a view into its storage without copying.
// One evaluator per thread (chain): the scratch buffers are its state.
#include <array>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "core/tensor.hpp"

namespace ppl::model {

// A failure while evaluating an expression: an index out of range, a function refusing
// its arguments. `pos` is the byte offset of the expression in the model.
struct eval_error : std::runtime_error {
  eval_error(std::size_t p, const std::string& message) : std::runtime_error(message), pos(p) {}
  std::size_t pos;
};

// The values an expression can see: every variable's storage and the loop variables.
struct frame {
  std::vector<tensor>* values = nullptr;
  std::vector<index_t> loop;  // by loop slot
};

// A record of the variables an evaluation read: used to find which terms of the joint
// involve which elements (the Markov blanket index).
struct read_record {
  int variable;
  index_t offset;  // first element read (row-major)
  index_t size;    // number of contiguous elements read from offset
};
using read_log = std::vector<read_record>;

class tape;

class evaluator {
 public:
  explicit evaluator(const lang::ir::model& m);

  view eval(const lang::ir::expr& e, frame& f);

  // ---- reverse mode (automatic differentiation; model/evaluator_backward.cpp) ----
  // After eval(e, f), adds the adjoint `d_out` of e's value (e's size) through every node
  // of e that depends on an unknown, down to the variables: adjoints[v], when not null,
  // receives d(objective)/d(values of v), row-major like the values. Functions contribute
  // through stdlib::function::backward; indexing scatters into the selected elements.
  void backward(const lang::ir::expr& e, frame& f, const double* d_out, std::span<double* const> adjoints);
  // Hoisting a sub-expression out of a plate: freeze(e) after evaluating it keeps its value,
  // so that later evaluations of expressions containing e reuse it without recomputing,
  // and backward() collects e's adjoint (summed over the plate's instances) instead of
  // passing it on. thaw(e) ends that and returns the collected adjoint, to be passed to
  // backward(e, ...) once.
  void freeze(const lang::ir::expr& e);
  // Where the adjoint of e's value can be added directly, with nothing to pass on: a frozen
  // node's collected adjoint, a variable's adjoint, or a block of it for a contiguous
  // index of a variable (null when that variable takes no adjoint); `found` is false when
  // e needs its own buffer and a backward() after.
  double* adjoint_in_place(const lang::ir::expr& e, frame& f, std::span<double* const> adjoints, bool& found);
  const double* thaw(const lang::ir::expr& e);
  // An integer-valued scalar expression (indices, loop bounds).
  index_t eval_index(const lang::ir::expr& e, frame& f);

  // When set, every read of a variable is appended here.
  read_log* log = nullptr;
  // With `log`: a strided selection (x[, k]) is logged element by element, not as the
  // whole variable (the conservative record the Markov blankets take).
  bool exact_log = false;
  // Set while the graph differentiates: an ODE is then solved with its sensitivities, so
  // that the backward pass that follows reuses that solve (model/evaluator_ode.cpp).
  void differentiating(bool on) { differentiating_ = on; }

 private:
  // Which elements an index expression selects from its base.
 public:
  // Left uninitialised: plan_index sets the selection of every dimension of the base, and
  // nothing reads beyond them; zeroing a plan on every index evaluated cost 5-10% of a
  // recursion's gradient.
  struct selection {
    index_t first;  // 0-based
    index_t count;
    bool keep;      // a range keeps its dimension, a single index drops it
  };
  struct index_plan {
    view base;
    std::array<selection, max_rank> sel;  // dimensions [0, base.shape.rank) only
    shape out;
    index_t offset = 0;       // of the first selected element
    bool contiguous = true;   // the selection is one block of the base: out is a view
  };
  view evaluate(const lang::ir::expr& e, frame& f);

 private:
  friend class tape;  // records index plans once (model/tape_record.cpp)
  index_plan plan_index(const lang::ir::expr& e, frame& f);
  // Adds `from` (the selection's size) into the selected elements of the base's adjoint.
  static void scatter_add(const index_plan& p, const double* from, double* base_adjoint);
  view eval_index_expr(const lang::ir::expr& e, frame& f);
  view eval_call(const lang::ir::expr& e, frame& f);
  view eval_vector(const lang::ir::expr& e, frame& f);
  // ---- ODE solutions (model/evaluator_ode.cpp) ----
  view eval_ode(const lang::ir::expr& e, frame& f);
  void backward_ode(const lang::ir::expr& e, frame& f, const double* d_out, std::span<double* const> adjoints);
  struct ode_binding;
  struct ode_tape;
  void note_read(int variable, const double* begin, index_t size, frame& f) {
    const double* origin = (*f.values)[static_cast<std::size_t>(variable)].data.data();
    log->push_back({variable, static_cast<index_t>(begin - origin), size});
  }

  const lang::ir::model& model_;
  std::vector<std::vector<double>> scratch_;  // by expression id
  std::vector<view> results_;                  // by id: the value of the last evaluation
  std::vector<char> frozen_;                   // by id: hoisted (see freeze)
  std::vector<std::vector<double>> adjoint_;   // by id: the adjoint during backward()
  std::vector<std::vector<double>> held_;      // by id: a frozen node's collected adjoint
  std::vector<std::vector<double>> locals_;    // by local slot: an ODE's time and state while it is solved
  std::vector<std::vector<double>> local_adjoints_;  // by local slot: their adjoints while its Jacobian is taken
  // An ODE's last solution per instance (by node id, then the values of the loop variables
  // it reads), with the inputs it was solved for.
  struct ode_entry {
    std::vector<double> key, value, sensitivities;
    std::vector<int> params;
    bool has_sensitivities = false;
  };
  std::map<int, std::map<std::vector<index_t>, ode_entry>> ode_solutions_;
  std::map<int, std::vector<int>> ode_loops_;  // by node id: the loop slots it reads
  std::vector<double> ode_key_;
  bool differentiating_ = false;
};

}  // namespace ppl::model
