// `ppl infer --method smc`: adaptive tempered sequential Monte Carlo, the seed note's
// "importance sampling where the proposal changes over time from simple to posterior"
// (Del Moral, Doucet & Jasra 2006, "Sequential Monte Carlo samplers", JRSS B 68(3), with
// the likelihood tempered, Neal 2001's annealing path). Particles start as prior draws
// (beta = 0); each step raises beta so far that the incremental weights
// p(data | theta)^(beta' - beta) bring the ESS down to a set fraction of the particles (found
// by bisection: Jasra, Stephens, Doucet & Tsagaris 2011), multiplies the evidence estimate
// by the weights' mean, resamples systematically, and moves every particle by MCMC sweeps
// that leave prior x likelihood^beta invariant (model::graph::set_temperature) until
// beta = 1.
//
// The moves are MCMC's own samplers, each unknown getting the kind MCMC's plan gives it:
// gibbs by enumeration, slice and rwmh read the tempered density; nuts and hmc its
// gradient (model::graph::log_density_gradient); conjugate and gaussian_block updates
// count the likelihood's terms beta times in their statistics (the tempered conditional of
// an exponential family is its conditional with the data's sufficient statistics times
// beta); collapsed Gibbs with theta integrated out reads z's tempered blanket and then
// draws theta given z, which together leave the tempered joint invariant. LDA's collapsed
// sampler, which integrates out phi as well, has no tempered form: its unknowns move by
// gibbs for finite discrete ones, slice for other scalars, rwmh for blocks slice cannot
// take (simplexes, matrices). The kernels' widths (nuts' and hmc's step size) are
// tuned at each temperature by warmup steps on copies of the first 32 particles (the
// copies are then dropped), then fixed for the moves themselves, so each move is an exact
// invariant kernel. Each particle moves with a random stream of its own, so that the runs
// (--runs) may be spread over the threads or, when there are fewer runs than threads, each
// run's particles. The evidence's standard error comes from the independent runs: each run's estimate is unbiased, their mean is the
// estimate, and their spread its error; the runs' particles are pooled with weights
// proportional to each run's evidence.
#include <fmt/core.h>

#include <algorithm>
#include <boost/random/uniform_01.hpp>
#include <chrono>
#include <cmath>
#include <map>
#include <string_view>

#include "core/source_error.hpp"
#include "core/archive.hpp"
#include "core/interrupt.hpp"
#include "draws/psis.hpp"
#include "inference/particles.hpp"
#include "inference/summed_out.hpp"
#include "samplers/collapsed.hpp"
#include "samplers/factories.hpp"
#include "samplers/unconstrained.hpp"
#include "samplers/spins.hpp"

