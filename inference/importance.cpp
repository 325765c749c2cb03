// `ppl infer --method importance`: self-normalised importance sampling (the seed note's
// importance sampling; Robert & Casella 2004, §3.3). Draw theta_i from the prior, whose
// weight is then the likelihood p(data | theta_i), or from a proposal q given as a model of
// the unknowns alone (--proposal), weight p(theta_i, data) / q(theta_i); the mean weight
// estimates the evidence p(data) without bias, as long as q is positive wherever the
// posterior is. The weights' ESS says how many draws the
// estimate is worth, and the Pareto k-hat of their tail (Vehtari, Simpson, Gelman, Yao &
// Gabry 2024, draws/psis.hpp) whether it can be trusted at all: above 0.7 the variance
// of the weights is in effect infinite, whatever the ESS looks like.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/source_error.hpp"
#include "core/interrupt.hpp"
#include "draws/psis.hpp"
#include "inference/particles.hpp"

namespace ppl::inference {

namespace {

// The tail shape of the weights: PSIS's fit to the largest ratios (draws with zero
// likelihood are no part of a tail and are left out).
double weights_pareto_k(const std::vector<double>& log_weights) {
  std::vector<double> finite;
  for (double lw : log_weights)
    if (std::isfinite(lw)) finite.push_back(lw);
  if (finite.size() < 5) return NAN;
  return draws::psis_smooth(finite, 1.0).pareto_k;
}

// The proposal's unknowns, matched by name to the model's: (proposal's, model's). Each of
// the model's unknowns must be one of the proposal's, of the same shape, and the proposal
// may have no other unknowns (q would be a marginal) and observe nothing (a distribution of
// the unknowns alone).
std::string shape_text(const ppl::shape& s) {
  if (s.rank == 0) return "a scalar";
  std::string out = "of shape [";
  for (int d = 0; d < s.rank; ++d) out += (d ? ", " : "") + std::to_string(s[d]);
  return out + "]";
}

std::vector<std::pair<int, int>> match_proposal(const model::graph& model, const model::graph& proposal) {
  const auto& pm = model.model();
  const auto& qm = proposal.model();
  for (std::size_t s = 0; s < qm.statements.size(); ++s)
    if (proposal.likelihood(static_cast<int>(s)))
      throw std::invalid_argument(fmt::format("--proposal: {}:{}: this statement observes data or adds a factor; a proposal is a "
                                              "distribution of the model's unknowns alone",
                                              qm.source.name, ppl::locate(qm.source.text, qm.statements[s].pos).line));
  std::vector<std::pair<int, int>> out;
  for (std::size_t v = 0; v < pm.variables.size(); ++v) {
    const auto& var = pm.variables[v];
    if (var.role != lang::ir::role::unknown) continue;
    const int q = qm.find(var.name);
    if (q < 0 || qm.variables[static_cast<std::size_t>(q)].role != lang::ir::role::unknown)
      throw std::invalid_argument("--proposal: the proposal does not draw `" + var.name +
                                  "`, an unknown of the model; it must draw every one of them with `~`");
    const auto& a = model.value(static_cast<int>(v)).shape;
    const auto& b = proposal.value(q).shape;
    if (!(a == b))
      throw std::invalid_argument("--proposal: `" + var.name + "` is " + shape_text(a) + " in the model but " +
                                  shape_text(b) + " in the proposal");
    out.emplace_back(q, static_cast<int>(v));
  }
  for (const auto& var : qm.variables)
    if (var.role == lang::ir::role::unknown && pm.find(var.name) < 0)
      throw std::invalid_argument("--proposal: `" + var.name + "` is an unknown of the proposal but not of the model; q(unknowns) "
                                  "would be a marginal over it, which ppl cannot evaluate");
  return out;
}

// One draw from the proposal into the model's graph; returns log q of it.
double propose(model::graph& q, model::graph& target, const std::vector<std::pair<int, int>>& pairs, ppl::rng& rng) {
  q.draw_prior(rng);
  for (const auto& [from, to] : pairs) target.values()[static_cast<std::size_t>(to)].data = q.value(from).data;
  target.update_derived();
  return q.log_density();
}

}  // namespace

weighted_result importance_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  auto graphs = particles::make_graphs(m, data, o);
  weighted_result r;
  r.columns = graphs[0]->columns(true);
  const std::size_t width = r.columns.size(), n = static_cast<std::size_t>(o.particles);
  r.rows.assign(n * width, 0.0);
  std::vector<double> log_weights(n);
  std::vector<char> not_a_number(n, 0);
  std::vector<std::unique_ptr<particles::particle_graph>> proposals;
  std::vector<std::pair<int, int>> pairs;
  if (o.proposal) {
    // --monitor names the model's variables, not the proposal's: its graphs record nothing asked.
    monte_carlo_options own = o;
    own.monitors.clear();
    proposals = particles::make_graphs(*o.proposal, *o.proposal_data, own);
    pairs = match_proposal(graphs[0]->graph(), proposals[0]->graph());
  }
  const char* const drawn = o.proposal ? "proposal's draws" : "prior draws";
  std::vector<char> made(n, 0);
  particles::for_each_index(o.threads, n, [&](int t, std::size_t i) {
    if (ppl::interrupted()) return;
    auto& pg = *graphs[static_cast<std::size_t>(t)];
    ppl::rng rng = particles::item_stream(o.seed, i, 0x696d7073u);
    double ll = 0;
    if (o.proposal) {
      const double lq = propose(proposals[static_cast<std::size_t>(t)]->graph(), pg.graph(), pairs, rng);
      ll = pg.graph().log_density() - lq;
    } else {
      pg.graph().draw_prior(rng);
      ll = pg.graph().log_likelihood();
    }
    not_a_number[i] = std::isnan(ll);
    log_weights[i] = std::isnan(ll) ? -INFINITY : ll;
    std::vector<double> row;
    pg.row(true, 0, row);
    std::copy(row.begin(), row.end(), r.rows.begin() + static_cast<std::ptrdiff_t>(i * width));
    made[i] = 1;
  });
  // Ctrl-C or SIGTERM: the draws made are an importance sample of their own (which were
  // made depends on the threads' timing, not on the draws).
  if (const auto count = static_cast<std::size_t>(std::count(made.begin(), made.end(), 1)); count < n) {
    r.interrupted = true;
    r.stopped = fmt::format("{} of {} draws made", count, n);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!made[i]) continue;
      std::copy_n(r.rows.begin() + static_cast<std::ptrdiff_t>(i * width), width, r.rows.begin() + static_cast<std::ptrdiff_t>(kept * width));
      log_weights[kept] = log_weights[i];
      not_a_number[kept++] = not_a_number[i];
    }
    r.rows.resize(kept * width);
    log_weights.resize(kept);
    not_a_number.resize(kept);
    if (kept == 0) return r;
  }
  const auto nan_count = std::count(not_a_number.begin(), not_a_number.end(), 1);
  if (nan_count > 0)
    r.warnings.push_back(fmt::format("the weight was NaN at {} of the {} {}, which are given weight 0", nan_count, log_weights.size(), drawn));
  r.evidence = particles::log_mean_exp(log_weights);
  if (!std::isfinite(r.evidence.log_z))
    throw std::invalid_argument(fmt::format("importance sampling: none of the {} {} has a weight above 0, so there are no weights "
                                            "to normalise; the {} and the data disagree (use --method smc, which moves the draws "
                                            "towards the data, or mcmc)",
                                            log_weights.size(), drawn, o.proposal ? "proposal" : "prior"));
  r.pareto_k = weights_pareto_k(log_weights);
  // Past k = 0.7 the weights' variance is dominated by draws not yet seen, and the delta
  // method's standard error stays near sd / mean of what was seen (1 when one weight
  // holds everything): it cannot grow with the error, so none is given.
  if (r.pareto_k > 0.7) {
    r.evidence.se = NAN;
    r.unreliable = true;
  }
  if (r.pareto_k > 0.7)
    r.warnings.push_back(fmt::format("the importance weights' Pareto k-hat is {:.2f}, above 0.7: their tail is so heavy that the "
                                     "estimates (the evidence too) may be far off, by more than any standard error computed from "
                                     "these draws could show, so none is given; the {} is too poor a proposal for this posterior "
                                     "(use --method smc)",
                                     r.pareto_k, o.proposal ? "proposal" : "prior"));
  particles::finish_rows(r, log_weights, width, o);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
