// `ppl completion bash`: the shell completion script, written from the same CLI11
// definitions as --help (cli/manual.cpp).
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/manual.hpp"

namespace ppl::cli {

command add_completion_command(CLI::App& app) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("completion", "print the shell completion script (bash: source <(ppl completion bash))");
  cmd->add_option("SHELL", *shell, "the shell")->required()->check(CLI::IsMember({"bash"}));
  // The run holds `shell`, which SHELL writes; bash is the only one it may be.
  return {cmd, [&app, shell] { return print_text(bash_completion(app)); }};
}

}  // namespace ppl::cli
