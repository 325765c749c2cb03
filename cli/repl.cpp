// `ppl repl [MODEL [DATA]]`: build a model a statement at a time, sample it, and ask
// questions of the draws. Line editing, persistent history (~/.ppl_history, or
// $PPL_HISTORY) and tab completion come from libedit; a statement may span lines (the
// input continues while a bracket is open). When standard input is not a terminal the
// REPL reads it as a script: no prompts, and the exit status is 1 if any line failed.
//
// This file is the line editor; repl_session.* holds the commands, repl_query.* the
// expressions over draws, repl_input.* the reading of what was typed.
#include <editline/readline.h>
#include <fmt/core.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/repl_input.hpp"
#include "cli/repl_session.hpp"
#include "runtime/version.hpp"

namespace ppl::cli {

namespace {

repl::session* active = nullptr;  // for the completion callbacks, which take no context

char* complete_next(const char* prefix, int state) {
  static std::vector<std::string> candidates;
  static std::size_t next = 0;
  if (state == 0) {
    candidates = active->completions();
    next = 0;
  }
  const std::size_t n = std::strlen(prefix);
  while (next < candidates.size()) {
    const std::string& c = candidates[next++];
    if (c.compare(0, n, prefix) == 0) return strdup(c.c_str());
  }
  return nullptr;
}

char** complete(const char* prefix, int, int) {
  rl_attempted_completion_over = 1;  // no file names
  return rl_completion_matches(prefix, complete_next);
}

std::string history_path() {
  if (const char* p = std::getenv("PPL_HISTORY")) return p;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.ppl_history";
  return ".ppl_history";
}

// Standard input as a script: complete inputs (brackets closed) one after another.
int run_script(repl::session& s) {
  std::string pending, line;
  while (std::getline(std::cin, line)) {
    pending += line + "\n";
    if (repl::open_brackets(pending) > 0) continue;
    if (!s.handle(pending)) break;
    pending.clear();
  }
  if (!repl::trim(pending).empty()) s.handle(pending);
  return s.failed() ? 1 : 0;
}

int run_terminal(repl::session& s) {
  const std::string history = history_path();
  using_history();
  read_history(history.c_str());
  rl_attempted_completion_function = complete;
  fmt::print("ppl {} — type help for the commands, quit to leave\n", runtime::version());
  std::string pending;
  while (true) {
    char* raw = readline(pending.empty() ? "ppl> " : "...> ");
    if (!raw) {
      fmt::print("\n");
      break;
    }
    std::string line = raw;
    std::free(raw);
    pending += line + "\n";
    if (repl::open_brackets(pending) > 0) continue;
    const std::string entry = repl::trim(pending);
    if (!entry.empty()) {
      add_history(entry.c_str());
      write_history(history.c_str());
    }
    const bool go_on = s.handle(pending);
    pending.clear();
    if (!go_on) break;
  }
  return 0;
}

}  // namespace

int run_repl(const model_inputs& in, bool script) {
  const bool interactive = !script && isatty(STDIN_FILENO);
  repl::session s(interactive);
  active = &s;
  if (!in.model_path.empty()) {
    std::string line = "load " + in.model_path;
    if (!in.data_path.empty()) line += " " + in.data_path;
    s.handle(line);
  }
  for (const auto& set : in.sets) s.handle("set " + set);
  return interactive ? run_terminal(s) : run_script(s);
}

}  // namespace ppl::cli
