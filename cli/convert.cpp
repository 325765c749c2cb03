// `ppl convert DATA OUT.npz`: a data file of any format ppl reads (CSV, JSON, R's dump,
// NumPy's), with any --set, written once as NumPy's .npz, which ppl then reads at the
// speed of the disk (data/numpy.cpp), as numpy.load and R's RcppCNPy do.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "data/data.hpp"

namespace ppl::cli {

namespace {

struct convert_arguments {
  std::string input, output;
  std::vector<std::string> sets;
};

int run_convert(const convert_arguments& a) {
  return guarded([&] {
    if (!a.output.ends_with(".npz"))
      throw std::invalid_argument("the output " + a.output + " does not end in .npz: ppl convert writes NumPy's .npz archives");
    refuse_overwriting_inputs("the output", {a.output}, {a.input});
    data::data_table table = data::read_data_file(a.input);
    for (const auto& s : a.sets) data::apply_set(table, s);
    for (const auto& [name, column] : table.text_columns())
      fmt::print(stderr, "note: {}: `{}` {}; not written\n", a.input, name, column.reason.empty() ? "is text" : column.reason);
    write_replacing(a.output, "", [&](std::ostream& out) { data::write_npz(table, out); });
    return 0;
  });
}

}  // namespace

command add_convert_command(CLI::App& app) {
  auto a = std::make_shared<convert_arguments>();
  auto* cmd = app.add_subcommand("convert", "write a data file (CSV, JSON, R dump) as NumPy's .npz, which ppl reads at the disk's speed");
  cmd->add_option("data", a->input, "the data file to read (any format ppl reads)")->required()->check(CLI::ExistingFile);
  cmd->add_option("output", a->output, "the .npz file to write (replaced whole, never left half written)")->required();
  cmd->add_option("--set", a->sets, "give or override a data value, as infer's --set: NAME=VALUE")->type_name("NAME=VALUE");
  return {cmd, [a] { return run_convert(*a); }};
}

}  // namespace ppl::cli
