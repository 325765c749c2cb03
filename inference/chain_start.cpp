// A chain built: its graph, its samplers in the plan's sweep order, the derived variables
// it recomputes, and a start where the log density is finite.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include <fmt/core.h>

#include "core/source_error.hpp"
#include "inference/chain_internal.hpp"
#include "inference/pathfinder.hpp"
#include "model/build_progress.hpp"
#include "samplers/hamiltonian_metric.hpp"
#include "samplers/structure.hpp"

namespace ppl::inference {

namespace {

constexpr int max_initial_attempts = 100;
// Starts at typical values before the failing terms' unknowns start uniformly instead.
constexpr int typical_attempts = 10;
// A chain whose Hamiltonian step size has collapsed (sampler::stranded) is restarted, at
// most this many times, at a check every restart_check warmup iterations in the warmup's
// first half (restart_stranded).
constexpr int max_restarts = 3;
constexpr long restart_check = 25;

ppl::rng chain_rng(std::uint64_t seed, int c) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(c)};
  return ppl::rng(seq);
}

// No finite start: names the first term whose log density is not finite, and the
// instance and the reason where there is one.
[[noreturn]] void fail_at_start(model::graph& g, bool from_init) {
  const auto& m = g.model();
  const std::string tried = from_init ? "at the values given with --init"
                                      : "at every starting point tried (" + std::to_string(max_initial_attempts) + ")";
  for (const auto& s : m.statements) {
    if (s.which == lang::ir::statement::kind::assign) continue;
    if (auto term = model::failed_start(g).first_non_finite(s))
      ppl::fail_at(m.source, s.pos,
                    term->what + " " + tried + (term->reason.empty() ? "" : (from_init ? ", because " : ", at the last because ") + term->reason));
  }
  ppl::fail_at(m.source, 0, "the log density is not finite " + tried);
}

// The unknowns of the plan's blocks of the given kinds, less those --init gives.
std::vector<int> planned(const lang::ir::model& m, const std::vector<samplers::assignment>& plan, const model::start_options& start,
                         std::initializer_list<std::string_view> kinds) {
  std::vector<int> out;
  for (const auto& a : plan) {
    if (std::find(kinds.begin(), kinds.end(), a.chosen->kind()) == kinds.end()) continue;
    if (start.init && start.init->values().count(m.variables[static_cast<std::size_t>(a.variable)].name)) continue;
    if (std::find(out.begin(), out.end(), a.variable) == out.end()) out.push_back(a.variable);
  }
  return out;
}

// A new start for a chain that stranded: the best by log density of three candidates,
// each made whole from the chain's stream, the chain's stream going on from the chosen
// one's: Stan's (uniform(-2, 2) on the unconstrained scale for the unknowns of `started`),
// and the default with a tenth and with a hundredth of the radius (nearly JAGS's, the
// typical values themselves, still apart from chain to chain). A Weibull shape with an
// Exponential(0.01) prior starts at 100 by default, where every Weibull term is near -1e80,
// and inside e^(+-2) by Stan's; a coefficient with a Uniform(-1000, 1000) prior within +-460
// on the logit scale by default and Stan's, within +-5 by the last.
// Returns the chosen start's log density.
double choose_restart(model::graph& g, ppl::rng& rng, const model::start_options& given, const std::vector<int>& started) {
  auto variant = [&](int k) {
    model::start_options s = given;
    if (k == 0) {
      s.uniform.assign(g.model().variables.size(), 0);
      for (int v : started) s.uniform[static_cast<std::size_t>(v)] = 1;
    }
    s.radius = k == 1 ? given.radius / 10 : k == 2 ? given.radius / 100 : given.radius;
    return s;
  };
  int best = 0;
  double best_lp = -INFINITY;
  ppl::rng best_stream = rng;
  for (int k = 0; k < 3; ++k) {
    const ppl::rng before = rng;
    g.start(rng, variant(k));
    const double lp = g.log_density();
    if (k == 0 || lp > best_lp) best = k, best_lp = lp, best_stream = before;
  }
  rng = best_stream;
  g.start(rng, variant(best));
  return best_lp;
}

