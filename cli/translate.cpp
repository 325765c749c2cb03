// `ppl translate model.bug [DATA]`: a BUGS model in ppl's language, checked first (errors
// point at the BUGS text), then printed (lang/printer.*) and read back as a check of the
// printer. With the data, the variables they give are declared as data with their kinds
// and sizes; without, only those the model reads and never defines.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "lang/checker.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "data/data.hpp"
#include "stdlib/registry.hpp"

namespace ppl::cli {

namespace {

int run_translate(const model_inputs& in, const std::string& output) {
  return guarded([&] {
    const source_model m = read_model(in);
    if (!m.bugs)
      throw std::invalid_argument(in.model_path + " is not a BUGS model (.bug, .bugs, .jags, or a .txt beginning with `model {`); "
                                  "give --dialect bugs if it is one");
    refuse_overwriting_inputs("--output", {output}, {in.model_path, in.data_path});
    data::data_table data;
    if (!in.data_path.empty()) data = data::read_data_file(in.data_path);
    for (const auto& s : in.sets) data::apply_set(data, s);
    const bool with_data = !in.data_path.empty() || !in.sets.empty();
    const lang::ast::program program = program_of(m, with_data ? &data : nullptr);
    lang::check(m.src, program, stdlib::library());

    std::string text = "# " + std::filesystem::path(in.model_path).filename().string() + " in ppl's language (ppl translate)\n";
    if (!with_data)
      text += "# Without the data, every variable that has a `~` is an unknown here: declare those the data give\n"
              "# as `data NAME: int[N]` (or real) to observe them.\n";
    text += lang::print_program(program, m.src.text);
    // The printer's check: the text reads back as the model that was checked.
    try {
      lang::check({"<translation>", text}, lang::parse({"<translation>", text}), stdlib::library());
    } catch (const ppl::source_error& e) {
      throw std::runtime_error(std::string("the translation does not read back (a fault of ppl's; please report it):\n") + e.what());
    }
    if (output.empty() || output == "-") {
      errno = 0;
      std::cout << text << std::flush;
      if (!std::cout)
        throw std::runtime_error(std::string("cannot write the translation to standard output: ") +
                                 (errno ? std::strerror(errno) : "write failed"));
    } else {
      write_replacing(output, "", [&](std::ostream& out) { out << text; });
    }
    return 0;
  });
}

struct translate_arguments {
  model_inputs in;
  std::string output;
};

}  // namespace

command add_translate_command(CLI::App& app) {
  auto a = std::make_shared<translate_arguments>();
  auto* cmd = app.add_subcommand("translate", "print a BUGS model (.bug, .jags) in ppl's language; with its data, declared as data");
  add_model_inputs(cmd, a->in);
  cmd->add_option("--output,-o", a->output, "the .ppl file to write (default: standard output)")->type_name("FILE");
  return {cmd, [a] { return run_translate(a->in, a->output); }};
}

}  // namespace ppl::cli
