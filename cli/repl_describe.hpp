#pragma once
// The REPL's questions about the model itself, before any sample: `describe NAME` and
// `plan`.
#include <map>
#include <string>

#include "lang/ir.hpp"
#include "data/data.hpp"

namespace ppl::cli::repl {

// A variable's type, role, the lines of its statements, and with enough data its shape
// and sampler. Throws std::invalid_argument when the model has no such variable.
void describe(const lang::ir::model& m, const data::data_table& data, const std::string& name);

// The sampler of every unknown and why, with `forced` kinds (name -> kind) imposed.
void print_plan(const lang::ir::model& m, const data::data_table& data, const std::map<std::string, std::string>& forced);

}  // namespace ppl::cli::repl
