#pragma once
// A statement's instances recorded once as a flat tape and replayed for every gradient
// (issue 40). The instance path walks each instance's expression tree on every gradient:
// per node a recursion, its indices worked out again, a virtual result_shape, a buffer
// resized; and a definition's reverse pass evaluates each instance a second time. For a
// recursion over time (`sigma[t]` from `sigma[t - 1]`) or a reduction (`log_sum_exp` of a
// row of the HMM's forward table) that bookkeeping was 95% of the gradient.
//
// Recording walks the instances once, as the instance path does, and keeps for each node
// what cannot change: where its value sits (a slot of the tape, or straight in a
// variable's storage at an offset fixed by indices free of unknowns), its arguments'
// nodes, and for a strided selection its flat offsets. Sub-expressions free of unknowns
// are evaluated then and kept as constants. Replaying is a loop over the tape's calls in
// order (each a function's own eval, on views made once) and, backwards, the same
// function's backward: the same arithmetic in the same order as the instance path, so the
// draws are bit for bit those of the evaluator, only without the walk. The forward values
// stay in the tape, so a definition is evaluated once per gradient.
//
// A statement is taped only when its loop bounds, its target's indices and every index
// inside it are free of unknowns (they fix the tape's shape) and it holds no ODE. If a
// replay meets anything unexpected (a function refusing its arguments, a shape that moved)
// it reports false and the caller takes the instance path, which reports the error with
// its position.
#include <cstdint>
#include <map>
#include <utility>
#include <span>
#include <vector>

#include "core/tensor.hpp"
#include "lang/ir.hpp"

namespace ppl::model {

class evaluator;
struct frame;

class tape {
 public:
  // What a statement's instance contributes: its root node, and for an `=` statement where
  // its value goes in the target.
  struct instance {
    std::uint32_t root;
    index_t target_offset;
  };

  // Appends node e, as evaluated at the frame's loop values, and returns its index.
  // `hoisted` sub-expressions (free of loop variables) are recorded the first time only;
  // later instances share that node, and its adjoint is summed over them. Throws
  // tape::refused for what a tape cannot hold, eval_error or stdlib::argument_error as
  // evaluation does.
  struct refused {};
  std::uint32_t record(evaluator& ev, const lang::ir::expr& e, frame& f);
  void hoist(const std::vector<const lang::ir::expr*>& hoisted);
  // `shared` sub-expressions read some of the loop variables only: recorded once per value
  // of those, later instances with the same values sharing the node; their adjoints are
  // summed and passed on after every instance's, as a hoisted node's are (so the gradient
  // is the instance path's up to the order of those sums).
  void share(const std::vector<const lang::ir::expr*>& shared);
  // While recording: node n's value as it is now (an `=` statement copies it to its target).
  view recorded_value(std::uint32_t n, const frame& f) const { return {now(nodes_[n], f), nodes_[n].out}; }
  // Ends recording: makes the nodes' views and the reverse pass, in which each instance's
  // root receives `1` (a factor, target -1) or its element of `target`'s adjoint. False
  // when the tape would be too large.
  bool finish(const std::vector<tensor>& values, int target);
  std::vector<instance> instances;

  // Whether the variables' storage is still where it was recorded (a tape points into it).
  bool valid(const std::vector<tensor>& values) const;
  // Evaluates every call in order; an `=` statement's instance values are written into
  // `target` as they come (later instances read them). False on any failure.
  bool forward(std::vector<tensor>& values, int target);
  // The instances' factor values summed in order (after forward).
  double total() const;
  // Passes the adjoints back from the instances' roots, in order or reversed; then the
  // hoisted nodes pass their summed adjoints on. `slots` are the variables' adjoints
  // (null: none).
  void backward(std::span<double* const> slots, bool reverse);

