// `ppl repl [MODEL [DATA]]`: build a model a statement at a time, sample it, and ask
// questions of the draws. Line editing, persistent history (~/.ppl_history, or
// $PPL_HISTORY) and tab completion come from libedit; a statement may span lines (the
// input continues while a bracket is open). When standard input is not a terminal the
// REPL reads it as a script: no prompts, and the exit status is 1 if any line failed.
//
// At the prompt, Ctrl-C cancels the line being typed (all of a statement spanning lines)
// and gives a fresh prompt, as R's and Python's do; a second Ctrl-C straight after, or
// Ctrl-D, leaves. During `sample`, Ctrl-C stops the chains and keeps their draws.
//
// This file is the command's options and the line editor; repl_session.* holds the
// commands, repl_query.* the expressions over draws, repl_input.* the reading of what was
// typed.
#include <CLI/CLI.hpp>
#include <editline/readline.h>
#include <fmt/core.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/repl_input.hpp"
#include "cli/repl_session.hpp"
#include "core/interrupt.hpp"
#include "core/version.hpp"

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

// Ctrl-C and SIGTERM at the prompt. The handler notes the signal and writes a byte to a
// pipe; libedit reads keys through read_key, which waits on the terminal and the pipe
// together, so a signal arriving at any moment (even before libedit reads) ends the line.
// libedit's own handlers (rl_catch_signals) would instead pass Ctrl-C on and end the
// process.
volatile std::sig_atomic_t prompt_signal = 0;
int signal_pipe[2] = {-1, -1};

extern "C" void on_prompt_signal(int signal) {
  prompt_signal = signal;
  const char byte = 0;
  [[maybe_unused]] const auto written = write(signal_pipe[1], &byte, 1);  // a full pipe already says enough
}

void drain_signal_pipe() {
  char bytes[64];
  while (read(signal_pipe[0], bytes, sizeof bytes) > 0) {
  }
}

// A key for libedit, or EOF after a signal (with the line emptied, so that libedit
// returns no line rather than what was typed so far).
int read_key(FILE* in) {
  while (true) {
    if (prompt_signal) {
      drain_signal_pipe();
      rl_replace_line("", 0);
      return EOF;
    }
    pollfd wait[2] = {{fileno(in), POLLIN, 0}, {signal_pipe[0], POLLIN, 0}};
    if (poll(wait, 2, -1) < 0 && errno != EINTR) return EOF;
    if (prompt_signal || !(wait[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    unsigned char key = 0;
    const ssize_t n = read(fileno(in), &key, 1);
    if (n == 1) return key;
    if (n == 0 || errno != EINTR) return EOF;
  }
}

void catch_prompt_signals() {
  if (pipe2(signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  rl_catch_signals = 0;
  rl_getc_function = read_key;
}

enum class typed { line, cancel, quit };

// Ctrl-C and SIGTERM end the line being typed whenever no command runs: between two
// prompts as well as at one, so that a Ctrl-C typed right after the previous one (while
// the REPL prints `^C` and the next prompt) is not lost.
void handle_prompt_signals() {
  struct sigaction action {};
  action.sa_handler = on_prompt_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// One line from the prompt. A signal that came since the last line ends this one at once.
typed read_line(const char* prompt, std::string& out) {
  char* raw = readline(prompt);
  if (raw) {
    out = raw;
    std::free(raw);
    return typed::line;
  }
  const bool cancel = prompt_signal == SIGINT;
  prompt_signal = 0;
  drain_signal_pipe();
  fmt::print("{}\n", cancel ? "^C" : "");
  return cancel ? typed::cancel : typed::quit;
}

// Runs a complete input. While it runs, Ctrl-C sets the flag `sample` stops its chains at
// instead; a Ctrl-C then stops the command and does not count at the next prompt.
bool run_command(repl::session& s, const std::string& input) {
  ppl::install_interrupt_handlers();
  ppl::set_interrupted(false);
  const bool go_on = s.handle(input);
  prompt_signal = 0;
  drain_signal_pipe();
  handle_prompt_signals();
  ppl::set_interrupted(false);
  return go_on;
}

int run_terminal(repl::session& s) {
  catch_prompt_signals();  // before libedit starts (using_history starts it), which reads its hooks then
  const std::string history = history_path();
  using_history();
  read_history(history.c_str());
  rl_attempted_completion_function = complete;
  fmt::print("ppl {} — type help for the commands, quit to leave\n", ppl::version());
  handle_prompt_signals();
  std::string pending, line;
  bool cancelled = false;  // the last thing typed was a Ctrl-C
  while (true) {
    const typed t = read_line(pending.empty() ? "ppl> " : "...> ", line);
    if (t == typed::quit || (t == typed::cancel && cancelled)) break;
    cancelled = t == typed::cancel;
    if (cancelled) {
      pending.clear();
      continue;
    }
    pending += line + "\n";
    if (repl::open_brackets(pending) > 0) continue;
    const std::string entry = repl::trim(pending);
    if (!entry.empty()) {
      add_history(entry.c_str());
      write_history(history.c_str());
    }
    const bool go_on = run_command(s, pending);
    pending.clear();
    if (!go_on) break;
  }
  return 0;
}

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

struct repl_arguments {
  model_inputs in;
  bool script = false;
};

}  // namespace

command add_repl_command(CLI::App& app) {
  auto a = std::make_shared<repl_arguments>();
  auto* cmd = app.add_subcommand("repl", "an interactive session: build a model, sample it, query the draws (type help)");
  cmd->add_option("MODEL", a->in.model_path, "a model to start from (.ppl)")->check(CLI::ExistingFile);
  cmd->add_option("DATA", a->in.data_path, "its data: CSV, JSON or R dump")->check(CLI::ExistingFile);
  cmd->add_option("--set", a->in.sets, "set a data value: --set K=50 (repeatable; default: none)");
  cmd->add_flag("--script", a->script, "read standard input as a script even on a terminal (no prompts, no line editing; default: off)");
  return {cmd, [a] { return run_repl(a->in, a->script); }};
}

}  // namespace ppl::cli
