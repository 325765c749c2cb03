// Statements: declarations, typing of variables, roles and the dependency order.
#include "lang/checker.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "lang/ast_rewrite.hpp"
#include "lang/checker_impl.hpp"
#include "lang/functions.hpp"
#include "lang/parser.hpp"
#include "lang/prints.hpp"
#include "lang/suggest.hpp"

namespace ppl::lang {

namespace detail {

using ir::expr;
using ir::expr_ptr;
using stdlib::scalar_kind;

namespace {

std::string line_of(const source_file& src, std::size_t pos) {
  return "line " + std::to_string(locate(src.text, pos).line);
}

}  // namespace

const ast::identifier* lone_identifier(const ast::chain& c) {
  return c.rest.empty() ? lone_identifier(c.first) : nullptr;
}
const ast::identifier* lone_identifier(const ast::operand& o) {
  if (const auto* id = boost::get<ast::identifier>(&o)) return id;
  if (const auto* c = boost::get<ast::x3::forward_ast<ast::chain>>(&o)) return lone_identifier(c->get());
  if (const auto* p = boost::get<ast::x3::forward_ast<ast::postfix>>(&o))
    return p->get().suffixes.empty() ? lone_identifier(p->get().base) : nullptr;
  return nullptr;
}

int checker::add_variable(const std::string& name, std::size_t pos) {
  ir::variable v;
  v.name = name;
  v.pos = pos;
  const int index = static_cast<int>(model_.variables.size());
  model_.names.emplace(name, index);
  model_.variables.push_back(std::move(v));
  has_sample_.push_back(0);
  has_assign_.push_back(0);
  is_data_decl_.push_back(0);
  params_.emplace_back();
  first_definition_.push_back(-1);
  return index;
}

void checker::declare_data(const ast::data_decl& d) {
  int existing = model_.find(d.name.name);
  if (existing >= 0)
    fail(d.name.pos, "`" + d.name.name + "` is already declared (" +
                         line_of(src_, model_.variables[static_cast<std::size_t>(existing)].pos) + ")");
  is_data_decl_[static_cast<std::size_t>(add_variable(d.name.name, d.name.pos))] = 1;
  data_decls_.push_back(&d);
}

void checker::declare_target(const ast::target& t, bool sampled, std::size_t pos) {
  for (const auto& [name, slot] : scope_)
    if (name == t.name.name) fail(t.name.pos, "`" + name + "` is a loop variable and cannot be defined");
  int v = model_.find(t.name.name);
  if (v < 0) v = add_variable(t.name.name, t.name.pos);
  auto& mark = sampled ? has_sample_ : has_assign_;
  mark[static_cast<std::size_t>(v)] = 1;
  // flatten() records this statement next, at this index.
  if (first_definition_[static_cast<std::size_t>(v)] < 0) first_definition_[static_cast<std::size_t>(v)] = static_cast<int>(flat_.size());
  (void)pos;
}

// Walks nested loops and ifs, giving each loop variable a slot and recording every
// statement with the loops around it.
void checker::flatten(const std::vector<ast::statement>& body, std::vector<enclosing>& loops) {
  for (const auto& s : body) {
    if (const auto* f = boost::get<ast::x3::forward_ast<ast::for_stmt>>(&s)) {
      const std::size_t depth = loops.size(), scope_depth = scope_.size();
      for (const auto& r : f->get().ranges) {
        for (const auto& outer : loops)
          if (outer.range && outer.range->var.name == r.var.name)
            fail(r.var.pos, "loop variable `" + r.var.name + "` is already in use by an enclosing loop");
        loops.push_back({&r, nullptr, false, static_cast<int>(model_.loop_names.size())});
        model_.loop_names.push_back(r.var.name);
        scope_.emplace_back(r.var.name, loops.back().slot);
      }
      flatten(f->get().body, loops);
      loops.resize(depth);
      scope_.resize(scope_depth);
      continue;
    }
    if (const auto* i = boost::get<ast::x3::forward_ast<ast::if_stmt>>(&s)) {
      flatten_if(i->get(), loops);
      continue;
    }
    if (const auto* p = boost::get<ast::param_decl>(&s)) {
      if (!loops.empty())
        fail(p->pos, std::string("`param` declarations must be at the top level, not inside ") + (loops.back().range ? "a loop" : "an `if`"));
      declare_param(*p, s);
      continue;
    }
    if (const auto* d = boost::get<ast::data_decl>(&s)) {
      if (!loops.empty())
        fail(d->pos, std::string("`data` declarations must be at the top level, not inside ") + (loops.back().range ? "a loop" : "an `if`"));
      declare_data(*d);
      continue;
    }
    if (const auto* x = boost::get<ast::sample_stmt>(&s)) declare_target(x->lhs, true, x->pos);
    if (const auto* x = boost::get<ast::assign_stmt>(&s)) declare_target(x->lhs, false, x->pos);
    flat_.push_back({&s, loops});
  }
}

// if_stmt -> each branch's statements inside a loop of one instance or none.
void checker::flatten_if(const ast::if_stmt& s, std::vector<enclosing>& loops) {
  loops.push_back({nullptr, &s.cond, false, static_cast<int>(model_.loop_names.size())});
  model_.loop_names.push_back("if");
  flatten(s.then_body, loops);
  loops.pop_back();
  if (!s.else_body) return;
  loops.push_back({nullptr, &s.cond, true, static_cast<int>(model_.loop_names.size())});
  model_.loop_names.push_back("else");
  flatten(*s.else_body, loops);
  loops.pop_back();
}

// Names used as sizes in data declarations (`data doc: int[N]`) that are not declared
// themselves become integer data bound from the shapes of the data.
void checker::declare_sizes() {
  for (const auto* d : data_decls_)
    for (const auto& dim : d->type.dims) {
      const auto* id = lone_identifier(dim);
      if (!id) continue;
      if (model_.find(id->name) >= 0) continue;
      int v = add_variable(id->name, id->pos);
      auto& var = model_.variables[static_cast<std::size_t>(v)];
      var.is_size = true;
      var.type = {scalar_kind::integer, 0};
    }
}

void checker::convert_data_decls() {
  for (const auto* d : data_decls_) {
    int v = model_.find(d->name.name);
    auto& var = model_.variables[static_cast<std::size_t>(v)];
    var.type = {d->type.scalar == "int" ? scalar_kind::integer : scalar_kind::real,
                static_cast<int>(d->type.dims.size())};
    if (var.type.rank > ppl::max_rank)
      fail(d->type.pos, "arrays have at most " + std::to_string(ppl::max_rank) + " dimensions");
    type_state_[static_cast<std::size_t>(v)] = 2;
  }
  for (const auto* d : data_decls_) {
    auto& var = model_.variables[static_cast<std::size_t>(model_.find(d->name.name))];
    for (const auto& dim : d->type.dims) var.dims.push_back(require_int_scalar(convert(dim), "a size"));
    for (const auto& b : d->type.bounds) {
      expr_ptr e = convert(b.value);
      if (e->type.rank != 0) fail(e->pos, "a bound must be a scalar, not " + stdlib::to_string(e->type));
      (b.which == "lower" ? var.bounds.lower : var.bounds.upper) = std::move(e);
    }
    if (d->default_value) {
      var.default_value = convert(*d->default_value);
      if (var.default_value->type.rank != var.type.rank)
        fail(var.default_value->pos, "the default of `" + var.name + "` has type " +
                                         stdlib::to_string(var.default_value->type) + " but `" + var.name +
                                         "` is declared " + stdlib::to_string(var.type));
      if (var.type.kind == scalar_kind::integer && var.default_value->type.kind != scalar_kind::integer)
        fail(var.default_value->pos, "the default of `" + var.name + "` is real but `" + var.name + "` is declared int");
    }
  }
}

}  // namespace detail

}  // namespace ppl::lang