namespace ppl::inference {

namespace {

using particles::particle_graph;

constexpr std::uint32_t smc_purpose = 0x736d6372u;
constexpr std::uint32_t move_purpose = 0x736d636du;  // a particle's moves at one temperature
// Particles whose kernels are tuned at each temperature, on copies.
constexpr std::size_t tuning_particles = 32;
// Beyond this many temperatures the ladder is refused as a run that cannot finish.
constexpr std::size_t max_temperatures = 100000;

bool predicts(const model::graph& g, int v) {
  const auto& statements = g.model().variables[static_cast<std::size_t>(v)].statements;
  return std::any_of(statements.begin(), statements.end(), [&](int s) { return g.predictive(s); });
}

// The kernel of every unknown for the moves (see the top of the file).
// Kinds whose updates follow the graph's temperature: those that read its tempered
// density (and gradient), conjugate and gaussian_block, which count the likelihood's
// terms beta times in their statistics, and collapsed with theta alone integrated out,
// whose z reads its tempered Markov blanket (with phi integrated out as well, the
// likelihood is a marginal over phi, which no power of p(w | z, phi) gives).
bool follows_temperature(const model::graph& g, int v, std::string_view kind) {
  if (kind == "collapsed") {
    std::string ignored;
    const auto s = samplers::find_collapsed(g.model(), v, ignored);
    return s && s->phi < 0;
  }
  return kind == "gibbs" || kind == "slice" || kind == "rwmh" || kind == "nuts" || kind == "hmc" || kind == "conjugate" ||
         kind == "gaussian_block";
}

std::vector<samplers::assignment> move_assignments(model::graph& g) {
  const auto& m = g.model();
  std::map<std::string, std::string> mcmc;  // MCMC's plan: variable -> kind
  for (const auto& a : samplers::plan(g, {})) mcmc[m.variables[static_cast<std::size_t>(a.variable)].name] = std::string(a.chosen->kind());
  std::map<std::string, std::string> kinds;
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    const auto& var = m.variables[v];
    if (var.role != lang::ir::role::unknown || predicts(g, static_cast<int>(v))) continue;
    std::string reasons, ignored;
    if (samplers::spins::find_pairwise(g, static_cast<int>(v), ignored))
      ppl::fail_at(m.source, var.pos, "--method smc cannot move `" + var.name + "`: a +-1 model's heat-bath reads its couplings once, "
                                           "at one temperature (use --method mcmc)");
    if (const auto chosen = mcmc.find(var.name); chosen != mcmc.end() && follows_temperature(g, static_cast<int>(v), chosen->second)) {
      kinds[var.name] = chosen->second;
      continue;
    }
    for (const char* kind : {"gibbs", "slice", "rwmh"}) {
      const samplers::claim c = samplers::find_factory(kind)->can_sample(g, static_cast<int>(v));
      if (c.ok) {
        kinds[var.name] = kind;
        break;
      }
      reasons += fmt::format("; {}: {}", kind, c.reason);
    }
    if (!kinds.contains(var.name))
      ppl::fail_at(m.source, var.pos, "--method smc cannot move `" + var.name + "`: its moves use samplers that read the tempered "
                                           "density, and none of them can update it" + reasons);
  }
  std::vector<samplers::assignment> out = samplers::plan(g, kinds);
  sweep_order(m, out);
  return out;
}

// The discrete unknowns summed out of every graph's likelihood, where the moves would
// enumerate them (gibbs: not a collapsed sampler, which integrates its parameters out
// instead), they can be summed (inference/summed_out.hpp), and every continuous unknown
// can move by NUTS on what is left: p(z | theta) p(data | z, theta) summed over z is then
// one likelihood, tempered as a whole, and the path from the prior to the posterior does
// not pass through the labels. None otherwise (the joint is tempered then).
std::vector<std::unique_ptr<summed_out>> sum_out_discrete(std::vector<std::unique_ptr<particle_graph>>& graphs,
                                                          const std::vector<samplers::assignment>& moves, std::vector<int>& moving) {
  model::graph& g = graphs[0]->graph();
  std::vector<char> predicted(g.model().variables.size(), 0);
  for (std::size_t v = 0; v < predicted.size(); ++v) predicted[v] = predicts(g, static_cast<int>(v));
  const unknown_split split = split_unknowns(g, predicted);
  if (!split.rough.empty() || split.discrete.empty()) return {};  // a continuous unknown NUTS cannot move, or nothing to sum
  for (int v : split.discrete) {
    const auto move = std::find_if(moves.begin(), moves.end(), [&](const samplers::assignment& a) { return a.variable == v; });
    if (move == moves.end() || move->chosen->kind() != "gibbs") return {};
  }
  moving = split.smooth;
  const std::vector<int>& discrete = split.discrete;
  std::vector<std::unique_ptr<summed_out>> out;
  try {
    for (auto& pg : graphs) {
      out.push_back(std::make_unique<summed_out>(pg->graph(), discrete));
      pg->graph().take_terms(out.back().get());
    }
  } catch (const std::invalid_argument&) {
    for (auto& pg : graphs) pg->graph().take_terms(nullptr);
    out.clear();
  }
  return out;
}

// The moves with the discrete unknowns summed out: NUTS for the continuous ones on the
// tempered marginal; the predictions as MCMC's plan draws them.
std::vector<samplers::assignment> marginal_moves(model::graph& g, const std::vector<int>& moving, const summed_out& summed) {
  const auto& m = g.model();
  std::map<std::string, std::string> kinds;
  for (int v : moving) kinds[m.variables[static_cast<std::size_t>(v)].name] = "nuts";
  std::vector<samplers::assignment> out = samplers::plan(g, kinds);
  std::erase_if(out, [&](const samplers::assignment& a) { return summed.holds(a.variable); });
  sweep_order(m, out);
  return out;
}

// The next temperature: the largest beta' <= 1 at which the incremental weights'
// ESS is at least `fraction` of the particles with a likelihood above 0.
double next_temperature(const std::vector<double>& ll, double beta, double fraction) {
  const auto finite = static_cast<double>(std::count_if(ll.begin(), ll.end(), [](double x) { return std::isfinite(x); }));
  std::vector<double> lw(ll.size());
  auto ess = [&](double delta) {
    for (std::size_t i = 0; i < ll.size(); ++i) lw[i] = std::isfinite(ll[i]) ? delta * ll[i] : -INFINITY;
    return particles::effective_size(lw);
  };
  if (ess(1 - beta) >= fraction * finite) return 1;
  double lo = 0, hi = 1 - beta;
  for (int k = 0; k < 60; ++k) {
    const double mid = (lo + hi) / 2;
    (ess(mid) >= fraction * finite ? lo : hi) = mid;
  }
  return std::min(1.0, beta + (lo > 0 ? lo : hi));
}

struct run_output {
  std::vector<double> rows;
  double log_z = 0;
  std::vector<double> ladder;
  bool finished = false;
};

// Ctrl-C or SIGTERM: the run stops between temperatures, and its particles are dropped
// (at beta < 1 they are no posterior draws); the finished runs are kept.
struct run_interrupted {};

// Run k into outputs[k], which stays unfinished if the run is interrupted.
template <class Run>
void run_or_stop(std::vector<run_output>& outputs, std::size_t k, Run&& run) {
  try {
    outputs[k] = run();
    outputs[k].finished = true;
  } catch (const run_interrupted&) {
  }
}

class smc_run {
 public:
  // `graphs`: one per thread the run's moves are spread over.
  // `summed`: the first graph's discrete unknowns summed out of its likelihood, or null.
  smc_run(std::vector<particle_graph*> graphs, const std::vector<samplers::assignment>& moves, std::size_t index, const monte_carlo_options& o,
          summed_out* summed)
      : graphs_(std::move(graphs)), o_(o), index_(index), n_(static_cast<std::size_t>(o.particles)), d_(graphs_[0]->state_size()),
        rng_(particles::item_stream(o.seed, index, smc_purpose)), summed_(summed) {
    samplers::sampler_settings settings;
    settings.seed = o.seed;
    settings.chain = static_cast<int>(index);
    settings.particles = true;
    for (particle_graph* pg : graphs_) {
      auto& team = kernels_.emplace_back();
      for (auto& made : make_samplers(pg->graph(), moves)) team.push_back(std::move(made.made));
      for (auto& s : team) s->configure(settings);
    }
  }

