// `ppl compare A.ppl B.ppl DATA`: which of two models do the data support? Each model's
// evidence log p(data) by a weighted method (smc by default), and the Bayes factor
// p(data | A) / p(data | B) (Kass & Raftery 1995, "Bayes factors", JASA 90(430)). The two
// estimates come from independent runs, so the log Bayes factor's standard error is the
// root of the sum of their squares.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cmath>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"

namespace ppl::cli {

namespace {

struct compare_options {
  std::string model_a, model_b, data_path;
  std::vector<std::string> sets;
  std::string method = "smc";
  inference::monte_carlo_options monte_carlo;
};

int run_compare(const compare_options& o) {
  return guarded([&] {
    // Both models are read and checked before either runs: an error in B costs no run of A.
    std::vector<loaded> models;
    for (const std::string& path : {o.model_a, o.model_b}) {
      models.push_back(load({path, o.data_path, o.sets, "auto"}));
      if (!lang::ir::has_unknowns(*models.back().model))
        throw ppl::source_error({path, {}, "the model has no unknowns; its evidence is its log density at the data, which `ppl compare` "
                                            "does not compute", "", ""});
      refuse_improper_priors(*models.back().model, "`ppl compare`");
    }
    std::vector<inference::evidence_estimate> found;
    bool unreliable = false;
    const auto number = [](double x, int decimals) { return std::isnan(x) ? std::string("n/a") : fmt::format("{:.{}f}", x, decimals); };
    fmt::print("{:<28} {:>14} {:>10} {:>10}\n", "model", "log evidence", "se", "seconds");
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string& path = k == 0 ? o.model_a : o.model_b;
      const inference::weighted_result r = run_method(*models[k].model, models[k].data, o.method, o.monte_carlo);
      for (const auto& w : r.warnings) fmt::print(stderr, "warning: {}: {}\n", path, w);
      fmt::print("{:<28} {:>14.4f} {:>10} {:>10.2f}\n", path, r.evidence.log_z, number(r.evidence.se, 4), r.seconds);
      found.push_back(r.evidence);
      unreliable = unreliable || r.unreliable;
    }
    const double log_bf = found[0].log_z - found[1].log_z;
    const double se = std::hypot(found[0].se, found[1].se);
    fmt::print("log Bayes factor, {} over {}: {:.4f} (se {})\n", o.model_a, o.model_b, log_bf, number(se, 4));
    if (std::isnan(se)) {
      fmt::print("Bayes factor: {:.4g} (no standard error to bound it)\n", std::exp(log_bf));
    } else {
      fmt::print("Bayes factor: {:.4g} (within two standard errors: {:.4g} to {:.4g})\n", std::exp(log_bf), std::exp(log_bf - 2 * se),
                 std::exp(log_bf + 2 * se));
    }
    if (o.method == "laplace")
      fmt::print("note: Laplace's evidence is an approximation, exact only for a posterior normal on the unconstrained scale; its error "
                 "has no standard error to show it (each model's draws' k-hat says whether the approximation holds)\n");
    else if (std::isnan(se) && !unreliable) fmt::print("note: with --method smc, --runs 2 or more gives the standard errors\n");
    if (unreliable && !o.monte_carlo.allow_unreliable) {
      fmt::print(stderr, "error: {} cannot be trusted (the warning above says why), and so neither can the Bayes factor; "
                         "--allow-unreliable exits 0 with them\n", o.method == "laplace" ? "a Laplace approximation" : "an evidence's standard error");
      return 3;
    }
    return 0;
  });
}

}  // namespace

command add_compare_command(CLI::App& app) {
  auto o = std::make_shared<compare_options>();
  auto* cmd = app.add_subcommand("compare", "the log evidence log p(data) of two models and their Bayes factor, by smc or importance");
  cmd->add_option("MODEL_A", o->model_a, "the first model")->required()->check(CLI::ExistingFile);
  cmd->add_option("MODEL_B", o->model_b, "the second model")->required()->check(CLI::ExistingFile);
  cmd->add_option("DATA", o->data_path, "the data both models are given")->check(CLI::ExistingFile);
  cmd->add_option("--set", o->sets, "set a data value for both models: --set K=50 (repeatable; default: none)");
  cmd->add_option("--method", o->method,
                  "smc, importance, rejection, or laplace (Laplace's approximation at each model's mode, no standard error; "
                  "--particles draws check it)")
      ->capture_default_str()->check(CLI::IsMember({"smc", "importance", "rejection", "laplace"}));
  add_monte_carlo_options(cmd, o->monte_carlo);
  cmd->add_option("--threads", o->monte_carlo.threads, "threads the work is spread over")->capture_default_str()->check(whole(1, 256));
  cmd->add_option("--seed", o->monte_carlo.seed, "random seed")->capture_default_str()->check(seed());
  return {cmd, [o] { return run_compare(*o); }};
}

}  // namespace ppl::cli
