// ODE solutions: `ode_rk45(s, rhs, y0, t0, ts)` is the state at the times ts of
// dy/dt = rhs, y(t0) = y0, where rhs is an expression in the state's name s (and, in the
// form `ode_rk45(t, s, rhs, y0, t0, ts)`, the time's name t) and any variable of the
// model. `ode_bdf` takes the same arguments and suits stiff systems; the `_tol` forms add
// rel_tol, abs_tol and max_num_steps, as Stan's do. The names are bound only inside rhs;
// the solver itself is model/evaluator_ode.cpp.
#include <algorithm>

#include "lang/checker_impl.hpp"

namespace ppl::lang::detail {

using ir::expr;
using ir::expr_ptr;
using stdlib::scalar_kind;

namespace {

struct ode_function {
  const char* name;
  expr::ode_method method;
  bool tolerances;
};
constexpr ode_function ode_functions[] = {
    {"ode_bdf", expr::ode_method::bdf, false},
    {"ode_bdf_tol", expr::ode_method::bdf, true},
    {"ode_rk45", expr::ode_method::rk45, false},
    {"ode_rk45_tol", expr::ode_method::rk45, true},
};

}  // namespace

bool is_ode_function(const std::string& name) {
  return std::any_of(std::begin(ode_functions), std::end(ode_functions), [&](const ode_function& f) { return name == f.name; });
}

expr_ptr checker::convert_ode(const ast::call& c) {
  const std::string& name = c.callee.name;
  const ode_function& which = *std::find_if(std::begin(ode_functions), std::end(ode_functions),
                                            [&](const ode_function& f) { return name == f.name; });
  const std::size_t extra = which.tolerances ? 3 : 0;
  const std::string tail = std::string("y0, t0, ts") + (which.tolerances ? ", rel_tol, abs_tol, max_num_steps" : "") + ")";
  if (c.args.size() != 5 + extra && c.args.size() != 6 + extra)
    fail(c.callee.pos, "`" + name + "` takes " + std::to_string(5 + extra) + " or " + std::to_string(6 + extra) +
                           " arguments: " + name + "(s, rhs, " + tail + " with the state named s in the right-hand side rhs, or " +
                           name + "(t, s, rhs, " + tail + " where rhs also reads the time t");
  const bool timed = c.args.size() == 6 + extra;
  if (!locals_.empty()) fail(c.callee.pos, "an ODE inside the right-hand side of another is not supported");

  // The time's and the state's names, bound while the right-hand side is read.
  auto e = new_expr(expr::kind::ode, c.callee.pos);
  e->method = which.method;
  e->slot = model_.local_count;
  model_.local_count += 2;
  const std::size_t bound = locals_.size();
  const char* roles[] = {"time", "state"};
  for (std::size_t i = 0; i < (timed ? 2u : 1u); ++i) {
    const int role = timed ? static_cast<int>(i) : 1;
    const ast::identifier* id = lone_identifier(c.args[i]);
    if (!id) {
      expr_ptr given = convert(c.args[i]);
      fail(given->pos, std::string("the ODE's ") + roles[role] + " must be given a name here, which the right-hand side reads");
    }
    const bool taken = model_.find(id->name) >= 0 || lib_.find_function(id->name) ||
                       std::any_of(scope_.begin(), scope_.end(), [&](const auto& s) { return s.first == id->name; }) ||
                       std::any_of(locals_.begin(), locals_.end(), [&](const local_name& l) { return l.name == id->name; });
    if (taken)
      fail(id->pos, "`" + id->name + "` already names something in this model; give the ODE's " + roles[role] +
                        " a name of its own");
    locals_.push_back({id->name, e->slot + role, role == 0 ? 0 : 1});
  }
  const std::size_t first = timed ? 2 : 1;
  expr_ptr rhs = convert(c.args[first]);
  locals_.resize(bound);
  if (rhs->type.rank != 1)
    fail(rhs->pos, "the right-hand side of an ODE must be a vector, the state's derivative, such as [a * s[1], -b * s[2]]; this is " +
                       stdlib::to_string(rhs->type));
  e->args.push_back(std::move(rhs));

  // The initial state, the initial time, the output times and the tolerances.
  const char* what[] = {"the initial state", "the initial time", "the output times", "rel_tol", "abs_tol", "max_num_steps"};
  const int ranks[] = {1, 0, 1, 0, 0, 0};
  for (std::size_t i = first + 1; i < c.args.size(); ++i) {
    const std::size_t k = i - first - 1;
    expr_ptr a = convert(c.args[i]);
    if (a->type.rank != ranks[k])
      fail(a->pos, std::string(what[k]) + " of an ODE must be " + (ranks[k] ? "a vector" : "a scalar") + ", not " +
                       stdlib::to_string(a->type));
    if (k == 5 && a->type.kind != scalar_kind::integer) fail(a->pos, "max_num_steps must be an integer");
    e->args.push_back(std::move(a));
  }
  for (const auto& a : e->args) e->depth = std::max(e->depth, a->depth + 1);
  if (e->depth > ir::max_expression_depth) fail(e->pos, "this expression is too deep; compute it in steps");
  e->type = {scalar_kind::real, 2};
  return e;
}

// Once dependencies are marked, the ODEs in an expression: the solver gives derivatives in
// the initial state and in the variables the right-hand side reads, not in the times or
// the tolerances, which must be data.
void checker::check_odes(const expr* e) const {
  if (!e) return;
  for (const auto& a : e->args) check_odes(a.get());
  for (const auto& ix : e->indices) {
    check_odes(ix.lo.get());
    check_odes(ix.hi.get());
  }
  if (e->which != expr::kind::ode) return;
  static const char* what[] = {"the initial time", "the output times", "rel_tol", "abs_tol", "max_num_steps"};
  for (std::size_t i = 2; i < e->args.size(); ++i) {
    if (!e->args[i]->depends_on_unknown) continue;
    std::vector<int> reads;
    ir::collect_reads(e->args[i].get(), reads);
    std::string unknown;
    for (int r : reads)
      if (unknown.empty() && model_.variables[static_cast<std::size_t>(r)].role != ir::role::data)
        unknown = model_.variables[static_cast<std::size_t>(r)].name;
    fail(e->args[i]->pos, std::string(what[i - 2]) + " of an ODE must be data; this reads `" + unknown + "`, which is not");
  }
}

}  // namespace ppl::lang::detail