  run_output run(std::size_t width) {
    particle_graph& first = *graphs_[0];
    temperature(0);
    states_.resize(n_ * d_);
    ll_.resize(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      first.graph().draw_prior(rng_);
      first.save(&states_[i * d_]);
      ll_[i] = likelihood(first);
    }
    run_output out;
    out.ladder.push_back(0);
    for (double beta = 0; beta < 1;) {
      if (ppl::interrupted()) throw run_interrupted{};
      if (std::none_of(ll_.begin(), ll_.end(), [](double x) { return std::isfinite(x); }))
        throw std::invalid_argument("--method smc: no particle gives the data a likelihood above 0 (the prior and the data disagree); "
                                    "raise --particles");
      const double next = next_temperature(ll_, beta, o_.ess_fraction);
      out.log_z += reweight_and_resample(next - beta);
      beta = next;
      out.ladder.push_back(beta);
      if (out.ladder.size() > max_temperatures)
        throw std::runtime_error(fmt::format("--method smc: more than {} temperatures and beta is only {:.3g}", max_temperatures, beta));
      temperature(beta);
      move(out.ladder.size() - 1);
      if (o_.progress) o_.progress(index_, beta);
    }
    temperature(1);
    std::vector<double> row;
    for (std::size_t i = 0; i < n_; ++i) {
      first.load(&states_[i * d_]);
      if (summed_) summed_->set(&rng_);  // the labels drawn given the particle
      first.row(true, 0, row);
      out.rows.insert(out.rows.end(), row.begin(), row.begin() + static_cast<std::ptrdiff_t>(width));
    }
    return out;
  }

