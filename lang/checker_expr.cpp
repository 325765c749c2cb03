// Expressions: name resolution, operator folding and typing.
#include <algorithm>
#include <cctype>

#include "lang/checker_impl.hpp"
#include "lang/habits.hpp"
#include "lang/suggest.hpp"

namespace ppl::lang::detail {

using ir::expr;
using ir::expr_ptr;
using stdlib::scalar_kind;
using stdlib::type_sig;

namespace {

// The functions a user calls by name: not the operators, which the table names by symbol.
std::vector<std::string> named_functions(const stdlib::registry& lib) {
  std::vector<std::string> names;
  for (auto& name : lib.function_names())
    if (std::isalpha(static_cast<unsigned char>(name[0])) && name != "neg") names.push_back(std::move(name));
  return names;
}

// The shape a literal spells out (`[[1, 2], [3, 4]]`: [2, 2]), as deep as its first
// elements are literals themselves; empty for anything else.
std::vector<std::size_t> literal_shape(const ast::operand& o) {
  const auto* literal = boost::get<ast::x3::forward_ast<ast::vector_literal>>(&o);
  if (!literal) return {};
  const auto& elements = literal->get().elements;
  std::vector<std::size_t> shape{elements.size()};
  if (!elements.empty()) {
    auto inner = literal_shape(elements.front());
    shape.insert(shape.end(), inner.begin(), inner.end());
  }
  return shape;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

}  // namespace

// The functions matmul (R's %*%) stands for.
const std::string dot_name = "dot", product_name = "*";

void checker::fail(std::size_t pos, std::string message) const { fail_at(src_, pos, std::move(message)); }

expr_ptr checker::new_expr(expr::kind k, std::size_t pos) {
  auto e = std::make_unique<expr>();
  e->which = k;
  e->pos = pos;
  e->id = model_.expr_count++;
  return e;
}

expr_ptr checker::require_int_scalar(expr_ptr e, const char* what) {
  if (e->type.kind != scalar_kind::integer || e->type.rank != 0)
    fail(e->pos, std::string(what) + " must be an integer, not " + stdlib::to_string(e->type));
  return e;
}

// chain -> first (op operand)*, folded to the left.
expr_ptr checker::convert(const ast::chain& c) {
  expr_ptr left = convert(c.first);
  for (const auto& op : c.rest) {
    std::vector<expr_ptr> args;
    args.push_back(std::move(left));
    args.push_back(convert(op.rhs));
    left = make_call(op.op == "%*%" ? "matmul" : op.op, std::move(args), op.pos);
  }
  return left;
}

expr_ptr checker::convert(const ast::operand& o) {
  struct visitor {
    checker& c;
    expr_ptr operator()(const ast::nil&) const { return nullptr; }
    expr_ptr operator()(const ast::int_literal& x) const {
      auto e = c.new_expr(expr::kind::int_const, x.pos);
      e->constant = static_cast<double>(x.value);
      e->type = {scalar_kind::integer, 0};
      return e;
    }
    expr_ptr operator()(const ast::real_literal& x) const {
      auto e = c.new_expr(expr::kind::real_const, x.pos);
      e->constant = x.value;
      e->type = {scalar_kind::real, 0};
      return e;
    }
    expr_ptr operator()(const ast::identifier& x) const { return c.convert_identifier(x); }
    expr_ptr operator()(const ast::call& x) const { return c.convert_call(x); }
    expr_ptr operator()(const ast::vector_literal& x) const { return c.convert_vector(x); }
    expr_ptr operator()(const ast::postfix& x) const { return c.convert_postfix(x); }
    expr_ptr operator()(const ast::chain& x) const { return c.convert(x); }
    expr_ptr operator()(const ast::conditional& x) const { return c.convert_conditional(x); }
    expr_ptr operator()(const ast::conditioned& x) const {
      c.fail(x.tail.pos, "`|` separates the value from the parameters only in a log-density call: normal_lpdf(y | mu, sigma)");
    }
    expr_ptr operator()(const ast::unary& x) const {
      expr_ptr operand = c.convert(x.rhs);
      if (x.op == '+') return operand;
      std::vector<expr_ptr> args;
      args.push_back(std::move(operand));
      return c.make_call(x.op == '-' ? "neg" : "!", std::move(args), x.pos);
    }
  };
  return boost::apply_visitor(visitor{*this}, o);
}

expr_ptr checker::make_call(const std::string& given, std::vector<expr_ptr> args, std::size_t pos) {
  // matmul(a, b), R's and JAGS's `a %*% b`: the inner product of two vectors, else `*`.
  const bool inner = given == "matmul" && args.size() == 2 && args[0]->type.rank == 1 && args[1]->type.rank == 1;
  const std::string& name = given != "matmul" ? given : inner ? dot_name : product_name;
  const stdlib::function* fn = lib_.find_function(name);
  if (!fn) {
    if (lib_.find_distribution(name))
      fail(pos, "`" + name + "` is a distribution; use it on the right of `~`");
    if (std::string bugs = bugs_function(name); !bugs.empty()) fail(pos, "unknown function `" + name + "`: " + bugs);
    if (std::string bugs = bugs_distribution(name); !bugs.empty())
      fail(pos, "unknown function `" + name + "`: " + bugs + ", a distribution to use on the right of `~`");
    fail(pos, "unknown function `" + name + "`" + did_you_mean(near_names(name, named_functions(lib_))));
  }
  // M' * v is v * M (v' M as a vector): the same numbers without materialising the
  // transpose, and a product whose loops and adjoint run along M's rows (a network's
  // layer W' x costs half as much this way).
  if (name == "*" && args.size() == 2 && args[1]->type.rank == 1 && args[0]->which == expr::kind::call &&
      (args[0]->fn->name() == "'" || args[0]->fn->name() == "transpose") && args[0]->args.size() == 1 &&
      args[0]->args[0]->type.rank == 2) {
    expr_ptr matrix = std::move(args[0]->args[0]);
    args[0] = std::move(args[1]);
    args[1] = std::move(matrix);
  }
  std::vector<type_sig> types;
  for (const auto& a : args) types.push_back(a->type);
  stdlib::type_result r = fn->result_type(types);
  if (auto* msg = std::get_if<std::string>(&r)) fail(pos, *msg);
  auto e = new_expr(expr::kind::call, pos);
  for (const auto& a : args) e->depth = std::max(e->depth, a->depth + 1);
  if (e->depth > ir::max_expression_depth)
    fail(pos, "this expression is more than " + std::to_string(ir::max_expression_depth) +
                  " operations deep; compute it in steps (a sum of many terms: sum() of a vector)");
  e->fn = fn;
  e->type = std::get<type_sig>(r);
  e->args = std::move(args);
  return e;
}

expr_ptr checker::convert_identifier(const ast::identifier& id) {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
    if (it->name != id.name) continue;
    auto e = new_expr(expr::kind::local, id.pos);
    e->slot = it->slot;
    e->type = {scalar_kind::real, it->rank};
    return e;
  }
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->first != id.name) continue;
    auto e = new_expr(expr::kind::loop_var, id.pos);
    e->slot = it->second;
    e->type = {scalar_kind::integer, 0};
    return e;
  }
  int v = model_.find(id.name);
  if (v < 0) {
    if (lib_.find_function(id.name)) fail(id.pos, "`" + id.name + "` is a function; call it as " + id.name + "(...)");
    std::vector<std::string> names;
    for (const auto& var : model_.variables) names.push_back(var.name);
    for (const auto& s : scope_) names.push_back(s.first);
    fail(id.pos, "undefined name `" + id.name + "`" + did_you_mean(near_names(id.name, names)));
  }
  type_variable(v);
  if (current_statement_ >= 0) reads_[static_cast<std::size_t>(current_statement_)].push_back(v);
  auto e = new_expr(expr::kind::variable, id.pos);
  e->slot = v;
  e->type = model_.variables[static_cast<std::size_t>(v)].type;
  return e;
}