// Moves a finite start of those unknowns to a draw from Pathfinder's best approximation
// (inference/pathfinder.hpp): out of a vague prior's tails, where NUTS's step size
// adaptation collapses (a Weibull shape started at its Exponential(0.01) prior's mean of
// 100, a coefficient at +-460 inside Uniform(-1000, 1000)). A draw whose log density is
// not finite is drawn again, up to 10 times; then the approximation's mean is taken.
// The approximation goes to `start_metric`, by coordinate, for the Hamiltonian blocks'
// first metric. Returns the report's line, empty when nothing moved.
std::string move_along_path(model::graph& g, const std::vector<int>& variables, ppl::rng& rng,
                            std::shared_ptr<const samplers::path_metric>& start_metric) {
  samplers::unconstrained_target target(g, variables);
  if (target.dimension() == 0) return {};
  const Eigen::VectorXd from = target.position();
  const path_result path = find_path(target, rng);
  Eigen::VectorXd point, gradient(target.dimension());
  bool drawn = false;
  for (int k = 0; k < 10 && path.chosen > 0 && !drawn; ++k) {
    path.covariance.draw(rng, path.mean, point);
    drawn = std::isfinite(target.log_density(point, gradient));
  }
  const Eigen::VectorXd& at = drawn ? point : std::isfinite(target.log_density(path.mean, gradient)) ? path.mean : from;
  target.set(at);
  if (path.chosen > 0) {
    auto metric = std::make_shared<samplers::path_metric>();
    metric->variances = path.covariance.diagonal();
    const auto keys = target.coordinate_keys();
    for (std::size_t i = 0; i < keys.size(); ++i) metric->row[keys[i]] = static_cast<long>(i);
    const long d = target.dimension();
    if (d <= samplers::hamiltonian::metric_estimate::dense_limit) {
      metric->covariance.resize(d, d);
      for (long i = 0; i < d; ++i) metric->covariance.col(i) = path.covariance.times(Eigen::VectorXd::Unit(d, i));
      metric->covariance = 0.5 * (metric->covariance + metric->covariance.transpose()).eval();
    }
    start_metric = std::move(metric);
  }
  return fmt::format("Pathfinder's path of {} iterations ({} gradients; stopped: {}), {}", path.iterations, path.evaluations,
                     path.stopped,
                     path.chosen > 0 ? fmt::format("started from a draw of its approximation at iterate {} (ELBO {:.6g})", path.chosen, path.elbo)
                                     : std::string("no approximation had a finite ELBO: started at its last iterate"));
}

// The chain's samplers, made from its plan for the graph's current values (samplers keep
// state read from the graph: LDA's counts), and its trial. `data`: the table, for a
// held-out prediction made once (null once it is).
void make_chain_samplers(chain& c, const run_options& o, const data::data_table* data, int index) {
  const auto& m = c.graph->model();
  c.samplers.clear();
  c.sampled.clear();
  c.rewritten.assign(m.variables.size(), 0);
  std::vector<char> optional;
  std::vector<int> scales;
  std::string optional_names;
  for (auto& made : make_samplers(*c.graph, c.plan)) {
    if (made.made->values_rewritten())
      for (int v : made.variables) c.rewritten[static_cast<std::size_t>(v)] = 1;
    optional.push_back(made.optional);
    if (made.optional) {
      optional_names += (optional_names.empty() ? "" : "; ") + made.names;
      if (made.for_scale) scales.push_back(made.variables.front());  // a scale move's theta
    }
    c.samplers.push_back(std::move(made.made));
    c.sampled.push_back(made.names);
  }
  std::vector<int> unknowns;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown && !c.rewritten[v]) unknowns.push_back(static_cast<int>(v));
  const bool adapting = std::any_of(c.plan.begin(), c.plan.end(), [](const auto& a) { return a.chosen->kind() == "nuts" || a.chosen->kind() == "hmc"; });
  c.trial = plan_trial(std::move(optional), "the optional samplers (" + optional_names + ")", o.warmup, adapting, *c.graph, unknowns,
                       std::move(scales));
  for (auto& s : c.samplers) s->configure(c.settings);
  // --heldout that no sampler takes: the Normal observations' RMSE, made once, before a
  // saved state (which holds its running mean) is read.
  if (o.heldout && data && !c.prediction &&
      std::none_of(c.samplers.begin(), c.samplers.end(), [](const auto& s) { return s->scores_heldout(); })) {
    ppl::rng rng = samplers::side_stream(o.seed, index, 0, 0x70726564u);
    c.prediction = std::make_unique<heldout_prediction>(*c.graph, *data, *o.heldout, rng);
  }
}

}  // namespace

// `take`: the table `data` is, to move the arrays from (when there is one chain). Returns
// the iterations the chain has done: 0, or those of the saved state it resumes.
void start_where_finite(model::graph& g, ppl::rng& rng, const model::start_options& given, const std::function<double()>& remade) {
  const bool fixed = model::failed_start(g).covered_by_init();
  model::start_options start = given;
  for (int attempt = 1;; ++attempt) {
    if (std::isfinite(remade())) return;
    // Unknowns whose terms are not finite are repaired where the start stands before it is
    // given up (passes over the terms, made only for a start that failed): discrete ones
    // at every start, continuous ones at the first few and the last (whose failure the
    // error then names: a term no value of its own unknowns makes finite).
    if (model::failed_start(g).settle(rng, attempt <= typical_attempts || attempt == max_initial_attempts) && std::isfinite(remade()))
      return;
    if (fixed || attempt == max_initial_attempts) fail_at_start(g, fixed);
    if (attempt >= typical_attempts && !given.from_prior) model::failed_start(g).mark_non_finite_inputs(start.uniform);
    g.start(rng, start);
  }
}