 private:
  void temperature(double beta) {
    for (particle_graph* pg : graphs_) pg->graph().set_temperature(beta);
  }

  static double likelihood(particle_graph& pg) {
    const double ll = pg.graph().log_likelihood();
    return std::isnan(ll) ? -INFINITY : ll;
  }

  // Weights the particles by p(data | theta)^delta and resamples them; returns the log of
  // the weights' mean, this step's factor of the evidence.
  double reweight_and_resample(double delta) {
    std::vector<double> lw(n_);
    for (std::size_t i = 0; i < n_; ++i) lw[i] = std::isfinite(ll_[i]) ? delta * ll_[i] : -INFINITY;
    const double step = draws::log_sum_exp(lw) - std::log(static_cast<double>(n_));
    const auto picks = particles::systematic_resample(lw, n_, boost::random::uniform_01<double>()(rng_));
    std::vector<double> states(n_ * d_), ll(n_);
    for (std::size_t k = 0; k < n_; ++k) {
      std::copy_n(states_.begin() + static_cast<std::ptrdiff_t>(picks[k] * d_), d_, states.begin() + static_cast<std::ptrdiff_t>(k * d_));
      ll[k] = ll_[picks[k]];
    }
    states_.swap(states);
    ll_.swap(ll);
    return step;
  }

  void sweep(std::size_t team, ppl::rng& rng, bool tune) {
    for (auto& s : kernels_[team]) s->step(rng, tune);
    graphs_[team]->graph().update_derived();
  }

  // The kernels are tuned on copies of the first particles by the first thread's samplers,
  // whose state the other threads' then take (the archive a saved run keeps them in). Each
  // particle then moves with a stream of its own, so the draws do not depend on the thread
  // that moves it, nor on how many there are.
  void move(std::size_t step) {
    particle_graph& first = *graphs_[0];
    for (std::size_t i = 0; i < std::min(n_, tuning_particles); ++i) {
      first.load(&states_[i * d_]);
      sweep(0, rng_, true);
    }
    if (kernels_.size() > 1) {
      ppl::archive tuned;
      for (auto& s : kernels_[0]) s->persist(tuned);
      const std::string bytes = tuned.take();
      for (std::size_t t = 1; t < kernels_.size(); ++t) {
        ppl::archive copy(bytes);
        for (auto& s : kernels_[t]) s->persist(copy);
      }
    }
    particles::for_each_index(static_cast<int>(graphs_.size()), n_, [&](int t, std::size_t i) {
      particle_graph& pg = *graphs_[static_cast<std::size_t>(t)];
      ppl::rng rng = particles::quick_stream(o_.seed, (index_ * max_temperatures + step) * n_ + i, move_purpose);
      pg.load(&states_[i * d_]);
      for (int k = 0; k < o_.moves; ++k) sweep(static_cast<std::size_t>(t), rng, false);
      pg.save(&states_[i * d_]);
      ll_[i] = likelihood(pg);
    });
  }

