#pragma once
// What the commands' options share (cli/options.cpp): the checks of numbers, the model and
// data arguments, the options of `ppl infer` (also the REPL's `sample`), the weighted
// methods' settings, and how a usage error reads. Its users include CLI11 themselves; this
// header does not, so that only they compile it.
#include <string>

#include "cli/commands.hpp"

namespace CLI {
class App;
class Error;
class Validator;
}  // namespace CLI

namespace ppl::cli {

// CLI11's own range check reads a word as out of range ("Value many not in range 1 to
// 1000") and prints real bounds with six decimals (1e-12 as "0.000000"); these say what
// is expected, and what was given.
CLI::Validator whole(long long lo, long long hi);
CLI::Validator real(double lo, double hi);
// --seed: any 64-bit unsigned number.
CLI::Validator seed();

// MODEL, DATA, --dialect and --set.
void add_model_inputs(CLI::App* cmd, model_inputs& in, bool required = true);
// The options of `ppl infer` (also those of the REPL's `sample`).
void add_infer_options(CLI::App* cmd, infer_options& opt);
// The weighted methods' settings, for `ppl infer` and `ppl compare`.
void add_monte_carlo_options(CLI::App* cmd, inference::monte_carlo_options& mc);

// Usage errors read like every other error of ppl: "error: " and what is wrong.
std::string usage_failure(const CLI::App*, const CLI::Error& e);

}  // namespace ppl::cli
