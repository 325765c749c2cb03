#pragma once
// The manual page (roff, for man(1)) and the bash completion script of `ppl`, written from
// the same CLI11 definitions as its --help (cli/manual.cpp).
#include <string>

namespace CLI {
class App;
}

namespace ppl::cli {

std::string manual_page(const CLI::App& app);
std::string bash_completion(const CLI::App& app);

// Writes text to standard output: 0, or 1 with a message when it cannot be written (a
// full disk, a closed pipe).
int print_text(const std::string& text);

}  // namespace ppl::cli
