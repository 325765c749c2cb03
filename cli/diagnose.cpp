// `ppl diagnose MODEL [DATA]`: the gradient of the log density at a point drawn from the
// prior, checked against central finite differences coordinate by coordinate (as Stan's
// `diagnose` method does), and timed: how many gradient evaluations a second the model
// costs, which is what bounds NUTS and HMC. The block is every smooth continuous unknown,
// on the unconstrained scale the Hamiltonian samplers move on.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/session.hpp"
#include "model/graph.hpp"
#include "samplers/unconstrained.hpp"

namespace ppl::cli {

namespace {

struct diagnose_options {
  std::uint64_t seed = 1;
  double epsilon = 1e-4;  // finite-difference step, relative (roundoff grows as it shrinks)
  double error = 1e-5;    // largest relative error accepted (else exit status 1)
  long repeat = 0;        // gradient evaluations to time
  int show = 10;          // coordinates listed, worst first
};

int run_diagnose(const model_inputs& in, const diagnose_options& opt) {
  return guarded([&] {
    loaded l = load(in);
    const auto& m = *l.model;
    ppl::rng rng(opt.seed);
    model::graph g(m, l.data, rng);
    std::vector<int> block;
    std::string skipped;
    for (std::size_t v = 0; v < m.variables.size(); ++v) {
      if (m.variables[v].role != lang::ir::role::unknown) continue;
      std::string reason;
      if (samplers::smooth_block(g, static_cast<int>(v), reason)) block.push_back(static_cast<int>(v));
      else skipped += fmt::format("  {}: {}\n", m.variables[v].name, reason);
    }
    if (block.empty()) {
      fmt::print(stderr, "error: diagnose: no unknown of this model is smooth and continuous, so there is no gradient to check:\n{}",
                 skipped);
      return 1;
    }
    samplers::unconstrained_target target(g, block);
    Eigen::VectorXd y = target.position(), grad, ignored;
    const double lp = target.log_density(y, grad);
    fmt::print("{} coordinates (unconstrained), log density {:.10g} (terms involving them, with the Jacobian)\n",
               target.dimension(), lp);
    if (!skipped.empty()) fmt::print("held fixed:\n{}", skipped);
    // Finite differences, worst agreement first.
    struct row {
      long i;
      double reverse, finite, error;
    };
    std::vector<row> rows;
    for (long i = 0; i < y.size(); ++i) {
      const double h = opt.epsilon * std::max(1.0, std::fabs(y[i]));
      Eigen::VectorXd up = y, down = y;
      up[i] += h;
      down[i] -= h;
      const double fd = (target.log_density(up, ignored) - target.log_density(down, ignored)) / (2 * h);
      rows.push_back({i, grad[i], fd, std::fabs(grad[i] - fd) / std::max(1.0, std::fabs(fd))});
    }
    target.set(y);
    // A NaN error (a NaN gradient) is the worst of all; as a plain double it would compare
    // equal to everything, which is no ordering for std::sort.
    auto badness = [](const row& r) { return std::isnan(r.error) ? INFINITY : r.error; };
    std::sort(rows.begin(), rows.end(), [&](const row& a, const row& b) { return badness(a) > badness(b); });
    const double worst = rows.empty() ? 0 : rows.front().error;
    fmt::print("{:<24} {:>16} {:>16} {:>12}\n", "coordinate", "gradient", "finite diff.", "rel. error");
    for (std::size_t k = 0; k < rows.size() && k < static_cast<std::size_t>(opt.show); ++k)
      fmt::print("{:<24} {:>16.8g} {:>16.8g} {:>12.2e}\n", target.coordinate_label(rows[k].i), rows[k].reverse, rows[k].finite,
                 rows[k].error);
    fmt::print("largest relative error {:.2e} over {} coordinates (tolerance {:.0e})\n", worst, rows.size(), opt.error);
    if (opt.repeat > 0) {
      const auto start = std::chrono::steady_clock::now();
      for (long r = 0; r < opt.repeat; ++r) target.log_density(y, grad);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print("{} gradient evaluations in {:.3f} s: {:.1f} per second\n", opt.repeat, seconds,
                 static_cast<double>(opt.repeat) / seconds);
    }
    return worst <= opt.error ? 0 : 1;
  });
}

struct diagnose_arguments {
  model_inputs in;
  diagnose_options o;
};

}  // namespace

command add_diagnose_command(CLI::App& app) {
  auto a = std::make_shared<diagnose_arguments>();
  auto* cmd = app.add_subcommand(
      "diagnose", "check the gradient of the log density against finite differences at a prior draw, and time it");
  add_model_inputs(cmd, a->in);
  cmd->add_option("--seed", a->o.seed, "random seed of the prior draw")->capture_default_str()->check(seed());
  cmd->add_option("--epsilon", a->o.epsilon, "finite-difference step, relative to the coordinate")->capture_default_str()
      ->check(real(1e-12, 1.0));
  cmd->add_option("--error", a->o.error, "largest relative error accepted (exit status 1 beyond)")->capture_default_str()
      ->check(real(0, 1.0));
  cmd->add_option("--repeat", a->o.repeat, "time this many gradient evaluations")->capture_default_str()
      ->check(whole(0, 1000000000));
  cmd->add_option("--show", a->o.show, "coordinates listed, worst agreement first")->capture_default_str()
      ->check(whole(0, 1000000));
  return {cmd, [a] { return run_diagnose(a->in, a->o); }};
}

}  // namespace ppl::cli
