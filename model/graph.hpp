#pragma once
// The model graph: one node per variable, each a whole array (a plate), never one object
// per scalar (DESIGN.md, requirement 1). Statements are evaluated by iterating their loops
// over the nodes' flat storage. The graph binds the data, computes transformed data once,
// gives every unknown its shape and a starting value (graph_options::start), and evaluates
// the joint log density and its gradient. Three views read it with one responsibility
// each: model::instances (one statement or instance at a time), model::supports (the
// unknowns' supports, ordered vectors') and model::failed_start (what a start that is
// not finite reads, and its repairs).
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lang/checker.hpp"
#include "lang/ir.hpp"
#include "data/data.hpp"
#include "model/evaluator.hpp"
#include "model/tape.hpp"
#include "model/failed_start.hpp"
#include "model/instances.hpp"
#include "model/supports.hpp"
#include "core/random.hpp"
#include "core/tensor.hpp"

namespace ppl::model {

// Why the value x of statement `st`, at `offset` of variable `name` (shape `s`), is outside
// its support: "y[3] = 12 is above n = 10 of Binomial", "W = [1, 2, 2, 1] is outside the
// support of Wishart (symmetric positive-definite matrices)" (model/graph_build.cpp).
std::string outside_support_message(const std::string& name, const shape& s, index_t offset, view x, const lang::ir::statement& st,
                                    const std::vector<view>& args);

// The most elements a variable may have and the most times a statement's loops may run:
// 2^28 (2 GiB of doubles). Larger sizes are refused before anything is allocated or run,
// as a typo (an extra 000) rather than a model.
constexpr index_t max_elements = index_t{1} << 28;

// The data variables of a checked model that the data give with missing values (NaN) and
// that a `~` observes: the model is to be checked again with them (lang/checker_missing.cpp),
// so that their missing elements are imputed (model/bind_data.cpp).
lang::check_options missing_values(const lang::ir::model& m, const data::data_table& data);

// Where unknowns start (model/graph_start.cpp).
struct start_options {
  bool from_prior = false;  // every unknown drawn from its prior (--init prior)
  double radius = 1;        // else a typical value of its prior jittered within +-radius on the unconstrained scale
  const data::data_table* init = nullptr;  // values given for some unknowns (--init FILE)
  // By variable: continuous unknowns started as Stan starts, uniform(-2, 2) on the
  // unconstrained scale whatever their typical value (a chain's later starts, after
  // starts at typical values have failed; inference/chain.cpp). Empty: none.
  std::vector<char> uniform;
};

struct graph_options {
  // Observed variables absent from the data are drawn as a prior predictive instead of
  // being an error (for `ppl simulate`).
  bool allow_missing_observations = false;
  start_options start;  // the unknowns' first values
  // Gradients replay statements the batches refuse from tapes (model/tape.hpp); false
  // takes the instance path for them, as the tests' reference.
  bool tapes = true;
  // Gradients sum a Normal observation affine in the unknowns, with one scale, through its
  // sufficient statistics (model/graph_linear_normal.cpp); false takes the rows.
  bool sufficient_statistics = true;
  // Derived variables affine in what they read are recomputed as a sparse product
  // (model/graph_affine_definitions.cpp); false takes the batch path.
  bool affine_definitions = true;
};

class graph {
 public:
  // Binds the data and builds every node, drawing unknowns from their priors with `rng`.
  // Throws ppl::source_error for any problem in the model or the data.
  graph(const lang::ir::model& m, const data::data_table& data, rng& rng, graph_options options = {});
  // The same, moving the data's arrays into the graph instead of copying them (the
  // table's values are left empty): a large corpus is then held once.
  graph(const lang::ir::model& m, data::data_table&& data, rng& rng, graph_options options = {});

  const lang::ir::model& model() const { return model_; }
  std::vector<tensor>& values() { return values_; }
  const tensor& value(int variable) const { return values_[static_cast<std::size_t>(variable)]; }
  // True for observed variables that were missing from the data and are simulated.
  bool simulated(int variable) const { return missing_[static_cast<std::size_t>(variable)] != 0; }

