#pragma once
// Evaluates checked expressions over the current values of a model's variables. Each
// expression node owns a scratch buffer that is reused from one evaluation to the next, so
// evaluating a statement inside a plate allocates nothing in the steady state; indexing a
// variable on its leading dimensions returns a view into its storage without copying.
// One evaluator per thread (chain): the scratch buffers are its state.
#include <stdexcept>
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "runtime/tensor.hpp"

namespace ppl::runtime {

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

class evaluator {
 public:
  explicit evaluator(const lang::ir::model& m);

  view eval(const lang::ir::expr& e, frame& f);
  // An integer-valued scalar expression (indices, loop bounds).
  index_t eval_index(const lang::ir::expr& e, frame& f);

  // When set, every read of a variable is appended here.
  read_log* log = nullptr;

 private:
  view eval_index_expr(const lang::ir::expr& e, frame& f);
  view eval_call(const lang::ir::expr& e, frame& f);
  view eval_vector(const lang::ir::expr& e, frame& f);
  void note_read(int variable, const double* begin, index_t size, frame& f) {
    const double* origin = (*f.values)[static_cast<std::size_t>(variable)].data.data();
    log->push_back({variable, static_cast<index_t>(begin - origin), size});
  }

  const lang::ir::model& model_;
  std::vector<std::vector<double>> scratch_;  // by expression id
};

}  // namespace ppl::runtime
