// `ppl infer --method importance`: self-normalised importance sampling with the prior as
// the proposal (the seed note's importance sampling; Robert & Casella 2004, §3.3). Draw
// theta_i from the prior; its weight is the likelihood p(data | theta_i); the mean weight
// estimates the evidence p(data) without bias. The weights' ESS says how many draws the
// estimate is worth, and the Pareto k-hat of their tail (Vehtari, Simpson, Gelman, Yao &
// Gabry 2024, runtime/psis.hpp) whether it can be trusted at all: above 0.7 the variance
// of the weights is in effect infinite, whatever the ESS looks like.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "runtime/psis.hpp"
#include "samplers/particles.hpp"

namespace ppl::samplers {

namespace {

// The tail shape of the weights: PSIS's fit to the largest ratios (draws with zero
// likelihood are no part of a tail and are left out).
double weights_pareto_k(const std::vector<double>& log_weights) {
  std::vector<double> finite;
  for (double lw : log_weights)
    if (std::isfinite(lw)) finite.push_back(lw);
  if (finite.size() < 5) return NAN;
  return runtime::psis_smooth(finite, 1.0).pareto_k;
}

}  // namespace

weighted_result importance_sample(const lang::ir::model& m, const runtime::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  auto graphs = particles::make_graphs(m, data, o);
  weighted_result r;
  r.columns = graphs[0]->columns(true);
  const std::size_t width = r.columns.size(), n = static_cast<std::size_t>(o.particles);
  r.rows.assign(n * width, 0.0);
  std::vector<double> log_weights(n);
  std::vector<char> not_a_number(n, 0);
  particles::for_each_index(o.threads, n, [&](int t, std::size_t i) {
    auto& pg = *graphs[static_cast<std::size_t>(t)];
    runtime::rng rng = particles::item_stream(o.seed, i, 0x696d7073u);
    pg.graph().draw_prior(rng);
    const double ll = pg.graph().log_likelihood();
    not_a_number[i] = std::isnan(ll);
    log_weights[i] = std::isnan(ll) ? -INFINITY : ll;
    std::vector<double> row;
    pg.row(true, 0, row);
    std::copy(row.begin(), row.end(), r.rows.begin() + static_cast<std::ptrdiff_t>(i * width));
  });
  const auto nan_count = std::count(not_a_number.begin(), not_a_number.end(), 1);
  if (nan_count > 0)
    r.warnings.push_back(fmt::format("the likelihood was NaN at {} of the {} prior draws, which are given weight 0", nan_count, n));
  r.evidence = particles::log_mean_exp(log_weights);
  if (!std::isfinite(r.evidence.log_z))
    throw std::invalid_argument(fmt::format("importance sampling: none of the {} prior draws gives the data a likelihood above 0, so "
                                            "there are no weights to normalise; the prior and the data disagree (use --method smc, "
                                            "which moves the draws towards the data, or mcmc)",
                                            n));
  r.pareto_k = weights_pareto_k(log_weights);
  if (r.pareto_k > 0.7)
    r.warnings.push_back(fmt::format("the importance weights' Pareto k-hat is {:.2f}, above 0.7: their tail is so heavy that the "
                                     "estimates (the evidence too) may be far off whatever their standard errors say; the prior is "
                                     "too wide a proposal for this posterior (use --method smc)",
                                     r.pareto_k));
  particles::finish_rows(r, log_weights, width, o);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::samplers