  // Redraws every unknown (and simulated observation) from its prior given its parents,
  // in dependency order, and recomputes derived variables: one ancestral draw of the model.
  // A parameter outside its domain is an error.
  void draw_prior(rng& rng);
  // Gives every unknown a new starting value as `o` says, in dependency order, and
  // recomputes the derived variables (the constructor does the same with
  // graph_options::start). An instance whose parameters are invalid at the values chosen
  // is left NaN, for the log density to show. Throws std::invalid_argument when --init
  // values do not fit.
  void start(rng& rng, const start_options& o);
  // Recomputes the derived variables from the current unknowns; or only those marked in
  // `needed` (by variable).
  void update_derived();
  void update_derived(const std::vector<char>& needed);

  // Per statement: the `~` of predictions (lang::predictive_statements), which the
  // densities below leave out. Their variables are drawn from their priors after the
  // others (the ancestral sampler), so the informed unknowns' conditionals integrate them
  // out, and lp__ is that of the informed part, as Stan's excludes generated quantities.
  bool predictive(int statement) const { return predictive_[static_cast<std::size_t>(statement)] != 0; }
  bool predictive(const lang::ir::statement& s) const { return predictive(static_cast<int>(&s - model_.statements.data())); }

  // ---- tempering (model/graph_tempering.cpp) ----
  // Per statement: a term of the likelihood, an observation of data or a `factor`
  // (lang::likelihood_statements); the other terms are the prior's.
  bool likelihood(int statement) const { return likelihood_[static_cast<std::size_t>(statement)] != 0; }
  // The temperature beta in [0, 1] that multiplies the likelihood's terms in every density
  // below, so that samplers reading them target prior x likelihood^beta (tempered SMC,
  // inference/smc.cpp); 1 by default. The gradient refuses a beta other than 1.
  void set_temperature(double beta);
  double temperature() const { return temperature_; }
  // The likelihood's terms at the current values, untempered: log p(data | unknowns).
  double log_likelihood();

  // log p(everything but predictions) at the current values, factor terms included.
  double log_density();
  // The same, leaving out the terms of statements marked in `skip` (by statement index):
  // those a collapsed sampler replaces with its marginal.
  double log_density(const std::vector<char>& skip);

  // ---- gradients (model/graph_gradient.cpp) ----
  // The terms of the joint that involve the unknowns marked in `wrt` (by variable), and
  // their gradient with respect to those unknowns' values, by reverse-mode automatic
  // differentiation: gradient[v] is resized to v's size and overwritten for each marked v.
  // Derived variables computed from them are recomputed first (the graph is left
  // consistent) and differentiated through. Terms reading none of them are left out: they
  // are constant for a sampler of `wrt`. Within a plate, a sub-expression that depends on
  // unknowns but not on the loop variables (W1' in a network's layer) is evaluated once
  // and its adjoint summed over the instances before being passed on. The result is -inf
  // (or NaN) when the state is outside the support, and the gradient is then unspecified.
  double log_density_gradient(const std::vector<char>& wrt, std::vector<std::vector<double>>& gradient);
  // Terms that a caller sums itself (discrete unknowns summed out: inference/
  // summed_out.hpp). Their statements are left out of the graph's own sums; in their place
  // `total` gives their value, and in gradients, after the graph's terms, `add` gives it
  // and adds their gradient into `slots` (by variable: a wrt variable's gradient or a
  // derived variable's adjoint, or null), before the derived variables pass their adjoints
  // back. Both untempered: the graph counts them as the likelihood's, beta times
  // (log_likelihood, log_density, tempered gradients).
  struct own_terms {
    virtual ~own_terms() = default;
    std::vector<char> statements;  // by statement
    virtual double total() = 0;
    virtual double add(std::span<double* const> slots) = 0;
  };
  // Null: none. The caller keeps `terms` alive while the graph holds it.
  void take_terms(own_terms* terms) {
    own_terms_ = terms;
    gradient_plan_.reset();
  }
  // How many statements gradients replay from tapes (model/tape.hpp), once recorded.
  std::size_t taped_statements() const;
  // How many Normal terms gradients sum by their sufficient statistics
  // (model/graph_linear_normal.cpp), once a gradient has read them.
  std::size_t statistics_terms() const;
  // How many `=` statements are recomputed as sparse products (model/graph_affine_definitions.cpp),
  // once a recomputation has read them.
  std::size_t affine_definition_count() const;

