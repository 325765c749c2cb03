#pragma once
// The REPL's state and commands: the model typed or loaded so far, its data, and the last
// sample's draws. `handle` takes one complete input (a command, a statement or an
// expression), prints its answer or its error, and carries on.
#include <memory>
#include <string>
#include <vector>

#include "lang/ir.hpp"
#include "runtime/data.hpp"
#include "runtime/draws.hpp"

namespace ppl::cli::repl {

class session {
 public:
  explicit session(bool interactive) : interactive_(interactive) {}

  // Handles one complete input (one or more lines); false to quit.
  bool handle(const std::string& input);
  // Whether any input failed (a script's exit status).
  bool failed() const { return failed_; }
  // Names to complete: commands, the model's variables, the summaries.
  std::vector<std::string> completions() const;

 private:
  void dispatch(const std::string& line, const std::string& input);
  void fail(const std::string& message);
  void compile(const std::string& name, const std::string& text);
  void add_statement(const std::string& input);
  void load_command(const std::vector<std::string>& w);
  void read_command(const std::vector<std::string>& w);
  void set_command(const std::string& assignment);
  void plan_command(const std::vector<std::string>& w);
  void sample_command(const std::vector<std::string>& w);
  void summary_command(const std::vector<std::string>& w);
  void describe_command(const std::vector<std::string>& w);
  const lang::ir::model& model() const;
  const runtime::draws& draws() const;

  bool interactive_;
  bool failed_ = false;
  std::string name_ = "<repl>", text_;
  std::unique_ptr<lang::ir::model> model_;
  runtime::data_table data_;
  std::vector<std::string> sets_;
  runtime::draws draws_;
  std::string draws_text_;
};

// Every command with its one-line help, in the order `help` lists them.
struct command_help {
  const char* usage;
  const char* what;
};
extern const std::vector<command_help> command_table;

}  // namespace ppl::cli::repl
