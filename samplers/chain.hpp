#pragma once
// Running chains: each chain has its own graph (its own values, initial draw and random
// stream) and its own samplers, and runs on its own thread. The random stream of chain c
// is seeded from (seed, c) alone, so a seed gives the same draws whatever the number of
// threads. Adaptation happens only during warmup; Ctrl-C stops every chain after its
// current iteration with all finished draws kept.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "runtime/data.hpp"
#include "runtime/draws.hpp"

namespace ppl::samplers {

struct run_options {
  int chains = 4;
  long warmup = 1000;
  long draws = 1000;
  long thin = 1;
  std::uint64_t seed = 1;
  std::vector<std::string> monitors;             // empty: every unknown and derived variable
  std::map<std::string, std::string> overrides;  // --sampler name=kind
  const runtime::data_table* init = nullptr;     // initial values of unknowns (--init)
  // Called with (chain, iterations done, iterations in total) now and then, from the
  // chain's thread.
  std::function<void(int, long, long)> progress;
};

struct plan_line {
  std::string variable;  // "theta[1:2000, 1:20]"
  std::string kind;
  std::string reason;
};

struct run_result {
  runtime::draws draws;
  std::vector<plan_line> plan;
  std::vector<std::vector<std::string>> reports;  // per chain, per sampler: "theta: acceptance 0.23"
  std::vector<long> completed;                    // iterations finished per chain
  bool interrupted = false;
};

// The sampler assignment, for `ppl plan` (builds one graph).
std::vector<plan_line> describe_plan(const lang::ir::model& m, const runtime::data_table& data,
                                     const std::map<std::string, std::string>& overrides);

// Runs the chains. `open_writer` is called once the columns are known and returns the
// writer to stream rows to (or null).
run_result run(const lang::ir::model& m, const runtime::data_table& data, const run_options& options,
               const std::function<runtime::draws_writer*(const std::vector<std::string>& columns,
                                                          const std::vector<plan_line>& plan)>& open_writer);

}  // namespace ppl::samplers
