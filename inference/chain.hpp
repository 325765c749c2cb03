#pragma once
// Running chains: each chain has its own graph (its own values, initial draw and random
// stream) and its own samplers, and runs on its own thread. The random stream of chain c
// is seeded from (seed, c) alone, so a seed gives the same draws whatever the number of
// threads. Adaptation happens only during warmup; Ctrl-C stops every chain after its
// current iteration with all finished draws kept.
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "data/data.hpp"
#include "draws/draws.hpp"
#include "draws/writer.hpp"
#include "inference/dic.hpp"
#include "model/graph.hpp"
#include "samplers/factories.hpp"

namespace ppl::inference {

class chain_spread;

struct run_options {
  int chains = 4;
  long warmup = 1000;
  long draws = 1000;
  long thin = 1;
  int threads = 1;  // threads per chain for samplers that can use them (LDA's partitioned AD-LDA, the Ising heat-bath, a conjugate update's blocks)
  std::uint64_t seed = 1;
  std::vector<std::string> monitors;             // empty: every unknown and derived variable
  std::map<std::string, std::string> overrides;  // --sampler name=kind
  samplers::metric_choice metric = samplers::metric_choice::automatic;  // --metric (nuts, hmc)
  double target_accept = 0.8;                    // --target-accept (nuts, hmc)
  int max_depth = 10;                            // --max-depth (nuts)
  samplers::collapsed_record collapsed = samplers::collapsed_record::draws;  // --collapsed: what a monitored collapsed theta or phi records
  model::start_options start;                  // where chains start: --init FILE, a jitter radius, or prior draws
  // Pathfinder's path from that start toward the bulk for the unknowns of the plan's
  // gradient-based blocks (--init pathfinder; inference/chain_start.cpp).
  bool start_path = false;
  const data::data_table* heldout = nullptr;  // held-out data to score (--heldout)
  long heldout_every = 0;                        // iterations between scores; 0: a tenth of the run
  // Called with (chain, iterations done, iterations in total, lp__) now and then, from the
  // chain's thread.
  std::function<void(int, long, long, double)> progress;
  // Called with (chain, iteration, what is scored, the score) for each held-out score
  // (LDA's perplexity, or a Normal observation's RMSE), from the chain's thread.
  std::function<void(int, long, const std::string&, double)> heldout_report;
  // Saving a run to resume it: called with (chain, iterations done, the chain's saved
  // state) from the chain's thread, when `checkpoint_seconds` have passed since the last
  // call (0: after every iteration) and when the chain stops, finished or interrupted.
  std::function<void(int, long, std::string)> checkpoint;
  double checkpoint_seconds = 60;
  // Chains to continue rather than start: per chain, a state given to `checkpoint` (empty:
  // start that chain afresh), and, for a run that keeps its draws in memory, the draws it
  // had kept (rows of `columns`, as in draws::table), which the result then includes.
  const std::vector<std::string>* resume = nullptr;
  const draws::table* resumed_draws = nullptr;
  // The Hamiltonian columns (draws::hamiltonian_columns) in every table, as Stan's
  // layout has them; otherwise only when a Hamiltonian sampler runs.
  bool hamiltonian_columns = false;
  // The deviance column after lp__ (and the Hamiltonian columns), and DIC's penalties in
  // the result (--dic; inference/dic.hpp).
  bool dic = false;
  // Chains spread over the processes of an MPI job: this process runs those `spread`
  // gives it (null: all of them).
  chain_spread* spread = nullptr;
};

struct plan_line {
  std::string variable;  // "theta[1:2000, 1:20]"
  std::string kind;
  std::string reason;
  std::string name;            // "theta"
  bool means = false;          // its recorded values are Rao-Blackwellised means, not draws (--collapsed means)
};

// A variable not recorded by default for its size, with its number of scalars.
struct unrecorded {
  std::string name;
  long long size = 0;
};

struct run_result {
  std::vector<std::string> columns;               // of every row written: lp__, sampler columns, recorded scalars
  draws::table draws;                           // when run without a writer
  std::vector<unrecorded> left_out;               // variables not recorded by default for their size
  std::vector<plan_line> plan;
  std::vector<std::vector<std::string>> reports;  // per chain, per sampler: "theta: acceptance 0.23"
  std::vector<long> completed;                    // iterations finished per chain
  std::vector<double> heldout_score;              // per chain, the last held-out score
  std::string heldout_what;                       // what it is: "held-out perplexity (document completion)"
  std::vector<double> warmup_seconds, sampling_seconds;  // per chain, wall time of each phase
  bool interrupted = false;
  // --dic: JAGS's pD and the deviance at the posterior means, from this process's chains
  // (null without --dic).
  std::optional<dic_penalties> dic;
};

// Chains spread over the processes of an MPI job (cli/cluster_mpi.cpp). Each process
// builds and runs only its own chains, with the seeds they have in one process, so chain
// c's draws do not depend on where it runs. The writing process (rank 0) receives what the
// others' chains write, report and save, and hands it to its writer and callbacks as if its
// own threads had made it.
class chain_spread {
 public:
  virtual ~chain_spread() = default;
  virtual bool runs(int chain) const = 0;
  virtual bool writes() const = 0;
  // Every process, once its chains are built (`error`: how building them failed, or
  // null): when any failed, all stop, rank 0 with the lowest-ranked failure's message.
  virtual void agree_built(std::exception_ptr error) = 0;
  // Elsewhere than the writer: callbacks (progress, held-out scores, saved states) that
  // send on, and the writer that sends rows on once the row's length is known.
  virtual void forward_callbacks(run_options& o, bool saving) = 0;
  virtual draws::draws_writer* forward_writer(std::size_t columns) = 0;
  // The writer's process, on a thread of its own while its chains run: receives until
  // every other process has reported, filling `r` for their chains. `stop()` asks the
  // others to stop their chains (an interrupt, a failed write, a failed chain).
  virtual void serve(draws::draws_writer* writer, const run_options& o, run_result& r) = 0;
  virtual void stop() = 0;
  // Elsewhere: this process's chains are done (their figures in `r`), or have failed.
  virtual void report(const run_result& r) = 0;
  virtual void report_failure(std::exception_ptr error) = 0;
};

// The samplers of one chain from the plan, in the plan's order; the variables of a kind
// that joins blocks (NUTS) share one sampler, placed at the first of them. `names` lists
// a sampler's variables ("W1, b1") for its report.
struct made_sampler {
  std::unique_ptr<samplers::sampler> made;
  std::string names;
  std::vector<int> variables;
  bool optional = false;  // added because it may pay (a scale move): the chain's trial decides (chain_trial.hpp)
  bool for_scale = true;  // optional for a scale (a scale move's theta, variables.front()) whose spread the trial reads
};
std::vector<made_sampler> make_samplers(model::graph& g, const std::vector<samplers::assignment>& assignments);

// The variables a run records: those named (an error for a name the model lacks), or by
// default every unknown and derived variable of at most 1000 scalars, the larger ones
// listed in `left_out`. A name may be written as JAGS writes it: BUGS's dotted spelling
// (beta.c for beta_c), or one element, Y[26,2], which the graph then records alone
// (graph::record_only; several elements of one variable, in the order named).
std::vector<int> monitored_variables(const lang::ir::model& m, model::graph& g, const std::vector<std::string>& names,
                                     std::vector<unrecorded>* left_out = nullptr);
// The columns of those variables' recorded scalars, as a row (graph::append_recorded) gives them.
std::vector<std::string> recorded_columns(const model::graph& g, const std::vector<int>& monitored);

// Sorts a plan into the order of a sweep: the model's order, except that ancestral draws
// come last (a prediction is then drawn from the sweep's new values of what it reads).
void sweep_order(const lang::ir::model& m, std::vector<samplers::assignment>& assignments);

// The sampler assignment, for `ppl plan` (builds one graph).
std::vector<plan_line> describe_plan(const lang::ir::model& m, const data::data_table& data,
                                     const std::map<std::string, std::string>& overrides);

// Runs the chains. `open_writer` is called once the columns are known and returns the
// writer to stream rows to; a failed write stops every chain and is thrown
// (draws::write_error) once they have stopped. Without `open_writer` the draws are
// kept in run_result::draws instead (tests, and small runs held in memory). The data is taken by value so that a caller done
// with it can move it in: the graphs then hold the only copy of the largest arrays.
run_result run(const lang::ir::model& m, data::data_table data, const run_options& options,
               const std::function<draws::draws_writer*(const std::vector<std::string>& columns,
                                                          const std::vector<plan_line>& plan)>& open_writer);

}  // namespace ppl::inference