  // ---- work done (counted in model/graph_density.cpp and where instances are evaluated) ----
  // A count of the statement instances evaluated since the graph was built: a term's log
  // density or a definition's value counts 1 an instance, a gradient 2 (its forward and
  // reverse passes); a sampler's work outside the graph (a factorisation, say) is added by
  // it with add_work in the same unit. It is the cost of a sweep that the chain's trial of
  // plans reads (inference/chain_trial.cpp): a count, not seconds, so that a seed makes
  // the same choice, and the same draws, on any machine and at any load.
  std::uint64_t work() const { return work_; }
  void add_work(std::uint64_t n) { work_ += n; }
  // The instances of statement `s`, counted once (at the instances of the first call for
  // a statement whose loops' bounds read unknowns).
  std::uint64_t instance_count(const lang::ir::statement& s);

  // Results of structural analyses (a sampler factory's reading of the model's terms),
  // kept for the graph's life under a key of the analysis's choosing: the data cannot
  // change, so neither can they. Factories are asked more than once per graph.
  std::shared_ptr<const void> analysis(const std::string& key) const {
    auto it = analyses_.find(key);
    return it == analyses_.end() ? nullptr : it->second;
  }
  void keep_analysis(const std::string& key, std::shared_ptr<const void> value) { analyses_[key] = std::move(value); }

  // Redraws one unknown from its prior given its parents.
  void draw_variable(int variable, rng& rng);
  // The elements of a partly observed unknown that the data lack, which it imputes and the
  // draws record (all of another variable's: empty).
  const std::vector<index_t>& imputed_elements(int variable) const { return imputed_[static_cast<std::size_t>(variable)]; }
  bool partly_observed(int variable) const { return model_.variables[static_cast<std::size_t>(variable)].filled_from >= 0; }
  // The elements a draw records: the imputed ones of a partly observed unknown, else all
  // that have a value (not those that no statement defines).
  std::vector<index_t> recorded_elements(int variable) const;
  // Appends the recorded elements' current values to `row`.
  void append_recorded(int variable, std::vector<double>& row) const;
  // Records only these of the variable's elements (--monitor 'Y[26,2]', JAGS's monitor of
  // one element), in this order; each must be one recorded_elements gives. Empty: all.
  void record_only(int variable, std::vector<index_t> elements);

