#pragma once
// The REPL's state and commands: the model typed or loaded so far (numbered statements),
// its data, and the last sample. `handle` takes one complete input (a command, a
// statement or an expression), prints its answer or its error, and carries on.
//
// The last sample keeps the model text and data it was drawn under. When either changes
// afterwards (set, read, load, a statement added, dropped or replaced) the REPL says the
// sample is stale; `summary` and expressions still answer from its draws, evaluated under
// the model and data they came from, and say so each time.
#include <memory>
#include <string>
#include <vector>

#include "cli/repl_program.hpp"
#include "lang/ir.hpp"
#include "data/data.hpp"
#include "draws/draws.hpp"

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
  struct sample {
    draws::table draws;
    std::string model_text;
    data::data_table data;
    bool stale = false;
  };

  void dispatch(const std::string& line, const std::string& input);
  void fail(const std::string& message);
  void commit(program p, const std::string& done, const std::string& source);
  void changed();
  void add_statement(const std::string& input);
  void drop_command(const std::vector<std::string>& w);
  void replace_command(const std::string& line);
  void load_command(const std::vector<std::string>& w);
  void read_data(const std::string& path);
  void set_command(const std::string& assignment);
  void plan_command(const std::vector<std::string>& w);
  void sample_command(const std::vector<std::string>& w);
  void summary_command(const std::vector<std::string>& w);
  void query_command(const std::string& line);
  const lang::ir::model& model() const;
  const sample& last_sample() const;

  bool interactive_;
  bool failed_ = false;
  std::string name_ = "<repl>";
  program program_;
  std::unique_ptr<lang::ir::model> model_;  // program_ compiled; null while it is empty
  data::data_table data_;
  std::vector<std::string> sets_;
  sample last_;
};

// Every command with its one-line help, in the order `help` lists them.
struct command_help {
  const char* usage;
  const char* what;
};
extern const std::vector<command_help> command_table;

}  // namespace ppl::cli::repl