expr_ptr checker::convert_postfix(const ast::postfix& p) {
  expr_ptr e = convert(p.base);
  for (const auto& s : p.suffixes) {
    if (const auto* list = boost::get<ast::index_list>(&s)) {
      e = convert_index(std::move(e), *list);
    } else {
      std::vector<expr_ptr> args;
      args.push_back(std::move(e));
      e = make_call("'", std::move(args), boost::get<ast::transpose_mark>(s).pos);
    }
  }
  return e;
}

expr_ptr checker::convert_index(expr_ptr base, const ast::index_list& list) {
  int rank = base->type.rank;
  if (static_cast<int>(list.items.size()) > rank) {
    // Read by its own first definition (a[1] ~ Uniform(0, a[2])), before that gave its type.
    if (base->which == expr::kind::variable && model_.variables[static_cast<std::size_t>(base->slot)].statements.empty() &&
        first_definition_[static_cast<std::size_t>(base->slot)] == current_statement_)
      fail(list.pos, "`" + model_.variables[static_cast<std::size_t>(base->slot)].name + "` is defined in terms of itself");
    std::string what = base->which == expr::kind::variable
                           ? "`" + model_.variables[static_cast<std::size_t>(base->slot)].name + "`"
                           : "this expression";
    fail(list.pos, what + " has " + std::to_string(rank) + " dimension" + (rank == 1 ? "" : "s") +
                       " but is indexed with " + std::to_string(list.items.size()));
  }
  std::vector<ir::index_item> items;
  std::vector<expr_ptr> arrays(list.items.size());  // an integer array as an index: Stan's multiple indexing
  for (std::size_t k = 0; k < list.items.size(); ++k) {
    const auto& item = list.items[k];
    ir::index_item out;
    if (!item.tail) {
      out.which = item.lo ? ir::index_item::kind::single : ir::index_item::kind::all;
      if (item.lo) {
        expr_ptr x = convert(*item.lo);
        if (x->type.rank == 1 && x->type.kind == scalar_kind::integer) {
          arrays[k] = std::move(x);
          out.which = ir::index_item::kind::all;
        } else {
          out.lo = require_int_scalar(std::move(x), "an index");
        }
      }
    } else {
      out.which = ir::index_item::kind::range;
      if (item.lo) out.lo = require_int_scalar(convert(*item.lo), "a range bound");
      if (item.tail->hi) out.hi = require_int_scalar(convert(*item.tail->hi), "a range bound");
      if (!item.lo && !item.tail->hi) out.which = ir::index_item::kind::all;
    }
    items.push_back(std::move(out));
  }
  const auto multi = static_cast<std::size_t>(std::find_if(arrays.begin(), arrays.end(), [](const expr_ptr& a) { return a != nullptr; }) - arrays.begin());
  if (multi == arrays.size()) return index_with_items(std::move(base), std::move(items), list.pos);
  // x[idx] with idx an integer array is take(x, idx): the elements, or a matrix's rows, idx
  // names. Single indices may come before it (M[i, idx] is take(M[i], idx)), anything after.
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k < multi && items[k].which != ir::index_item::kind::single)
      fail(list.pos, "an integer array as an index after a range or `:` is not supported; index with a loop");
    if (k > multi && arrays[k]) fail(arrays[k]->pos, "one integer array as an index at most; index with a loop for more");
  }
  std::vector<ir::index_item> before, after;
  for (std::size_t k = 0; k < items.size(); ++k) (k < multi ? before : after).push_back(std::move(items[k]));
  if (!before.empty()) base = index_with_items(std::move(base), std::move(before), list.pos);
  std::vector<expr_ptr> args;
  args.push_back(std::move(base));
  args.push_back(std::move(arrays[multi]));
  expr_ptr taken = make_call("take", std::move(args), list.pos);
  const bool more = std::any_of(after.begin() + 1, after.end(), [](const ir::index_item& i) { return i.which != ir::index_item::kind::all; });
  if (!more) return taken;
  return index_with_items(std::move(taken), std::move(after), list.pos);
}

