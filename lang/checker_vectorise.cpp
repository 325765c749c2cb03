// Vectorised statements: `y ~ Normal(mu, sigma)` with y an array and each argument a
// scalar or an array of y's shape is the loop `for i in ... { y[i] ~ Normal(mu[i], sigma) }`.
// The checker writes that loop (hidden loops, lang/ir.hpp), so the graph, the blankets and
// the samplers see the plate they already know (conjugate updates, batched gradients).
// The loop's bound checks that every array of the statement has one shape
// (lang/extent_function.hpp). Only distributions of scalars with scalar parameters
// vectorise: Categorical(p), Dirichlet and MultiNormal keep their meaning.
#include <algorithm>

#include "lang/checker_impl.hpp"
#include "lang/extent_function.hpp"

namespace ppl::lang::detail {

using ir::expr;
using ir::expr_ptr;
using stdlib::scalar_kind;

bool vectorises(const stdlib::distribution& d) {
  if (d.value_rank() != 0) return false;
  const auto params = d.params();
  return std::all_of(params.begin(), params.end(), [](const auto& p) { return p.rank == 0; });
}

namespace {

std::string dimensions(int rank) { return std::to_string(rank) + (rank == 1 ? " dimension" : " dimensions"); }

// A value that is a view into a variable's storage: cheap to evaluate again.
bool is_view(const expr& e) {
  if (e.which == expr::kind::variable) return true;
  return e.which == expr::kind::index && e.args[0]->which == expr::kind::variable;
}

}  // namespace

expr_ptr checker::loop_variable(int slot, std::size_t pos) {
  auto e = new_expr(expr::kind::loop_var, pos);
  e->slot = slot;
  e->type = {scalar_kind::integer, 0};
  return e;
}

expr_ptr checker::int_constant(long long value, std::size_t pos) {
  auto e = new_expr(expr::kind::int_const, pos);
  e->constant = static_cast<double>(value);
  e->type = {scalar_kind::integer, 0};
  return e;
}

// Adds a loop 1:hi inside the statement's loops, with a slot of its own.
int checker::hidden_loop(ir::statement& out, std::string name, expr_ptr hi) {
  ir::loop l;
  l.slot = static_cast<int>(model_.loop_names.size());
  l.name = std::move(name);
  l.lo = int_constant(1, hi->pos);
  l.hi = std::move(hi);
  l.hidden = true;
  model_.loop_names.push_back(l.name);
  out.loops.push_back(std::move(l));
  return out.loops.back().slot;
}

expr_ptr checker::clone(const expr& e) {
  auto c = new_expr(e.which, e.pos);
  c->type = e.type;
  c->constant = e.constant;
  c->slot = e.slot;
  c->fn = e.fn;
  c->depth = e.depth;
  c->shape_only = e.shape_only;
  for (const auto& a : e.args) c->args.push_back(clone(*a));
  for (const auto& ix : e.indices) {
    ir::index_item item;
    item.which = ix.which;
    if (ix.lo) item.lo = clone(*ix.lo);
    if (ix.hi) item.hi = clone(*ix.hi);
    c->indices.push_back(std::move(item));
  }
  return c;
}

// base[i, j, ...] with one loop variable per slot, on the leading dimensions.
expr_ptr checker::index_with(expr_ptr base, const std::vector<int>& slots, std::size_t pos) {
  auto e = new_expr(expr::kind::index, pos);
  e->type = {base->type.kind, base->type.rank - static_cast<int>(slots.size())};
  for (int slot : slots) {
    ir::index_item item;
    item.lo = loop_variable(slot, pos);
    e->indices.push_back(std::move(item));
  }
  e->args.push_back(std::move(base));
  return e;
}

// One element of an array-valued expression, the element of the vectorised loop: the
// index is pushed through elementwise maps, scalings, matrix-vector products and slices to
// the arrays they read, so that an instance reads one element of each (mu[i] + b * x[i],
// dot(X[i], beta)) rather than computing the whole array for every instance.
expr_ptr checker::index_into(expr_ptr e, const std::vector<int>& slots) {
  if (e->type.rank == 0) return e;
  const std::size_t pos = e->pos;
  if (e->which == expr::kind::call) {
    const std::string f(e->fn->name());
    const bool scaling = f == "*" && (e->args[0]->type.rank == 0 || e->args[1]->type.rank == 0);
    if (e->fn->elementwise() || scaling) {
      std::vector<expr_ptr> args;
      for (auto& a : e->args) args.push_back(index_into(std::move(a), slots));
      return make_call(f, std::move(args), pos);
    }
    if (f == "*" && slots.size() == 1 && e->args[0]->type.rank == 2 && e->args[1]->type.rank == 1) {
      std::vector<expr_ptr> args;
      args.push_back(index_with(std::move(e->args[0]), slots, pos));  // row i of M
      args.push_back(std::move(e->args[1]));
      return make_call("dot", std::move(args), pos);
    }
  }
  if (e->which == expr::kind::index) {
    // x[:, j] or x[2:5] or X[n] (a row): the loop variables take the places that keep a
    // dimension, in order.
    std::size_t next = 0;
    for (auto& ix : e->indices) {
      if (ix.which == ir::index_item::kind::single) continue;
      expr_ptr i = loop_variable(slots[next++], pos);
      if (ix.which == ir::index_item::kind::range && ix.lo) {
        std::vector<expr_ptr> args;
        args.push_back(std::move(ix.lo));
        args.push_back(make_call("-", [&] {
          std::vector<expr_ptr> a;
          a.push_back(std::move(i));
          a.push_back(int_constant(1, pos));
          return a;
        }(), pos));
        i = make_call("+", std::move(args), pos);
      }
      ix.which = ir::index_item::kind::single;
      ix.lo = std::move(i);
      ix.hi = nullptr;
    }
    for (; next < slots.size(); ++next) {
      ir::index_item item;
      item.lo = loop_variable(slots[next], pos);
      e->indices.push_back(std::move(item));
    }
    e->type.rank = 0;
    return e;
  }
  return index_with(std::move(e), slots, pos);
}

// How errors name argument k of a `~`: the variable it is, or its parameter's name.
std::string checker::argument_label(const ir::statement& out, std::size_t k) const {
  const expr& a = *out.args[k];
  if (a.which == expr::kind::variable) return "`" + model_.variables[static_cast<std::size_t>(a.slot)].name + "`";
  return "argument " + std::string(out.dist->params()[k].name) + " of " + out.dist_name;
}

// Each array argument has the rank of the loop's elements, `rank`; scalars are read whole.
void checker::check_elementwise_arguments(const ir::statement& out, int rank, const std::string& target_text) const {
  for (std::size_t k = 0; k < out.args.size(); ++k) {
    const int r = out.args[k]->type.rank;
    if (r != 0 && r != rank)
      fail(out.args[k]->pos, argument_label(out, k) + " has " + dimensions(r) + " but " + target_text + " has " + dimensions(rank) +
                                 ": the arguments of " + out.dist_name + " must be scalars or arrays of the shape of what it gives");
  }
}

// The target as an array of the loop's rank, `y` or `Y[:, k]`, for a target that holds
// values already.
expr_ptr checker::target_array(const ir::statement& out, int rank, std::size_t pos) {
  const auto& var = model_.variables[static_cast<std::size_t>(out.target)];
  auto t = new_expr(expr::kind::variable, pos);
  t->slot = out.target;
  t->type = var.type;
  if (!out.target_indices.empty()) {
    auto ix = new_expr(expr::kind::index, pos);
    ix->type = {var.type.kind, rank};
    for (const auto& i : out.target_indices) {
      ir::index_item item;
      if (i)
        item.lo = clone(*i);
      else
        item.which = ir::index_item::kind::all;
      ix->indices.push_back(std::move(item));
    }
    ix->args.push_back(std::move(t));
    t = std::move(ix);
  }
  return t;
}

// The arrays whose shapes the loop follows: the target when it holds values already (data,
// or a variable computed by `=` that this statement observes), then the array arguments.
// A `param`'s declared sizes (those of the dimensions this statement spans) come first.
vectorised_shapes checker::shapes_followed(const ir::statement& out, std::size_t pos, int rank, int target_rank,
                                           const std::vector<int>& kept, const std::string& target_text) {
  const auto v = static_cast<std::size_t>(out.target);
  const auto& var = model_.variables[v];
  vectorised_shapes shapes;
  const auto& declared = params_[v].dims;
  shapes.sized = !declared.empty() && target_rank == rank && static_cast<int>(kept.size()) == rank;
  if (shapes.sized) shapes.labels.push_back(target_text);
  if (is_data_decl_[v] || has_assign_[v]) {
    shapes.arrays.push_back(target_array(out, rank, pos));
    shapes.labels.push_back(target_text);
  }
  for (std::size_t k = 0; k < out.args.size(); ++k)
    if (out.args[k]->type.rank > 0) {
      shapes.arrays.push_back(clone(*out.args[k]));
      shapes.labels.push_back(argument_label(out, k));
    }
  if (shapes.arrays.empty() && !shapes.sized)
    fail(pos, target_text + " has " + dimensions(target_rank) + " but nothing in this statement says how many elements: " +
                      "give an argument of its shape, or write the loop (for i in 1:N { " + var.name + "[i] ~ ... })");
  // The most arguments a call takes (model/evaluator.cpp), declared sizes included.
  const std::size_t max_arrays = 8 - (shapes.sized ? static_cast<std::size_t>(rank) : 0);
  if (shapes.arrays.size() > max_arrays) shapes.arrays.resize(max_arrays), shapes.labels.resize(max_arrays + (shapes.sized ? 1 : 0));
  return shapes;
}

// The hidden loops over the `rank` dimensions `kept`, each bounded by an extent function of
// the shapes; their slots, outermost first.
std::vector<int> checker::vectorised_loops(ir::statement& out, const vectorised_shapes& shapes, int rank, const std::vector<int>& kept) {
  const auto v = static_cast<std::size_t>(out.target);
  const auto& var = model_.variables[v];
  const auto& declared = params_[v].dims;
  const auto& [arrays, labels, sized] = shapes;
  std::vector<int> slots;
  for (int d = 0; d < rank; ++d) {
    // The outer bound checks every array's shape; the inner ones, evaluated once per
    // outer instance, read only those that are views of variables where there is one.
    std::vector<expr_ptr> args;
    std::vector<std::string> names;
    if (sized) {
      for (int k = 0; k < rank; ++k) args.push_back(clone(*declared[static_cast<std::size_t>(kept[static_cast<std::size_t>(k)])]));
      names.push_back(labels[0]);
    }
    const std::size_t first_label = sized ? 1 : 0;
    for (std::size_t k = 0; k < arrays.size(); ++k)
      if (d == 0 || is_view(*arrays[k])) args.push_back(clone(*arrays[k])), names.push_back(labels[first_label + k]);
    if (args.empty()) args.push_back(clone(*arrays[0])), names.push_back(labels[0]);
    model_.lowered_functions.push_back(make_extent_function(d, rank, sized, std::move(names)));
    auto hi = new_expr(expr::kind::call, out.pos);
    hi->fn = model_.lowered_functions.back().get();
    hi->type = {scalar_kind::integer, 0};
    hi->shape_only = true;
    hi->args = std::move(args);
    slots.push_back(hidden_loop(out, var.name + "#" + std::to_string(d + 1), std::move(hi)));
  }
  return slots;
}

// Turns a `~` whose target or arguments are arrays into the loop over their elements.
void checker::vectorise(ir::statement& out, std::size_t pos, const std::string& text) {
  const auto v = static_cast<std::size_t>(out.target);
  const auto& var = model_.variables[v];
  // Whole dimensions (`Y[:, k]`) are the null target indices; the loop's dimensions are
  // those, in order, then the trailing ones.
  std::vector<int> kept;
  for (std::size_t d = 0; d < out.target_indices.size(); ++d)
    if (!out.target_indices[d]) kept.push_back(static_cast<int>(d));
  const int slices = static_cast<int>(kept.size());
  const std::string target_text = "`" + text + "`";
  if (!vectorises(*out.dist)) {
    if (slices) fail(pos, target_text + ": " + out.dist_name + " takes or gives arrays, so a whole dimension (`:`) on the left does not apply element by element; write the loop");
    return;
  }
  const int indexed = static_cast<int>(out.target_indices.size()) - slices;
  const bool typed = type_state_[v] == 2 || !var.statements.empty();
  int rank = 0;
  const expr* widest = nullptr;
  for (const auto& a : out.args)
    if (a->type.rank > rank) rank = a->type.rank, widest = a.get();
  const int target_rank = typed ? var.type.rank - indexed : slices ? std::max(rank, slices) : 0;
  if (slices && target_rank < slices)
    fail(pos, "`" + var.name + "` has " + dimensions(var.type.rank) + " but " + target_text + " indexes " +
                  std::to_string(out.target_indices.size()));
  if (target_rank <= 0 && rank == 0) return;
  for (int d = static_cast<int>(out.target_indices.size()); d < indexed + target_rank; ++d) kept.push_back(d);
  if (typed && target_rank < rank) {
    const auto k = static_cast<std::size_t>(std::find_if(out.args.begin(), out.args.end(), [&](const auto& a) { return a.get() == widest; }) -
                                            out.args.begin());
    fail(widest->pos, argument_label(out, k) + " has " + dimensions(rank) + " but " + target_text + " has " + dimensions(std::max(0, target_rank)) +
                          ": the arguments of " + out.dist_name + " must be scalars or arrays of the shape of what it gives");
  }
  rank = std::max(rank, target_rank);
  check_elementwise_arguments(out, rank, target_text);
  const vectorised_shapes shapes = shapes_followed(out, pos, rank, target_rank, kept, target_text);
  const std::vector<int> slots = vectorised_loops(out, shapes, rank, kept);
  std::size_t next = 0;
  for (auto& ix : out.target_indices)
    if (!ix) ix = loop_variable(slots[next++], pos);
  for (; next < slots.size(); ++next) out.target_indices.push_back(loop_variable(slots[next], pos));
  for (auto& a : out.args) a = index_into(std::move(a), slots);
}

}  // namespace ppl::lang::detail
