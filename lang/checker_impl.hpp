#pragma once
// The checker's state, shared by checker.cpp (statements, roles, order) and
// checker_expr.cpp (expressions). Not part of the public interface.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lang/ast.hpp"
#include "lang/checker.hpp"
#include "lang/ir.hpp"
#include "stdlib/registry.hpp"

namespace ppl::lang::detail {

// A loop or an `if` branch around a statement: an `if` is a loop of one instance where its
// condition holds (or fails, for the else branch) and none otherwise.
struct enclosing {
  const ast::loop_range* range = nullptr;  // a loop's range, or
  const ast::operand* condition = nullptr;  // an if's condition
  bool otherwise = false;                   // the else branch
  int slot = 0;
};

// A statement with the loops that enclose it, before conversion.
struct flat_statement {
  const ast::statement* node = nullptr;
  std::vector<enclosing> loops;  // outermost first
};

// Whether `y ~ D(...)` over arrays means the loop over their elements: D gives scalars and
// takes scalars (checker_vectorise.cpp).
bool vectorises(const stdlib::distribution& d);

// The arrays whose shapes a vectorised `~`'s loops follow, with the labels errors name them
// by; when `sized`, a `param`'s declared sizes come before them, labelled by the first.
struct vectorised_shapes {
  std::vector<ir::expr_ptr> arrays;
  std::vector<std::string> labels;
  bool sized = false;
};

// The name an expression consists of, if it is nothing but a name (through the chains
// of every precedence level).
const ast::identifier* lone_identifier(const ast::operand& o);
const ast::identifier* lone_identifier(const ast::chain& c);
// ode_rk45, ode_bdf and their `_tol` forms (checker_ode.cpp).
bool is_ode_function(const std::string& name);

class checker {
 public:
  checker(const source_file& src, const stdlib::registry& lib, check_options options = {})
      : src_(src), lib_(lib), options_(std::move(options)) {
    model_.source = src;
  }
  ir::model run(const ast::program& program);

  // ---- expressions (checker_expr.cpp) ----
  ir::expr_ptr convert(const ast::chain& c);
  ir::expr_ptr convert(const ast::operand& o);
  ir::expr_ptr make_call(const std::string& fn, std::vector<ir::expr_ptr> args, std::size_t pos);
  ir::expr_ptr convert_identifier(const ast::identifier& id);
  ir::expr_ptr convert_postfix(const ast::postfix& p);
  ir::expr_ptr convert_index(ir::expr_ptr base, const ast::index_list& list);
  ir::expr_ptr convert_vector(const ast::vector_literal& v);
  void check_rows(const ast::vector_literal& v, const ir::expr& converted) const;
  ir::expr_ptr convert_call(const ast::call& c);
  ir::expr_ptr convert_conditional(const ast::conditional& c);
  // ---- ODE solutions (checker_ode.cpp) ----
  ir::expr_ptr convert_ode(const ast::call& c);
  void check_odes(const ir::expr* e) const;
  // ---- log-density calls (checker_log_density.cpp) ----
  const stdlib::distribution* log_density_distribution(const std::string& name, std::size_t pos);
  const stdlib::function* log_density_function(const stdlib::distribution& d, const std::string& name);
  ir::expr_ptr log_density_call(const stdlib::function& fn, std::vector<ir::expr_ptr> args, std::size_t pos);
  ir::expr_ptr convert_log_density(const ast::call& c, const stdlib::distribution& d);
  ir::expr_ptr convert_logpdf(const ast::call& c);
  ir::expr_ptr new_expr(ir::expr::kind k, std::size_t pos);
  ir::expr_ptr require_int_scalar(ir::expr_ptr e, const char* what);

  [[noreturn]] void fail(std::size_t pos, std::string message) const;

  // ---- vectorised statements (checker_vectorise.cpp) ----
  void vectorise(ir::statement& out, std::size_t pos, const std::string& text);
  std::string argument_label(const ir::statement& out, std::size_t k) const;
  void check_elementwise_arguments(const ir::statement& out, int rank, const std::string& target_text) const;
  ir::expr_ptr target_array(const ir::statement& out, int rank, std::size_t pos);
  vectorised_shapes shapes_followed(const ir::statement& out, std::size_t pos, int rank, int target_rank,
                                    const std::vector<int>& kept, const std::string& target_text);
  std::vector<int> vectorised_loops(ir::statement& out, const vectorised_shapes& shapes, int rank, const std::vector<int>& kept);
  ir::expr_ptr index_into(ir::expr_ptr e, const std::vector<int>& slots);
  ir::expr_ptr index_with(ir::expr_ptr base, const std::vector<int>& slots, std::size_t pos);
  ir::expr_ptr clone(const ir::expr& e);
  ir::expr_ptr loop_variable(int slot, std::size_t pos);
  ir::expr_ptr int_constant(long long value, std::size_t pos);
  int hidden_loop(ir::statement& out, std::string name, ir::expr_ptr hi);
  // ---- missing values in observed data (checker_missing.cpp) ----
  void split_partly_observed();
  ir::expr_ptr missing_at(int data, const ir::statement& s);
  // base[items]: an index node of the items converted.
  ir::expr_ptr index_with_items(ir::expr_ptr base, std::vector<ir::index_item> items, std::size_t pos);
  ir::statement copy_statement(const ir::statement& s);
  void add_condition(ir::statement& s, ir::expr_ptr cond);

