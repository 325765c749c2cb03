// `ppl man`: the manual page, in roff, written from the same CLI11 definitions as --help
// (cli/manual.cpp).
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/manual.hpp"

namespace ppl::cli {

command add_man_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("man", "print this manual page in roff (man -l <(ppl man)); installed as ppl.1");
  return {cmd, [&app] { return print_text(manual_page(app)); }};
}

}  // namespace ppl::cli
