#pragma once
// The contract of a built-in function or operator. Each lives in stdlib/ and is registered
// in stdlib/library.cpp. Operators are functions with reserved names ("+", "*", "'", ...),
// so the evaluator and automatic differentiation treat them exactly like calls.
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "core/tensor.hpp"
#include "stdlib/types.hpp"

namespace ppl::stdlib {

using ppl::index_t;
using ppl::shape;
using ppl::view;

// Arguments whose run-time shapes or values a function cannot accept ("dot: arguments have
// sizes 3 and 4"). The evaluator adds the source position.
struct argument_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Either the result type or a message saying what was expected
// ("dot expects two vectors, got real[,] and real[]").
using type_result = std::variant<type_sig, std::string>;

struct unary_math;
struct binary_math;
class distribution;

// A map's scalar formulas (stdlib/function_groups.hpp), for a caller that applies it to
// one element at a time without the virtual calls and views (model/tape.cpp). Applying
// them must be exactly what eval() and backward() do on scalar arguments.
struct scalar_formulas {
  const unary_math* unary = nullptr;
  const binary_math* binary = nullptr;
};

class function {
 public:
  virtual ~function() = default;

  virtual std::string_view name() const = 0;

  // Type checking, before data are known.
  virtual type_result result_type(std::span<const type_sig> args) const = 0;

  // The result's shape; may depend on argument values (rep(x, n)). Throws argument_error.
  virtual shape result_shape(std::span<const view> args) const = 0;

  // True when result_shape() reads only its arguments' shapes, never their values (it may
  // still refuse shapes): a caller that asked it once for these shapes (a tape, whose
  // shapes are fixed when recorded) need not ask again on every replay.
  virtual bool shape_from_shapes() const { return false; }

  // Writes result_shape(args).size() doubles to out, which never overlaps an argument
  // (every caller gives each node its own buffer), so a product may write it directly.
  virtual void eval(std::span<const view> args, double* out) const = 0;

  // Reverse mode: given the result `out` and the adjoint `d_out` of the result, adds
  // (d out / d arg_i)^T d_out into d_args[i] for every non-null d_args[i].
  virtual void backward(std::span<const view> args, view out, const double* d_out,
                        std::span<double* const> d_args) const = 0;

  // True for functions whose result does not depend smoothly on their arguments
  // (comparisons, max, rounding); the checker uses it to refuse gradients through them.
  virtual bool differentiable() const { return true; }

  // True for maps applied element by element (exp, tanh, +, .*): element i of the result
  // depends only on element i of each argument, a scalar argument being broadcast. Such a
  // function can be applied to a whole plate's values in one call (model/graph_plate.cpp).
  virtual bool elementwise() const { return false; }

  // The scalar formulas of an elementwise map of one or two arguments, else none.
  virtual scalar_formulas formulas() const { return {}; }

  // eval() of a call with a scalar result that may also give its partial derivatives in
  // the same pass (a log density computes them with its value): one per element of each
  // argument, the arguments one after another (partials must have room for all). True
  // when it did: d_out * partials is then what backward() would add into d_args, element
  // by element in argument order (exactly, for scalar arguments; for arrays up to the
  // order a shared scalar argument's terms are summed in), and a caller may add that
  // instead. False (the default, or a call this one cannot give them for) leaves
  // backward() to be called.
  virtual bool eval_partials(std::span<const view> args, double* out, double* /*partials*/) const {
    eval(args, out);
    return false;
  }

  // A scalar call's rows at once (a plate's log_mix rows): row r's argument i is
  // args[i][r] where args[i] is a vector of the n rows, args[i][0] where it is a scalar
  // they share; out[r] is its value and partials[r * args.size() + i] its partial in
  // argument i, as eval_partials gives them row by row. False (the default) leaves the
  // caller to go row by row.
  virtual bool eval_partials_rows(std::span<const view> /*args*/, std::size_t /*n*/, double* /*out*/, double* /*partials*/) const {
    return false;
  }

  // The distribution of a log density taken element by element over scalar values and
  // parameters (normal_lpdf, not normal_lcdf): a caller that sums it over rows (`factor
  // normal_lpdf(y[n] | mu[n], s)` in a loop) may call checked_log_density_rows on the
  // columns of its arguments instead, the value first, as a `~` calls log_density_rows.
  // Null for every other function.
  virtual const distribution* rows_density() const { return nullptr; }
};

}  // namespace ppl::stdlib