 private:
  // ---- declarations and statements (checker.cpp) ----
  void flatten(const std::vector<ast::statement>& body, std::vector<enclosing>& loops);
  void flatten_if(const ast::if_stmt& s, std::vector<enclosing>& loops);
  void target_range(const ast::index_item& ix, bool last, int value_rank, ir::statement& out);
  ir::loop convert_enclosing(const enclosing& e);
  void lift_conditions(ir::statement& s);
  [[noreturn]] void fail_condition(const ir::statement& s, const ir::expr& condition) const;
  void declare_data(const ast::data_decl& d);
  // ---- `param` declarations (checker_param.cpp) ----
  void declare_param(const ast::param_decl& d, const ast::statement& s);
  void add_flat_priors();
  void convert_param_decls();
  void check_ordered(const ast::param_decl& d, ir::variable& var);
  void convert_flat_prior(const ast::param_decl& d, ir::statement& out);
  void settle_bounded_flat_prior(int i, ir::statement& s) const;
  void check_declared_truncation(int i, const ir::statement& s) const;
  int unknown_read(const ir::expr& e) const;
  void declare_target(const ast::target& t, bool sampled, std::size_t pos);
  void declare_sizes();
  void type_variable(int v);
  void convert_statement(std::size_t i);
  const ast::target* convert_right_side(const ast::statement& node, ir::statement& out, stdlib::type_sig& value);
  void convert_target_indices(const ast::target& lhs, int value_rank, ir::statement& out);
  void type_target(const ast::target& lhs, stdlib::type_sig t, const ir::statement& out);
  void convert_sample(const ast::sample_stmt& s, ir::statement& out);
  void link_scale(ir::statement& out) const;
  void restrict_sample(bool truncate, ir::expr_ptr lower, ir::expr_ptr upper, std::size_t pos, ir::statement& out);
  void convert_data_decls();
  void assign_roles();
  void order_statements();
  void mark_dependencies();
  // A sample statement's term as a log-density call (ir::statement::density), where it may
  // be taped: in a loop, with its target's range fixed, reading an unknown.
  void attach_density(ir::statement& s);
  // ---- elements defined twice or never, where known without data (checker_elements.cpp) ----
  void check_elements();
  std::vector<const ir::statement*> definitions(const ir::variable& var) const;
  int add_variable(const std::string& name, std::size_t pos);

  const source_file& src_;
  const stdlib::registry& lib_;
  check_options options_;
  ir::model model_;
  std::vector<flat_statement> flat_;
  std::vector<bool> converted_;
  std::vector<ir::statement> converted_statements_;
  std::vector<int> type_state_;                      // 0 untyped, 1 in progress, 2 typed
  std::vector<std::pair<std::string, int>> scope_;   // loop variables in scope
  struct local_name {
    std::string name;
    int slot = 0, rank = 0;
  };
  std::vector<local_name> locals_;  // an ODE's time and state while its right-hand side is read
  std::vector<const ast::data_decl*> data_decls_;
  std::vector<char> has_sample_, has_assign_;
  std::vector<char> is_data_decl_;                   // per variable: declared with `data`
  // `param` declarations: the statement, and per variable its converted dims and bounds.
  std::vector<std::pair<const ast::param_decl*, const ast::statement*>> param_decls_;
  struct param_info {
    const ast::param_decl* decl = nullptr;
    std::vector<ir::expr_ptr> dims;
    ir::bound_spec bounds;
  };
  std::vector<param_info> params_;
  std::map<const stdlib::distribution*, const stdlib::function*> density_functions_;  // attach_density's, by distribution
  std::map<std::string, const stdlib::function*> log_density_functions_;  // by name: one per model                   // per variable (decl null: not a param)
  std::vector<int> first_definition_;                // per variable: its first statement in flat_, or -1
  std::vector<std::vector<int>> reads_;              // per converted statement: variables read
  int current_statement_ = -1;
  std::vector<int> bounded_flat_;                    // flat priors between two bounds, as statements
  std::vector<int> declared_truncations_;            // priors truncated to a param's declared bounds
};

}  // namespace ppl::lang::detail