 private:
  enum class kind : std::uint8_t {
    constant,  // free of unknowns: a value recorded once (or data read in place)
    variable,  // a whole variable, read in place
    element,   // a contiguous block of a variable at a fixed offset, read in place
    gather,    // a strided selection of a variable: copied at `offsets`
    slice,     // a selection of a computed node: a view of it, or copied at `offsets`
    call,
    vector,    // a vector literal: its items stacked
  };
  // How a call is applied: through the function's eval and backward, or, for a map of
  // scalars, its formulas inline (the same arithmetic: stdlib/elementwise.cpp's maps and
  // the product of two scalars).
  // A call of scalars otherwise goes through eval_partials: the partials it gives are
  // kept (per node, `partials`) for the reverse pass, which then skips backward().
  enum class op : std::uint8_t { generic, unary, binary, product, partials };
  struct node {
    const lang::ir::expr* e;
    kind which;
    op how = op::generic;
    const void* formulas = nullptr;  // unary: a stdlib::unary_math; binary: a stdlib::binary_math
    index_t size = 0;                // out.size(), after finish()
    std::size_t partials = 0;        // op::partials: its arguments' partials in partials_
    double ca = 0, cb = 0;           // op::binary with constant partials (+, -): the partials
    bool depends;    // on unknowns: takes part in the reverse pass
    bool hoisted = false;
    bool contiguous = true;  // slice, element: one block at `offset`
    bool shape_fixed = false;  // call: its function's result_shape reads shapes only (asked once, when recorded)
    int variable = -1;       // variable, element, gather
    std::uint32_t base = 0;  // slice: the node selected from
    index_t offset = 0;      // element, slice (contiguous)
    std::uint32_t first = 0, count = 0;  // call, vector: arguments in args_; gather, slice: offsets in offsets_
    shape out;
    std::size_t value = 0;    // its value's slot in values_ (constant, gather, slice copied, call, vector)
    std::size_t adjoint = 0;  // its adjoint's slot in adjoints_ (computed nodes that depend on unknowns)
    std::size_t scratch = 0;  // slice: a buffer of its base's size, where its adjoint is scattered
    const double* data = nullptr;  // after finish(): where its value is
    std::uint32_t fast = 0xffffffffu;  // op unary, binary, product: its scalar_call
  };
  // A call of scalars by its formulas (op unary, binary, product) as forward() and run()
  // apply it, made by finish(): its arguments' and result's addresses at hand, so a step of
  // a recursion reads one record instead of its node, its views and their data.
  // The commonest formulas, applied inline (their arithmetic exactly as
  // stdlib/elementwise.cpp and operators.cpp write it); others through their pointers.
  enum class formula : std::uint8_t { other, add, subtract, square, sqrt, exp, log, multiply };
  struct scalar_call {
    op how;
    formula known;
    const void* formulas;
    double ca, cb;                 // op::binary with constant partials
    const double* a;
    const double* b;               // none for op::unary
    double* out;
  };
  static formula known_formula(const node& n);
  // Inlined into the passes' loops (a call a step was a tenth of a recursion's time).
  [[gnu::always_inline]] void scalar_forward(const scalar_call& c) const;
  [[gnu::always_inline]] void scalar_backward(const scalar_call& c, const double* d_out, double* to_a, double* to_b) const;
  std::vector<scalar_call> scalar_calls_;
  std::vector<std::uint32_t> exec_fast_;  // by exec_ entry: its scalar_call, or none
  std::uint32_t add(node n, const double* from);
  void choose_op(node& n);
  std::uint32_t record_node(evaluator& ev, const lang::ir::expr& e, frame& f);
  std::uint32_t record_index(evaluator& ev, const lang::ir::expr& e, frame& f);
  // While recording, where node n's value is now (the tape's storage may still move).
  const double* now(const node& n, const frame& f) const;
  view value_of(std::uint32_t n) const { return {nodes_[n].data, nodes_[n].out}; }
  // A strided selection's values (gather, slice): from[offset] for each of its offsets.
  void gather(const node& n, const double* from) {
    double* out = values_.data() + n.value;
    for (std::uint32_t k = 0; k < n.count; ++k) out[k] = from[offsets_[n.first + k]];
  }
  // A node free of unknowns, evaluated now and kept.
  std::uint32_t record_constant(evaluator& ev, const lang::ir::expr& e, frame& f);
  void apply_backward(std::uint32_t index, const double* d_out, double* const* to) const;