 private:
  // Views of the graph with one responsibility each, which read its state directly.
  friend class instances;
  friend class supports;
  friend class failed_start;
  // The whole of one statement's terms (times the temperature for the likelihood's), and
  // the same untempered (instances::log_density, instances::terms).
  double statement_log_density(const lang::ir::statement& s);
  double statement_terms(const lang::ir::statement& s);
  // The first element of `variable` outside the support its prior gives it, as "s[1, 2] = 5
  // is outside the support of Spin"; empty when every element is inside (for --init).
  std::string first_outside_support(int variable);
  graph(const lang::ir::model& m, const data::data_table& data, data::data_table* take, rng& rng, graph_options options);
  // Moves the arrays out of `take` (the same table as `data`) when it is given.
  void bind_data(const data::data_table& data, data::data_table* take);
  void mark_checks();
  void bind_declared(int v, const data::data_table& data, data::data_table* take);
  // ---- elements without a value (model/graph_holes.cpp) ----
  // Missing values (NaN) in data that no `~` observes become holes: an error only where
  // something reads them.
  void note_missing(int v, const data::data_value* given);
  // The elements of a computed variable that no statement defines become holes.
  void note_undefined(int v, const std::vector<char>& defined);
  // Fails, naming the element and the statement, when an instance of `s` reads a hole.
  void check_hole_reads(const lang::ir::statement& s);
  void allocate_partly_observed(int v);
  void check_declared(int v);
  void build_statements(rng& rng, bool draw_all);
  void check_computed_elements(const lang::ir::statement& st);
  void finish_definitions(int v);
  // A start's first value of one instance of a `~` statement (model/graph_start.cpp).
  void start_value(const lang::ir::statement& s, std::span<const view> args, double* out, index_t size, rng& rng);
  bool set_initial(int variable);
  // An ordered vector once a start has given each element a typical value (or a draw,
  // with --init prior): sorted, spread to increase strictly, jittered on the ordered scale.
  void arrange_ordered_start(int variable, rng& rng);
  // An ordered vector once each element is drawn from its prior: sorted (an error naming
  // the variable unless ordered_draw_exact).
  void sort_ordered_draw(int variable);
  // Whether statement `index` is the last that defines its target (for the two above).
  bool completes_target(std::size_t index) const;
  void check_initial_names() const;
  void allocate(int v);
  void run_statement(const lang::ir::statement& s, rng* rng, bool draw);
  // An `=` statement while its variable is built, as one batch; false when it must go
  // instance by instance (model/graph_build.cpp).
  bool build_batch(const lang::ir::statement& s);
  void recompute(const lang::ir::statement& s);
  double sample_term(const lang::ir::statement& s);
  // Evaluates an `=` statement at the current loop values into its target: (offset, size).
  std::pair<index_t, index_t> assign_current(const lang::ir::statement& s);
  double invariant_log_density(const lang::ir::statement& s);
  // Where the scalar values of a statement's instances sit in its target (computed once;
  // only for statements whose target indices use loop variables and data alone).
  const std::vector<index_t>& plate_offsets(const lang::ir::statement& s);
  void set_loops(const lang::ir::statement& s, const index_t* loops);
  void for_each_instance(const lang::ir::statement& s, const std::function<void()>& body);
  // Whether the statement's loop bounds and target indices are free of unknowns: its
  // instances, and the elements they define, stay where they are (batches and tapes
  // work them out once).
  static bool instances_fixed(const lang::ir::statement& s);
  // The current instance's loop values, "i = 2, j = 3" (empty outside loops), for messages.
  std::string loop_values(const lang::ir::statement& s) const;
  [[noreturn]] void fail_in(const lang::ir::statement& s, std::size_t pos, const std::string& message);
  shape value_shape_of(const lang::ir::statement& s, const std::vector<view>& args);
  index_t target_offset(const lang::ir::statement& s, index_t value_size);
  const std::vector<view>& eval_args(const lang::ir::statement& s);

