#pragma once
// Loading a model and its data the same way for every command.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "lang/ast.hpp"
#include "core/source_error.hpp"
#include "lang/ir.hpp"
#include "data/data.hpp"
#include "draws/draws.hpp"
#include "inference/chain.hpp"

namespace ppl::cli {

struct loaded {
  std::unique_ptr<lang::ir::model> model;
  data::data_table data;
  // A BUGS model's names spelt with dots there: ppl name -> BUGS spelling (alpha_c ->
  // alpha.c), which its CODA files keep, as JAGS's R scripts expect.
  std::map<std::string, std::string> bugs_names;
};

// A model file's text and its language.
struct source_model {
  ppl::source_file src;
  bool bugs = false;  // the BUGS language (--dialect, or lang::looks_like_bugs)
};
source_model read_model(const model_inputs& in);

// The model as ppl's syntax tree: parsed, or for BUGS parsed and lowered, its data
// declarations made from the data's shapes (or with no data, from the model alone).
lang::ast::program program_of(const source_model& m, const data::data_table* data, std::map<std::string, std::string>* dotted = nullptr);

// The data made to fit the checked model: an R number that the model declares an array
// (R's dump writes a vector of length 1 as `y <- 2.5`) becomes an array of one element.
void fit_length_one(const lang::ir::model& model, data::data_table& data);

// Reads, parses and checks the model and reads the data. Throws ppl::source_error, or
// std::invalid_argument for a malformed --set (a usage error).
loaded load(const model_inputs& in);

// `ppl infer` on a loaded model: runs the chains, streams the draws, prints the summary;
// `keep`, when given, receives the draws (the REPL's `sample`). Returns the exit status.
int infer_loaded(loaded l, const model_inputs& in, const infer_options& o, draws::table* keep);

// `ppl infer` with chains (--method mcmc) on a loaded model (cli/infer_chains.cpp), after
// infer_loaded's checks; `output_option` names the draws file in the refusal of one that
// is an input. Returns the exit status.
int infer_chains(loaded l, const model_inputs& in, const infer_options& o, const std::string& output_option, draws::table* keep);

// `ppl infer --method importance|smc|rejection` on a loaded model (cli/infer_weighted.cpp):
// the method run, its draws written whole with their weights and the evidence in the
// header, the weighted summary printed. Returns the exit status.
int infer_weighted(loaded l, const model_inputs& in, const infer_options& o, draws::table* keep);
// One weighted method run by name, its prior checked proper first (`ppl compare` runs it
// on each model).
inference::weighted_result run_method(const lang::ir::model& m, const data::data_table& data, const std::string& method,
                                     const inference::monte_carlo_options& mc);

// Runs a command body, turning errors into messages on stderr and exit statuses.
int guarded(const std::function<int()>& body);

// The plan's lines (variable, sampler kind, reason) in columns at least `label_width` and
// 10 wide, wider where a label or a kind is longer, each line after `prefix`.
void print_plan(const std::vector<inference::plan_line>& lines, std::string_view prefix = "", std::size_t label_width = 28);

// --sampler NAME=KIND, each spec read into the map the chains take. A malformed one is a
// usage error whose example forces `example`: --sampler theta=slice.
std::map<std::string, std::string> parse_overrides(const std::vector<std::string>& specs, const std::string& example);

// Refuses a model with an unknown whose prior is improper (a `param` without `~`,
// Flat()) where its prior must be drawn from: `what` says by whom ("`ppl simulate`").
void refuse_improper_priors(const lang::ir::model& m, const std::string& what);

// --init as a start: `prior`, `pathfinder` (the default start, which run_options::start_path
// then moves), a jitter radius, or a file of values read into `values`, of which names that
// are not unknowns of the model (JAGS's `.RNG.name`, another version's) are left out with
// a note, as JAGS leaves them.
model::start_options start_of(const lang::ir::model& m, const std::string& init, data::data_table& values);

// Each warning as `warning: ...` on standard error, after what standard output holds so far:
// with both sent to one pipe (2>&1) a warning would otherwise land inside the table before it.
void print_warnings(const std::vector<std::string>& warnings);

// A usage error of the option parser (CLI11) as ppl words every error: "error: the
// following argument was not expected: --bogus" (CLI11 capitalises its sentences).
std::string usage_error_line(const std::string& what);

}  // namespace ppl::cli