expr_ptr checker::index_with_items(expr_ptr base, std::vector<ir::index_item> items, std::size_t pos) {
  auto e = new_expr(expr::kind::index, pos);
  e->type = {base->type.kind, base->type.rank};
  for (auto& out : items) {
    if (out.which == ir::index_item::kind::single) --e->type.rank;
    e->indices.push_back(std::move(out));
  }
  e->args.push_back(std::move(base));
  return e;
}

expr_ptr checker::convert_vector(const ast::vector_literal& v) {
  if (v.elements.empty()) fail(v.pos, "an empty vector literal has no type; use rep(0, 0)");
  auto e = new_expr(expr::kind::vector_literal, v.pos);
  for (const auto& el : v.elements) e->args.push_back(convert(el));
  type_sig t = e->args.front()->type;
  for (const auto& a : e->args) {
    if (a->type.rank != t.rank) fail(a->pos, "the elements of a vector literal must all have the same shape");
    if (a->type.kind == scalar_kind::real) t.kind = scalar_kind::real;
  }
  check_rows(v, *e);
  if (t.rank + 1 > ppl::max_rank) fail(v.pos, "arrays have at most " + std::to_string(ppl::max_rank) + " dimensions");
  e->type = {t.kind, t.rank + 1};
  return e;
}

// Rows written out as literals must agree in length (`[[1, 2], [3]]` is ragged), as far
// as the literals tell; rows computed from data are checked by the graph. Inner literals
// were converted, and checked, first.
void checker::check_rows(const ast::vector_literal& v, const expr& converted) const {
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < v.elements.size(); ++i) {
    const auto shape = literal_shape(v.elements[i]);
    if (shape.empty()) continue;
    if (first.empty()) first = shape;
    const std::size_t depth = std::min(first.size(), shape.size());
    if (!std::equal(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(depth), shape.begin()))
      fail(converted.args[i]->pos, "the elements of a vector literal have different shapes: " + shape_text(first) + " and " +
                                       shape_text(shape));
  }
}

// cond ? yes : no is ifelse(cond, yes, no): both sides are evaluated, and the derivative
// passes to the one taken.
expr_ptr checker::convert_conditional(const ast::conditional& c) {
  std::vector<expr_ptr> args;
  args.push_back(convert(c.cond));
  if (args[0]->type.kind != scalar_kind::integer)
    fail(args[0]->pos, "the condition of `? :` must be an integer, such as a comparison (x > 0), not " + stdlib::to_string(args[0]->type));
  args.push_back(convert(c.tail.yes));
  args.push_back(convert(c.tail.no));
  return make_call("ifelse", std::move(args), c.tail.pos);
}

expr_ptr checker::convert_call(const ast::call& c) {
  if (const auto* d = log_density_distribution(c.callee.name, c.callee.pos)) return convert_log_density(c, *d);
  if (is_ode_function(c.callee.name)) return convert_ode(c);
  if ((c.callee.name == "logpdf" || c.callee.name == "logpmf") && !lib_.find_function(c.callee.name)) return convert_logpdf(c);
  std::vector<expr_ptr> args;
  for (const auto& a : c.args) args.push_back(convert(a));
  return make_call(c.callee.name, std::move(args), c.callee.pos);
}

}  // namespace ppl::lang::detail