  std::vector<particle_graph*> graphs_;
  const monte_carlo_options& o_;
  std::size_t index_, n_, d_;
  ppl::rng rng_;
  std::vector<std::vector<std::unique_ptr<samplers::sampler>>> kernels_;  // by thread
  std::vector<double> states_, ll_;
  summed_out* summed_ = nullptr;
};

// The tempered path through discrete unknowns (docs/methods.md, "Sequential Monte Carlo"):
// where they must organise with continuous ones as beta rises, the runs can agree with
// each other and all fall short of the evidence, which their spread cannot show.
void latent_note(const lang::ir::model& m, const std::vector<samplers::assignment>& moves, weighted_result& r) {
  std::string names;
  for (const auto& a : moves)
    if (m.variables[static_cast<std::size_t>(a.variable)].type.kind == stdlib::scalar_kind::integer && a.chosen->kind() != "ancestral")
      names += (names.empty() ? "`" : ", `") + m.variables[static_cast<std::size_t>(a.variable)].name + "`";
  if (names.empty()) return;
  r.notes.push_back("the likelihood is tempered through the discrete unknowns " + names +
                    ": where they must organise with continuous unknowns as the temperature rises (a mixture's labels with its "
                    "means and a shared scale), every run can fall short of the evidence together, and their spread does not "
                    "show it; summing them out (log_mix) gives a path that does not pass through them, to check the figure");
}

}  // namespace

weighted_result smc_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  auto graphs = particles::make_graphs(m, data, o);
  std::vector<int> moving;
  std::vector<samplers::assignment> moves = move_assignments(graphs[0]->graph());
  const std::vector<std::unique_ptr<summed_out>> summed = sum_out_discrete(graphs, moves, moving);
  if (!summed.empty()) moves = marginal_moves(graphs[0]->graph(), moving, *summed[0]);
  auto summed_of = [&](std::size_t t) { return summed.empty() ? nullptr : summed[t].get(); };
  weighted_result r;
  if (!summed.empty())
    r.report.push_back("summed out: " + summed[0]->names() + " (each element's prior and terms summed over its values, tempered as one "
                       "likelihood; the continuous unknowns move by nuts on it)");
  r.columns = graphs[0]->columns(true);
  for (const auto& a : moves) {
    // The kinds are the method's choice, not the user's: the plan's note of an override goes.
    std::string reason = a.reason;
    if (const auto at = reason.rfind(" (chosen with --sampler)"); at != std::string::npos) reason.erase(at);
    const auto& name = m.variables[static_cast<std::size_t>(a.variable)].name;
    r.moves.push_back({name, std::string(a.chosen->kind()), reason, name});
  }
  const std::size_t width = r.columns.size(), runs = static_cast<std::size_t>(o.runs);
  std::vector<run_output> outputs(runs);
  // With a run for every thread, the runs are spread over the threads; with fewer, each
  // run's particles are. A particle's moves use a stream of its own either way, so the
  // draws are the same.
  if (runs >= graphs.size()) {
    particles::for_each_index(o.threads, runs, [&](int t, std::size_t k) {
      run_or_stop(outputs, k, [&] { return smc_run({graphs[static_cast<std::size_t>(t)].get()}, moves, k, o, summed_of(static_cast<std::size_t>(t))).run(width); });
    });
  } else {
    std::vector<particle_graph*> all;
    for (auto& pg : graphs) all.push_back(pg.get());
    for (std::size_t k = 0; k < runs; ++k) run_or_stop(outputs, k, [&] { return smc_run(all, moves, k, o, summed_of(0)).run(width); });
  }
  const auto finished = static_cast<std::size_t>(std::count_if(outputs.begin(), outputs.end(), [](const run_output& out) { return out.finished; }));
  if (finished < runs) {
    r.interrupted = true;
    r.stopped = fmt::format("{} of {} runs finished", finished, runs);
    if (finished == 0) return r;
  }
  std::vector<double> log_weights;
  for (std::size_t k = 0; k < runs; ++k) {
    run_output& out = outputs[k];
    if (!out.finished) continue;
    r.run_numbers.push_back(k + 1);
    r.run_log_z.push_back(out.log_z);
    r.temperatures.push_back(out.ladder);
    r.rows.insert(r.rows.end(), out.rows.begin(), out.rows.end());
    log_weights.insert(log_weights.end(), static_cast<std::size_t>(o.particles), out.log_z);
  }
  r.evidence = particles::log_mean_exp(r.run_log_z);
  if (finished < 2) r.notes.push_back("one run gives no standard error for the evidence: --runs 2 or more does");
  else particles::runs_spread(r);
  latent_note(m, moves, r);
  particles::finish_rows(r, log_weights, width, o);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