  // ---- the reverse pass as a flat program (made by finish()) ----
  // A place an adjoint is read from or added to: a variable's adjoint at an offset, known
  // only when a gradient gives the variables' adjoints (`slots`), or a fixed address (a
  // node's adjoint buffer, the 1 a factor's root receives).
  struct place {
    int variable = -1;
    index_t offset = 0;
    double* fixed = nullptr;
  };
  std::uint32_t add_place(place p);
  // One step of the reverse pass, what the evaluator's backward() does at one node: a
  // call's backward into its arguments' places (`first`: their places in rev_args_); a
  // variable's elements, a strided selection's, a slice's into its base's buffer, or a
  // hoisted node's sum, added from d_out into the place `first`.
  // (step::scalar is a call of scalars by its formulas: `node` is then its scalar_call.)
  enum class step : std::uint8_t { call, scalar, add, scatter, slice, held };
  struct rev_op {
    step what;
    std::uint32_t node, d_out, first;
  };
  // Appends the steps that pass the adjoint at place d_out back from node n, in the
  // evaluator's order: a node, then each argument that needs its own buffer, depth first.
  void emit(std::uint32_t n, std::uint32_t d_out, bool as_root);
  void run(std::uint32_t first, std::uint32_t last);
  std::vector<place> places_;
  std::vector<double*> at_;  // places_ resolved: fixed ones by finish(), the rest per gradient
  std::vector<std::uint32_t> moving_;  // the places at a variable's adjoint
  std::vector<double*> resolved_for_;  // the variables' adjoints moving_'s places were resolved against
  std::uint32_t null_place_ = 0;       // a place that is always null (an argument without adjoint)
  // The forward pass: the nodes to evaluate (computed, reading unknowns), instance i's
  // at [exec_at_[i], exec_at_[i + 1]).
  std::vector<std::uint32_t> exec_, exec_at_;
  std::vector<rev_op> rev_;
  std::vector<std::uint32_t> rev_args_;
  std::vector<std::uint32_t> instance_steps_;  // instance i's steps: [instance_steps_[i], instance_steps_[i + 1])
  double one_ = 1;

  std::vector<node> nodes_;
  std::vector<std::uint32_t> args_;      // call and vector arguments, by node
  std::vector<view> arg_views_;          // the same as views (after finish)
  std::vector<index_t> offsets_;         // gather and strided slice offsets, by node
  std::vector<double> values_;           // computed and constant values
  std::vector<double> adjoints_;         // computed nodes' adjoints; hoisted nodes' sums
  std::vector<double> partials_;         // op::partials nodes' partials, from the last forward
  std::vector<char> given_;              // by node: its last forward gave partials
  std::vector<std::pair<int, const double*>> reads_;  // variables read in place, and where their storage was
  std::vector<int> hoisted_ids_;              // expression ids, in the order given to hoist()
  std::vector<std::uint32_t> hoisted_nodes_;  // the same order: the node, once recorded (else none)
  struct shared_expr {
    int id;
    std::vector<int> slots;  // the loop variables it reads
  };
  std::vector<shared_expr> shared_;
  std::map<std::pair<std::size_t, std::vector<index_t>>, std::uint32_t> shared_nodes_;  // (shared_ index, loop values) -> node
  std::vector<std::uint32_t> shared_order_;  // shared nodes as recorded
  static constexpr std::uint32_t none = 0xffffffffu;
};

}  // namespace ppl::model