long build_chain(chain& c, const lang::ir::model& m, const data::data_table& data, data::data_table* take,
                 const run_options& o, int index) {
  c.rng = chain_rng(o.seed, index);
  const model::graph_options options{.start = o.start};
  // The data move into a lone chain's graph: --heldout's graph reads the rest of them,
  // kept apart first.
  std::optional<data::data_table> kept;
  if (take && o.heldout) kept = heldout_base(*take, *o.heldout);
  const data::data_table& given = kept ? *kept : data;
  const bool reporting = index == 0;  // one line shows the first chain's build (model/build_progress.hpp)
  {
    const model::build_phase phase("the graph", reporting);
    c.graph = take ? std::make_unique<model::graph>(m, std::move(*take), c.rng, options)
                   : std::make_unique<model::graph>(m, data, c.rng, options);
  }
  const std::string* saved = o.resume && !(*o.resume)[static_cast<std::size_t>(index)].empty()
                                 ? &(*o.resume)[static_cast<std::size_t>(index)] : nullptr;
  ppl::archive state(saved ? *saved : std::string());
  const long completed = saved ? load_chain_values(c, state) : 0;
  const model::build_phase planning("the plan", reporting);
  auto assignments = samplers::plan(*c.graph, o.overrides);
  sweep_order(m, assignments);
  c.monitored = monitored_variables(m, *c.graph, o.monitors);
  // Derived variables: those a density reads are recomputed every iteration (samplers keep
  // them current themselves, but whole-model evaluations read them); those only recorded
  // (and what they read) only at the iterations that are kept. An observable such as a
  // site-energy array then costs nothing during warmup or between thinned draws.
  const std::vector<char>& density = samplers::feeding_density(*c.graph);
  std::vector<char> recorded(m.variables.size(), 0);
  for (int v : c.monitored) recorded[static_cast<std::size_t>(v)] = 1;
  for (const auto& p : m.prints) recorded[static_cast<std::size_t>(p.variable)] = 1;  // computed at kept draws, to print
  c.derived_every = samplers::with_inputs(m, density);
  c.derived_kept = samplers::with_inputs(m, recorded);
  c.plan = std::move(assignments);
  c.settings = samplers::sampler_settings{};
  c.settings.threads = o.threads;
  c.settings.heldout = o.heldout;
  c.settings.warmup = o.warmup;
  c.settings.metric = o.metric;
  c.settings.target_accept = o.target_accept;
  c.settings.max_depth = o.max_depth;
  c.settings.collapsed = o.collapsed;
  c.settings.seed = o.seed;
  c.settings.chain = index;
  c.settings.recorded = c.derived_kept;  // the monitored variables and what recorded derived ones read
  // The chain must start where the log density is finite (every sampler compares against
  // it): a start where it is not is chosen again, up to 100 times, unless --init gives
  // every unknown. After the first few, the unknowns that the failing terms read start as
  // Stan starts them, uniform(-2, 2) on the unconstrained scale, in place of their typical
  // values (model/graph_start.cpp). Samplers are made again for each start.
  const bool fixed = model::failed_start(*c.graph).covered_by_init();
  if (saved) {
    make_chain_samplers(c, o, &given, index);
    load_chain_samplers(c, state);
  } else {
    start_where_finite(*c.graph, c.rng, o.start, [&] {
      {
        const model::build_phase phase("the samplers", reporting);
        make_chain_samplers(c, o, &given, index);
      }
      const model::build_phase phase("the start's log density", reporting);
      return log_joint(c);
    });
  }
  if (saved || fixed || !o.start_path || o.start.from_prior) return completed;
  const std::vector<int> moving = planned(m, c.plan, o.start, {"nuts", "hmc"});
  if (moving.empty()) return completed;
  c.start_report = move_along_path(*c.graph, moving, c.rng, c.settings.start_metric);
  c.graph->update_derived(c.derived_every);
  make_chain_samplers(c, o, &given, index);
  return completed;
}

bool restart_stranded(chain& c, const run_options& o, int index, long it) {
  if (c.restarts >= max_restarts || it > o.warmup / 2 || it % restart_check != 0) return false;
  const auto stranded = std::find_if(c.samplers.begin(), c.samplers.end(), [](const auto& s) { return s->stranded(); });
  if (stranded == c.samplers.end()) return false;
  const std::string who = c.sampled[static_cast<std::size_t>(stranded - c.samplers.begin())];
  const std::vector<int> started = planned(c.graph->model(), c.plan, o.start, {"nuts", "hmc", "slice", "rwmh"});
  const double lp = log_joint(c);
  ++c.restarts;
  const std::string before = save_chain(c, it);
  if (!std::isfinite(choose_restart(*c.graph, c.rng, o.start, started))) {
    // No candidate is finite: the chain goes on where it was, its stream untouched.
    ppl::archive state(before);
    load_chain_values(c, state);
    load_chain_samplers(c, state);
    return false;
  }
  c.graph->update_derived(c.derived_every);
  c.settings.warmup = o.warmup - it;  // the new samplers adapt over what is left of the warmup
  c.settings.start_metric.reset();  // from a start not in the bulk
  make_chain_samplers(c, o, nullptr, index);
  c.lp = NAN;
  c.start_report += fmt::format("{}restarted at warmup iteration {} ({}: its step size had collapsed, at lp__ {:.6g}), from a start "
                                "of lp__ {:.6g}",
                                c.start_report.empty() ? "" : "; ", it, who, lp, log_joint(c));
  return true;
}

}  // namespace ppl::inference