  const lang::ir::model& model_;
  graph_options options_;
  std::vector<tensor> values_;
  std::vector<char> missing_;
  std::vector<char> predictive_;  // per statement
  std::vector<char> likelihood_;  // per statement: see likelihood()
  double temperature_ = 1;
  // A term times the temperature when statement `s` is the likelihood's (inline: every
  // density evaluation passes here, and MCMC runs at temperature 1).
  double tempered(const lang::ir::statement& s, double term) const {
    return temperature_ == 1 ? term : tempered_term(s, term);
  }
  double tempered_term(const lang::ir::statement& s, double term) const;
  std::vector<std::vector<index_t>> imputed_;  // per variable: see imputed_elements
  std::vector<char> built_;
  bool starting_ = false;  // draws are a start's first values: invalid parameters leave NaN
  evaluator eval_;
  frame frame_;
  std::vector<view> args_;                  // reused by eval_args
  std::vector<char> needs_check_;           // per statement: check parameters when evaluating terms
  std::vector<char> invariant_args_;        // per statement: arguments the same for every instance
  std::vector<std::vector<index_t>> plate_offsets_;
  std::uint64_t work_ = 0;
  std::vector<std::int64_t> instance_counts_;  // by statement: instance_count's, -1 before the first
  std::vector<double> gathered_;
  std::vector<std::vector<char>> defined_;  // per variable being built: element defined?
  std::vector<std::vector<char>> holes_;    // per variable: elements without a value (empty: none)
  std::vector<std::vector<index_t>> valued_;  // per variable with holes: its other elements
  std::vector<std::vector<index_t>> record_only_;  // per variable: the elements --monitor names (empty: all)
  std::vector<std::string> hole_origin_;    // per variable: the data file of missing values ("" if undefined)
  // Per variable of one dimension: the data file's place of its first missing value.
  std::map<int, ppl::diagnostic> missing_cell_;
  bool has_holes_ = false;
  std::map<std::string, std::shared_ptr<const void>> analyses_;
  struct gradient_plan;
  std::shared_ptr<gradient_plan> gradient_plan_;  // for the last `wrt` asked
  own_terms* own_terms_ = nullptr;
  std::vector<std::vector<double>> term_adjoints_;  // a term's arguments' adjoints, reused
  // ---- a statement evaluated over all its instances at once (model/graph_batch.cpp) ----
  struct batch_plan;
  // The plan of statement `index`, made on first use; null when the statement is not
  // evaluated as a batch (its shape or its expressions do not allow it).
  batch_plan* plan_batch(const lang::ir::statement& s);
  // The statement's terms (sample, factor) as one batch into `total`; false when it must
  // go instance by instance (nothing is changed then).
  bool batch_log_density(const lang::ir::statement& s, double& total);
  // An `=` statement over all its instances as one batch; false as above.
  bool batch_assign(const lang::ir::statement& s);
  struct batch_column {
    const double* data = nullptr;
    bool varies = false;  // one value per instance, else one for all
  };
  // A node's column over the plan's current block (recorded in batch_seen_ for the reverse pass).
  batch_column batch_eval(batch_plan& p, const lang::ir::expr& e);
  batch_column batch_compute(batch_plan& p, const lang::ir::expr& e);
  batch_column batch_varying(batch_plan& p, const lang::ir::expr& e);
  void batch_scalar_rows(const lang::ir::expr& e, std::span<const view> args, std::size_t n, double* out);
  bool density_rows(const lang::ir::expr& e, std::span<const view> args, std::size_t n, double* out);
  // The same, false where the batch refuses the block (then the instance path takes over).
  bool batch_try(batch_plan& p, const lang::ir::expr& e, batch_column& out);
  // A factor whose value is a log density of scalars that varies from row to row (`factor
  // normal_lpdf(y[n] | mu[n], s)`): its distribution, whose rows kernel then sums a block as
  // a `~`'s does, the call's arguments being the term's columns (the value first); else null.
  const stdlib::distribution* factor_density(const lang::ir::statement& s) const;
  // A term's columns over the current block: a factor's value, a `~`'s arguments, or the
  // arguments of a factor's log density, the value first.
  bool batch_term_columns(batch_plan& p, const lang::ir::statement& s, std::array<batch_column, stdlib::max_params>& cols);
  // The block's terms from those columns (a `~` through distribution::log_density_rows, the
  // values gathered at the target's offsets; a factor's log density through
  // checked_log_density_rows, its value's column as the values), adding the parameters'
  // adjoints into `dp` and the values' into `dx` (one per row) where given.
  double batch_block_terms(const lang::ir::statement& s, batch_plan& p, const std::array<batch_column, stdlib::max_params>& cols,
                           const std::array<double*, stdlib::max_params>& dp, double* dx);
  // ---- their gradients (model/graph_batch_backward.cpp) ----
  // A term's log density into `total` and its adjoints added to `slots`, as one batch;
  // false when it must go instance by instance (nothing is touched then).
  bool batch_differentiate(const lang::ir::statement& s, std::span<double* const> slots, double& total);
  // A block of a factor of a log density (batch::factor_density): its sum, the adjoints
  // passed back through its arguments.
  double factor_density_block(batch_plan& p, const lang::ir::statement& s, const std::array<batch_column, stdlib::max_params>& cols,
                              std::span<double* const> slots);
  // An `=` statement's reverse pass: its target's adjoint passed on, as one batch; false as above.
  bool batch_pass_back(const lang::ir::statement& s, std::span<double* const> slots);
  // The statement whose batch_assign last ran as one block (its nodes' columns still hold
  // that pass), or null; the gradient's reverse pass then reuses them (graph_gradient.cpp).
  const lang::ir::statement* batch_one_block_ = nullptr;
  std::vector<char> batch_fresh_;  // by statement: its columns are this gradient's forward pass
  // Passes the adjoint column of node e (batch_adjoints_) on to its arguments, block by block.
  void batch_backward(batch_plan& p, const lang::ir::expr& e, std::span<double* const> slots);
  // The statement's largest plate-invariant sub-expressions that depend on unknowns: their
  // adjoints are summed over the rows and passed back once, through the evaluator.
  void collect_batch_invariants(const lang::ir::expr& e);
  // After a block refused past the first, when adjoints were already added: the instance
  // path reports the error; that it does not is a logic error, never a wrong gradient.
  [[noreturn]] void batch_refused_late(const lang::ir::statement& s);
  std::vector<batch_column> batch_seen_;                   // by expression id: its column in the current block
  std::vector<std::vector<double>> batch_adjoints_;        // by expression id: its adjoint (a column, or 1 for an invariant)
  std::vector<const lang::ir::expr*> batch_invariants_;
  std::vector<double> batch_x_, batch_dx_;                  // a block's values and their adjoints
  std::vector<std::shared_ptr<batch_plan>> batch_plans_;  // by statement
  std::vector<char> batch_tried_;                          // by statement: plan_batch ran
  std::vector<std::vector<double>> batch_columns_;         // by expression id: a varying node's values
  // By expression id, for a scalar call evaluated row by row: each row's partials (row r's
  // k arguments at r * k) and whether eval_partials gave them, for its reverse pass.
  std::vector<std::vector<double>> batch_partials_;
  std::vector<std::vector<char>> batch_given_;
  // By expression id, for a log density per row whose values read no unknown and whose
  // support is fixed (a Normal's data inside a log_mix): the block of values last found
  // inside the support, which then needs no second look.
  std::vector<std::pair<const double*, std::size_t>> batch_support_seen_;
  std::vector<std::vector<index_t>> batch_offsets_;        // by expression id: an element read's offsets
  std::vector<char> batch_offsets_fixed_;                  // by expression id: those offsets cannot change
  // By expression id: the column of an expression that varies over the plate but reads no
  // unknown (`x[j] - xbar`), kept for every row once the last block has computed it
  // (batch_kept_ready_), for plates of at most batch::kept_rows rows.
  std::vector<std::vector<double>> batch_kept_;
  std::vector<char> batch_kept_ready_;
  // ---- a plate differentiated as one batch (model/graph_plate.cpp) ----
  struct plate_range {
    index_t first = 0, count = 0;  // 0-based first instance, number of instances
  };
  struct plate_value {
    const double* data = nullptr;
    shape per;             // the shape of one instance's value
    bool batched = false;  // one value per instance, row after row (else one for all)
  };
  bool plate_batchable(const lang::ir::statement& s);
  // The plate's instances (its one loop's bounds); false when they cannot be evaluated.
  bool plate_bounds(const lang::ir::statement& s, plate_range& r);
  std::vector<plate_range> plate_known_;  // by statement: its plate's bounds where they are free of unknowns (count -1: not yet)
  // False when the statement must go instance by instance after all (nothing is touched).
  bool differentiate_plate(const lang::ir::statement& s, std::span<double* const> slots, double& total);
  // An `=` plate computed as one batch into its target, keeping its nodes' values for the
  // reverse pass (`invariants`: its plate-invariant nodes that depend on unknowns); false
  // as above. Then the reverse pass: its target's adjoint passed on to what it reads.
  bool define_plate(const lang::ir::statement& s, plate_range& r, std::vector<const lang::ir::expr*>& invariants);
  void pass_back_definition(const lang::ir::statement& s, const plate_range& r, const std::vector<const lang::ir::expr*>& invariants,
                            std::span<double* const> slots);
  plate_value plate_eval(const lang::ir::expr& e, const plate_range& r);
  plate_value plate_compute(const lang::ir::expr& e, const plate_range& r);
  shape plate_elementwise(const lang::ir::expr& e, const std::array<plate_value, 2>& a, const plate_range& r, std::vector<double>& out);
  // `columns`: the batched operand's rows column-major (plate_columns), or null.
  static shape plate_product(std::string_view name, const std::array<plate_value, 2>& a, const plate_range& r, std::vector<double>& out,
                             const double* columns);
  // A dot product's batched operand X where it is data: a column-major copy, made once, so
  // that X w runs down whole columns and the gradient's X' g is one dot product a column
  // (the row-major rows of a narrow X are short dot products each). Null otherwise.
  const double* plate_columns(const lang::ir::expr& e, std::size_t xi, const plate_value& x, const plate_range& r);
  struct column_copy {
    const double* source = nullptr;  // the rows it copies
    index_t count = 0, width = 0;
    std::vector<double> data;
  };
  std::vector<column_copy> plate_columns_;  // by expr id (of the dot product)
  void plate_backward(const lang::ir::expr& e, const plate_range& r, std::span<double* const> slots);
  void plate_product_backward(const lang::ir::expr& e, const plate_range& r, const double* d);
  std::vector<std::vector<double>> plate_values_, plate_adjoints_, plate_repeated_, plate_repeated_adjoint_;  // by expr id
  std::vector<const double*> plate_data_;  // by expr id: the value of the last batch
  std::vector<shape> plate_shapes_;
  std::vector<const lang::ir::expr*> plate_invariants_;  // evaluated once; adjoints summed over the batch
  std::vector<char> varies_;  // by expr id: the node reads a loop variable (mark_varies, once)
  void mark_varies();
  bool varies(const lang::ir::expr& e) const { return varies_[static_cast<std::size_t>(e.id)] != 0; }
  const gradient_plan& plan_gradient(const std::vector<char>& wrt);
  // The terms' total and gradient: all of them (which = -1), the prior's (0) or the
  // likelihood's (1), untempered.
  double log_density_gradient_of(const std::vector<char>& wrt, std::vector<std::vector<double>>& gradient, int which);
  double differentiate_term(const lang::ir::statement& s, const std::vector<const lang::ir::expr*>& hoisted,
                            std::span<double* const> adjoints, bool reverse);
  double differentiate_instance(const lang::ir::statement& s, std::span<double* const> adjoints, double weight);
  // ---- an `=` or factor statement replayed from a tape (model/graph_tape.cpp) ----
  // Runs the statement's forward pass from its tape (recording it the first time): an `=`
  // statement's values are written to its target. Null when it goes instance by instance
  // (it cannot be taped, or this replay failed: nothing is changed then but the target).
  tape* tape_forward(const lang::ir::statement& s, const std::vector<const lang::ir::expr*>& hoisted);
  // The statement's tape where a gradient has recorded one and it still holds, else null
  // (nothing is recorded): graph::recompute replays it.
  tape* recorded_tape(const lang::ir::statement& s);
  std::vector<std::unique_ptr<tape>> tapes_;  // by statement
  std::vector<char> tape_refused_;            // by statement
  // ---- a Normal observation affine in the unknowns, by its sufficient statistics
  // (model/graph_linear_normal.cpp) ----
  struct linear_normal;
  // The statistics of term `s`, read the first time it is asked; null when it does not
  // qualify (structurally, or by the check against its rows).
  linear_normal* linear_normal_of(const lang::ir::statement& s);
  // Its form, where the statement has one (what it reads, N), and the statistics read
  // into it from the term's gradients (false: they disagree with the rows, or do not pay).
  std::shared_ptr<linear_normal> linear_normal_form(const lang::ir::statement& s);
  bool read_linear_normal(const lang::ir::statement& s, linear_normal& t);
  // The term's value from them, its adjoints added to `slots`.
  double linear_normal_term(linear_normal& t, std::span<double* const> slots);
  std::vector<std::shared_ptr<linear_normal>> linear_normals_;  // by statement
  std::vector<char> linear_normal_tried_;                       // by statement
  // While statistics are read: the one term a gradient sums, and no statistics used.
  const lang::ir::statement* only_term_ = nullptr;
  bool reading_statistics_ = false;
  // ---- an `=` statement affine in what it reads, as a sparse product
  // (model/graph_affine_definitions.cpp) ----
  struct affine_definition;
  // Its table, read the first time it is asked (once the graph is built); null when the
  // statement does not qualify.
  affine_definition* affine_definition_of(const lang::ir::statement& s);
  void apply_affine_definition(affine_definition& a, const lang::ir::statement& s);
  // Its reverse pass in a gradient: A' times the target's adjoint, added to the inputs'.
  void pass_back_affine_definition(const affine_definition& a, const lang::ir::statement& s, std::span<double* const> slots) const;
  std::vector<std::shared_ptr<affine_definition>> affine_definitions_;  // by statement
  std::vector<char> affine_definition_tried_;                          // by statement
};

}  // namespace ppl::model
