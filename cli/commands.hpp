#pragma once
// The subcommands of `ppl`. Each returns the process exit status: 0 success, 1 an error
// in the model or data, 2 a usage error.
#include <cstdint>
#include <string>
#include <vector>

namespace ppl::cli {

struct model_inputs {
  std::string model_path;
  std::string data_path;           // optional
  std::vector<std::string> sets;   // --set name=value
};

int run_check(const model_inputs& in);

struct simulate_options {
  long draws = 100;
  std::uint64_t seed = 1;
  std::string output;  // empty: stdout
};

int run_simulate(const model_inputs& in, const simulate_options& opt);

}  // namespace ppl::cli