namespace ppl::lang {

namespace detail {

namespace {

bool mark(ir::expr* e, const std::vector<ir::variable>& vars) {
  if (!e || e->shape_only) return false;
  auto unknown = [&](int v) {
    return vars[static_cast<std::size_t>(v)].role == ir::role::unknown || vars[static_cast<std::size_t>(v)].role == ir::role::derived;
  };
  // An ODE's time and state carry derivatives through its right-hand side (the solver's
  // Jacobian), whatever the ODE reads.
  if (e->which == ir::expr::kind::local) return e->depends_on_unknown = true;
  bool dep = e->which == ir::expr::kind::variable && unknown(e->slot);
  for (auto& a : e->args) dep = mark(a.get(), vars) || dep;
  for (auto& ix : e->indices) {
    dep = mark(ix.lo.get(), vars) || dep;
    dep = mark(ix.hi.get(), vars) || dep;
  }
  if (e->which == ir::expr::kind::ode) {
    // The solution follows unknowns when its other arguments do or its right-hand side
    // reads one.
    std::vector<int> reads;
    ir::collect_reads(e->args[0].get(), reads);
    dep = std::any_of(reads.begin(), reads.end(), unknown);
    for (std::size_t i = 1; i < e->args.size(); ++i) dep = dep || e->args[i]->depends_on_unknown;
  }
  e->depends_on_unknown = dep;
  return dep;
}

}  // namespace

// Orders statements so that every variable's defining statements come after those of the
// variables it reads (Kahn's algorithm on the variable graph); a variable may read its own
// earlier elements (a random walk), which the graph builder checks element by element.
// Also settles which assigned variables are derived from unknowns.
void checker::order_statements() {
  std::size_t n = model_.variables.size();
  // An observation (`~` on data, or on a variable computed from data) does not define
  // its target, so it adds no edge; observations are placed after everything they read.
  auto is_observation = [&](const ir::statement& s) {
    if (s.which != ir::statement::kind::sample) return false;
    const auto& var = model_.variables[static_cast<std::size_t>(s.target)];
    return var.role == ir::role::data || has_assign_[static_cast<std::size_t>(s.target)];
  };
  std::vector<std::vector<int>> children(n);
  std::vector<int> indegree(n, 0);
  for (std::size_t i = 0; i < flat_.size(); ++i) {
    const auto& st = converted_statements_[i];
    if (st.target < 0 || is_observation(st)) continue;
    std::vector<int> reads = reads_[i];
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    for (int r : reads) {
      if (r == st.target && st.target_indices.empty() && !st.target_from)
        fail(st.pos, "`" + model_.variables[static_cast<std::size_t>(r)].name + "` is defined in terms of itself");
      if (r != st.target) {
        children[static_cast<std::size_t>(r)].push_back(st.target);
        ++indegree[static_cast<std::size_t>(st.target)];
      }
    }
  }
  std::vector<int> order;
  for (std::size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) order.push_back(static_cast<int>(v));
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int c : children[static_cast<std::size_t>(order[k])])
      if (--indegree[static_cast<std::size_t>(c)] == 0) order.push_back(c);
  if (order.size() < n) {
    for (std::size_t v = 0; v < n; ++v)
      if (indegree[v] > 0) {
        const auto& var = model_.variables[v];
        fail(converted_statements_[static_cast<std::size_t>(var.statements.front())].pos,
             "`" + var.name + "` depends on itself through other variables (a cycle); a model must be a directed acyclic graph, with `factor` for undirected terms");
      }
  }
  // Roles of assigned variables, now that parents come first.
  for (int v : order) {
    auto& var = model_.variables[static_cast<std::size_t>(v)];
    bool from_unknown = false;
    for (int s : var.statements) {
      if (is_observation(converted_statements_[static_cast<std::size_t>(s)])) continue;
      for (int r : reads_[static_cast<std::size_t>(s)]) {
        auto role = model_.variables[static_cast<std::size_t>(r)].role;
        if (r != v && (role == ir::role::unknown || role == ir::role::derived)) from_unknown = true;
      }
    }
    if (has_assign_[static_cast<std::size_t>(v)] && var.role == ir::role::transformed_data && from_unknown) {
      if (has_sample_[static_cast<std::size_t>(v)])
        fail(var.pos, "`" + var.name + "` is defined both with `~` and with `=` from unknowns; give the two a different name");
      var.role = ir::role::derived;
    }
    if (has_assign_[static_cast<std::size_t>(v)] && has_sample_[static_cast<std::size_t>(v)]) var.observed = true;
    for (int s : var.statements) {
      auto& st = converted_statements_[static_cast<std::size_t>(s)];
      if (is_observation(st)) continue;
      settle_bounded_flat_prior(s, st);
      check_declared_truncation(s, st);
      model_.statements.push_back(std::move(st));
    }
  }
  for (auto& s : converted_statements_)
    if (s.which == ir::statement::kind::sample && s.target >= 0 && is_observation(s)) model_.statements.push_back(std::move(s));
  for (auto& s : converted_statements_)
    if (s.which == ir::statement::kind::factor) model_.statements.push_back(std::move(s));
  // Statement indices changed; rebuild the per-variable lists.
  for (auto& var : model_.variables) var.statements.clear();
  for (std::size_t i = 0; i < model_.statements.size(); ++i)
    if (model_.statements[i].target >= 0)
      model_.variables[static_cast<std::size_t>(model_.statements[i].target)].statements.push_back(static_cast<int>(i));
}

// A `factor` inside an `if` on unknowns is the term where the condition holds and 0
// elsewhere: `factor cond ? term : 0`. The if's loop is dropped for it.
void checker::lift_conditions(ir::statement& s) {
  if (s.which != ir::statement::kind::factor) return;
  for (std::size_t k = s.loops.size(); k-- > 0;) {
    auto& l = s.loops[k];
    if (!l.condition || !l.hi->depends_on_unknown) continue;
    const std::size_t pos = l.hi->pos;
    std::vector<expr_ptr> args;
    args.push_back(std::move(l.hi));
    args.push_back(std::move(s.value));
    auto zero = new_expr(expr::kind::real_const, pos);
    zero->type = {scalar_kind::real, 0};
    args.push_back(std::move(zero));
    s.value = make_call("ifelse", std::move(args), pos);
    s.loops.erase(s.loops.begin() + static_cast<std::ptrdiff_t>(k));
    mark(s.value.get(), model_.variables);
  }
}

// A `~` or `=` inside an `if` whose condition reads unknowns: the model's structure (which
// terms there are, what each variable is) would change from draw to draw.
void checker::fail_condition(const ir::statement& s, const ir::expr& condition) const {
  std::vector<int> reads;
  ir::collect_reads(&condition, reads);
  std::string unknown;
  for (int r : reads)
    if (unknown.empty() && model_.variables[static_cast<std::size_t>(r)].role != ir::role::data)
      unknown = model_.variables[static_cast<std::size_t>(r)].name;
  const std::string what = s.which == ir::statement::kind::sample ? "`~`" : "`=`";
  fail(condition.pos, "this condition reads `" + unknown + "`, which is not data: an `if` around " + what +
                          " must be decided by data and loop indices, since the model's terms are fixed; put the choice in "
                          "the value instead (`x = " + unknown + " > 0 ? a : b`, `y ~ Normal(" + unknown +
                          " > 0 ? a : b, s)`), or write a mixture's density in a `factor` (log_mix, normal_lpdf)");
}

void checker::mark_dependencies() {
  for (auto& s : model_.statements) {
    for (auto& l : s.loops) {
      mark(l.lo.get(), model_.variables);
      mark(l.hi.get(), model_.variables);
    }
    for (auto& ix : s.target_indices) mark(ix.get(), model_.variables);
    mark(s.target_from.get(), model_.variables);
    mark(s.target_to.get(), model_.variables);
    for (const auto* r : {s.target_from.get(), s.target_to.get()})
      if (r && r->depends_on_unknown)
        fail(r->pos, "a range on the left of `~` must be fixed by the data: it says which elements the statement defines");
    for (auto& a : s.args) mark(a.get(), model_.variables);
    mark(s.value.get(), model_.variables);
    attach_density(s);
    mark(s.density.get(), model_.variables);
    for (auto& a : s.args) check_odes(a.get());
    check_odes(s.value.get());
  }
  // Loop bounds come from data. One that follows an unknown would change a defined
  // variable's size between draws (a model of varying dimension, which no sampler here
  // moves through), or the set of terms a sampler indexed once (blankets, conjugate
  // tables, LDA's counts, a spin model's couplings). JAGS has the same rule.
  for (auto& s : model_.statements) lift_conditions(s);
  for (auto& s : model_.statements)
    for (auto& l : s.loops)
      for (ir::expr* bound : {l.lo.get(), l.hi.get()}) {
        if (!bound->depends_on_unknown) continue;
        if (l.condition) fail_condition(s, *bound);
        std::vector<int> reads;
        ir::collect_reads(bound, reads);
        std::string unknown;  // the first variable it reads that is not data
        for (int r : reads)
          if (unknown.empty() && model_.variables[static_cast<std::size_t>(r)].role != ir::role::data)
            unknown = model_.variables[static_cast<std::size_t>(r)].name;
        const bool defines = s.target >= 0 && s.which != ir::statement::kind::factor &&
                             model_.variables[static_cast<std::size_t>(s.target)].role != ir::role::data;
        fail(bound->pos, defines ? "this loop defines elements of `" + model_.variables[static_cast<std::size_t>(s.target)].name +
                                       "`, but its bound reads `" + unknown +
                                       "`, which is not data: the number of elements would change from draw to draw (loop "
                                       "bounds must come from data)"
                                 : "this loop's bound reads `" + unknown +
                                       "`, which is not data: loop bounds must come from data; to switch terms on and off "
                                       "with an unknown, loop over all of them and weigh each by an indicator such as (i <= " +
                                       unknown + ") in a `factor`");
      }
  // A distribution's size parameter (LKJCorr's K) gives its value's shape, which is fixed
  // when the graph is built, as a loop bound gives a variable's.
  for (auto& s : model_.statements) {
    if (s.which != ir::statement::kind::sample || !s.dist) continue;
    const auto params = s.dist->params();
    for (std::size_t k = 0; k < params.size() && k < s.args.size(); ++k) {
      if (!params[k].sizes_value || !s.args[k]->depends_on_unknown) continue;
      std::vector<int> reads;
      ir::collect_reads(s.args[k].get(), reads);
      std::string unknown;
      for (int r : reads)
        if (unknown.empty() && model_.variables[static_cast<std::size_t>(r)].role != ir::role::data)
          unknown = model_.variables[static_cast<std::size_t>(r)].name;
      fail(s.args[k]->pos, "the size " + std::string(params[k].name) + " of " + s.dist_name + " reads `" + unknown +
                               "`, which is not data: the value's shape would change from draw to draw (a size must come from data)");
    }
  }
  // Sizes, bounds and defaults of data must come from data.
  for (auto& var : model_.variables) {
    std::vector<ir::expr*> parts;
    for (auto& d : var.dims) parts.push_back(d.get());
    parts.push_back(var.bounds.lower.get());
    parts.push_back(var.bounds.upper.get());
    parts.push_back(var.default_value.get());
    for (auto* e : parts) {
      std::vector<int> reads;
      ir::collect_reads(e, reads);
      for (int r : reads)
        if (model_.variables[static_cast<std::size_t>(r)].role != ir::role::data)
          fail(e->pos, "the declaration of `" + var.name + "` may use only data, but `" +
                           model_.variables[static_cast<std::size_t>(r)].name + "` is not data");
    }
  }
}

ir::model checker::run(const ast::program& program) {
  model_.lines = line_index(src_.text);
  std::vector<enclosing> loops;
  flatten(program.statements, loops);
  add_flat_priors();
  declare_sizes();
  type_state_.assign(model_.variables.size(), 0);
  for (std::size_t v = 0; v < model_.variables.size(); ++v)
    if (model_.variables[v].is_size) type_state_[v] = 2;
  converted_.assign(flat_.size(), false);
  converted_statements_.resize(flat_.size());
  reads_.resize(flat_.size());
  convert_data_decls();
  convert_param_decls();
  for (std::size_t i = 0; i < flat_.size(); ++i) convert_statement(i);
  for (std::size_t i = 0; i < flat_.size(); ++i) {
    auto& s = converted_statements_[i];
    for (auto& l : s.loops) {
      ir::collect_reads(l.lo.get(), reads_[i]);
      ir::collect_reads(l.hi.get(), reads_[i]);
    }
  }
  split_partly_observed();
  assign_roles();
  order_statements();
  mark_dependencies();
  check_elements();
  return std::move(model_);
}

}  // namespace detail

ir::model check(const source_file& src, const ast::program& program, const stdlib::registry& lib, check_options options) {
  detail::checker c(src, lib, std::move(options));
  // User functions and prints are written out in a copy of the program, made only for a
  // model that has them.
  std::vector<printed> prints;
  std::optional<ast::program> written;
  if (contains_statement<ast::function_def>(program.statements) || contains_statement<ast::print_stmt>(program.statements)) {
    written = program;
    expand_functions(src, *written, lib);
    write_prints(src, *written, prints);
  }
  ir::model m = c.run(written ? *written : program);
  for (const auto& p : prints) m.prints.push_back({m.find(p.variable), p.label, p.loops, p.pos});
  return m;
}

ir::model compile(const source_file& src, const stdlib::registry& lib, check_options options) {
  return check(src, parse(src), lib, std::move(options));
}

}  // namespace ppl::lang
