// `ppl plan MODEL [DATA]`: the sampler the chains would give every unknown, and why
// (inference::describe_plan), without running them.
#include <CLI/CLI.hpp>

#include <memory>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"

namespace ppl::cli {

namespace {

struct plan_arguments {
  model_inputs in;
  std::vector<std::string> samplers;  // --sampler name=kind
};

int run_plan(const model_inputs& in, const std::vector<std::string>& overrides) {
  return guarded([&] {
    loaded l = load(in);
    print_plan(inference::describe_plan(*l.model, l.data, parse_overrides(overrides, "theta")));
    return 0;
  });
}

}  // namespace

command add_plan_command(CLI::App& app) {
  auto a = std::make_shared<plan_arguments>();
  auto* cmd = app.add_subcommand("plan", "show the sampler chosen for every unknown, and why");
  add_model_inputs(cmd, a->in);
  cmd->add_option("--sampler", a->samplers, "force a sampler kind: NAME=KIND (default: chosen by structure)");
  return {cmd, [a] { return run_plan(a->in, a->samplers); }};
}

}  // namespace ppl::cli
