#include "model/evaluator.hpp"

#include <array>
#include <cmath>
#include <fmt/core.h>

#include "stdlib/function.hpp"

namespace ppl::model {

using lang::ir::expr;
using lang::ir::index_item;

evaluator::evaluator(const lang::ir::model& m)
    : model_(m),
      scratch_(static_cast<std::size_t>(m.expr_count)),
      results_(static_cast<std::size_t>(m.expr_count)),
      frozen_(static_cast<std::size_t>(m.expr_count), 0),
      adjoint_(static_cast<std::size_t>(m.expr_count)),
      held_(static_cast<std::size_t>(m.expr_count)),
      locals_(static_cast<std::size_t>(m.local_count)),
      local_adjoints_(static_cast<std::size_t>(m.local_count)) {}

namespace {

view scalar_view(std::vector<double>& buffer, double x) {
  buffer.resize(1);
  buffer[0] = x;
  return {buffer.data(), shape::scalar()};
}

}  // namespace

view evaluator::eval(const expr& e, frame& f) {
  const auto id = static_cast<std::size_t>(e.id);
  if (frozen_[id]) return results_[id];
  view result = evaluate(e, f);
  results_[id] = result;
  return result;
}

view evaluator::evaluate(const expr& e, frame& f) {
  auto& buffer = scratch_[static_cast<std::size_t>(e.id)];
  switch (e.which) {
    case expr::kind::int_const:
    case expr::kind::real_const:
      return scalar_view(buffer, e.constant);
    case expr::kind::loop_var:
      return scalar_view(buffer, static_cast<double>(f.loop[static_cast<std::size_t>(e.slot)]));
    case expr::kind::variable: {
      const tensor& t = (*f.values)[static_cast<std::size_t>(e.slot)];
      if (log) note_read(e.slot, t.data.data(), t.size(), f);
      return t.as_view();
    }
    case expr::kind::call:
      return eval_call(e, f);
    case expr::kind::index:
      return eval_index_expr(e, f);
    case expr::kind::vector_literal:
      return eval_vector(e, f);
    case expr::kind::ode:
      return eval_ode(e, f);
    case expr::kind::local: {
      auto& value = locals_[static_cast<std::size_t>(e.slot)];
      return {value.data(), e.type.rank == 0 ? shape::scalar() : shape::vector(static_cast<index_t>(value.size()))};
    }
  }
  return {};
}

namespace {

// Integers are stored as doubles, exact up to 2^53. A value beyond that (from data such as
// 1e300, or a literal as large) or NaN is no index or size, and converting it to an
// integer would be undefined; below the bound, index arithmetic cannot overflow either.
index_t to_index(double x, std::size_t pos) {
  constexpr double limit = 9007199254740992.0;  // 2^53
  if (!(std::fabs(x) <= limit))
    throw eval_error(pos, fmt::format("{} is not usable as an index or a size (an integer of at most 2^53 in magnitude)", x));
  return static_cast<index_t>(x);
}

}  // namespace

namespace {

// A loop variable or an integer literal's value, without evaluating a node; false for
// anything else.
bool direct_index(const expr& e, const frame& f, index_t& out) {
  if (e.which == expr::kind::loop_var) return out = f.loop[static_cast<std::size_t>(e.slot)], true;
  if (e.which == expr::kind::int_const && std::fabs(e.constant) <= 9007199254740992.0) return out = static_cast<index_t>(e.constant), true;
  return false;
}

}  // namespace

index_t evaluator::eval_index(const expr& e, frame& f) {
  if (e.which == expr::kind::loop_var) return f.loop[static_cast<std::size_t>(e.slot)];
  if (e.which == expr::kind::int_const) return to_index(e.constant, e.pos);
  // t - 1, i + 1: integer arithmetic of a loop variable and a literal, exact in doubles,
  // without a call's machinery (a third of the calls of a recursion over time were these).
  if (e.which == expr::kind::call && e.args.size() == 2 && !log) {
    const std::string_view name = e.fn->name();
    index_t a = 0, b = 0;
    if ((name == "+" || name == "-") && direct_index(*e.args[0], f, a) && direct_index(*e.args[1], f, b)) {
      const index_t r = name == "+" ? a + b : a - b;
      if (r >= -(index_t{1} << 52) && r <= (index_t{1} << 52)) return r;
    }
  }
  return to_index(eval(e, f).scalar(), e.pos);
}

view evaluator::eval_call(const expr& e, frame& f) {
  constexpr std::size_t max_args = 8;
  if (e.args.size() > max_args) throw eval_error(e.pos, "too many arguments");
  view_buffer<max_args> args;
  for (std::size_t i = 0; i < e.args.size(); ++i) args.push_back(eval(*e.args[i], f));
  const std::span<const view> span = args.span();
  auto& buffer = scratch_[static_cast<std::size_t>(e.id)];
  try {
    shape s = e.fn->result_shape(span);
    double elements = 1;
    for (int d = 0; d < s.rank; ++d) elements *= static_cast<double>(s.dims[static_cast<std::size_t>(d)]);
    if (elements > static_cast<double>(index_t{1} << 28))
      throw eval_error(e.pos, fmt::format("the result would have {:.0f} elements, more than the limit of 268435456 (2^28)", elements));
    buffer.resize(static_cast<std::size_t>(s.size()));
    e.fn->eval(span, buffer.data());
    return {buffer.data(), s};
  } catch (const stdlib::argument_error& err) {
    throw eval_error(e.pos, err.what());
  }
}

view evaluator::eval_vector(const expr& e, frame& f) {
  auto& buffer = scratch_[static_cast<std::size_t>(e.id)];
  // Elements are evaluated first (each into its own buffer), then stacked.
  std::vector<view> items;
  items.reserve(e.args.size());
  for (const auto& a : e.args) items.push_back(eval(*a, f));
  shape inner = items.front().shape;
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!(items[i].shape == inner))
      throw eval_error(e.args[i]->pos, "the elements of a vector literal have different shapes: " + inner.str() + " and " +
                                         items[i].shape.str());
  buffer.resize(static_cast<std::size_t>(inner.size()) * items.size());
  double* out = buffer.data();
  for (const auto& v : items) out = std::copy(v.begin(), v.end(), out);
  shape s;
  s.rank = inner.rank + 1;
  s.dims[0] = static_cast<index_t>(items.size());
  for (int i = 0; i < inner.rank; ++i) s.dims[static_cast<std::size_t>(i + 1)] = inner[i];
  return {buffer.data(), s};
}

}  // namespace ppl::model
