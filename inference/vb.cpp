// `ppl infer --method vb`: variational Bayes where the planner sees the structure of
// conjugate-exponential families whose coordinate-ascent updates it has: LDA's z, theta
// and phi, the collapsed Gibbs sampler's structure (samplers/lda_vb.hpp), or else every
// unknown's conjugate pair (inference/cavi.hpp). For LDA, --passes
// passes over the documents, in batches of --batch-size (online VB) or all at once (batch
// VB), the held-out perplexity after each pass (--heldout), and --draws rows of the
// monitored theta, phi and z drawn from q (or, --means, one row of q's means). No lp__ is
// written: the log joint of a corpus at a draw of q says nothing of q's fit, which the
// held-out perplexity measures.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "core/interrupt.hpp"
#include "inference/cavi.hpp"
#include "inference/chain.hpp"
#include "inference/chain_internal.hpp"
#include "inference/mode.hpp"
#include "inference/particles.hpp"
#include "samplers/collapsed.hpp"
#include "samplers/lda_vb.hpp"

namespace ppl::inference {

namespace {

constexpr std::uint32_t vb_purpose = 0x76626c64u;

// The model's LDA structure, when it has one and no unknowns besides z, theta and phi.
std::optional<samplers::lda_model> lda_of(model::graph& g, std::string& reason) {
  const auto& m = g.model();
  auto lda = samplers::find_lda(g, reason);
  if (!lda) return std::nullopt;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown && static_cast<int>(v) != lda->s.z && static_cast<int>(v) != lda->s.theta &&
        static_cast<int>(v) != lda->s.phi)
      throw std::invalid_argument("--method vb updates LDA's z, theta and phi, and `" + m.variables[v].name +
                                  "` is another unknown, which it has no update for (use --method mcmc)");
  return lda;
}

// The engine: one start, or (--starts) the best by ELBO of several, each run all the
// passes (after a few passes the ELBO does not yet tell apart the starts that will end in a
// poor local optimum), with the report's line.
std::unique_ptr<samplers::lda::vb_engine> make_engine(samplers::lda::corpus corpus, const monte_carlo_options& o, ppl::rng& rng,
                                                      weighted_result& r) {
  samplers::lda::vb_options vo;
  vo.batch_size = o.batch_size;
  vo.offset = o.offset;
  vo.decay = o.decay;
  vo.threads = o.threads;
  if (o.starts == 1) return std::make_unique<samplers::lda::vb_engine>(std::move(corpus), vo, rng);
  std::vector<double> elbos;
  auto chosen = samplers::lda::best_start(corpus, vo, rng, o.starts, o.passes, elbos);
  const auto best = std::max_element(elbos.begin(), elbos.end()) - elbos.begin();
  std::string list;
  for (double e : elbos) list += (list.empty() ? "" : ", ") + fmt::format("{:.1f}", e);
  r.report.push_back(fmt::format("starts: {}, each {} passes; ELBO of each: {}; start {} kept", o.starts, o.passes, list, best + 1));
  return chosen;
}

// --draws rows of the monitored theta, phi and z drawn from q, or (--means) one row of
// q's means.
void write_rows(model::graph& g, const samplers::collapsed_structure& s, const samplers::lda::vb_engine& engine,
                const std::vector<int>& monitored, const monte_carlo_options& o, weighted_result& r) {
  auto& values = g.values();
  std::vector<double> row;
  const long rows = o.means ? 1 : o.particles;
  for (long i = 0; i < rows && !ppl::interrupted(); ++i) {
    ppl::rng stream = particles::item_stream(o.seed, static_cast<std::size_t>(i) + 1, vb_purpose);
    row.clear();
    for (int v : monitored) {
      double* out = values[static_cast<std::size_t>(v)].data.data();
      if (v == s.theta) o.means ? engine.theta_means(out) : engine.theta_draws(out, stream);
      else if (v == s.phi) o.means ? engine.phi_means(out) : engine.phi_draws(out, stream);
      else if (v == s.z) engine.z_draws(out, stream);
    }
    g.update_derived();
    for (int v : monitored) g.append_recorded(v, row);
    r.rows.insert(r.rows.end(), row.begin(), row.end());
    ++r.row_count;
  }
  r.report.push_back(o.means ? std::string("draws: one row of q's means of theta and phi (z: a draw)")
                             : fmt::format("draws: approximate, {} from q (theta, phi and z independent Dirichlets and categoricals)",
                                           r.row_count));
}

// Sweeps until no factor's mean moves by 1e-9 of its sd (at most --iterations), the ELBO
// after each; returns the last ELBO, the sweeps in `sweeps` and the last change in `change`.
double run_sweeps(cavi& engine, const monte_carlo_options& o, weighted_result& r, int& sweeps, double& change) {
  double elbo = engine.elbo();
  const int limit = iteration_limit(o, 1000);
  std::vector<std::pair<int, double>> trace = {{0, elbo}};
  sweeps = 0;
  change = INFINITY;
  int falls = 0, worst_sweep = 0;
  double worst = 0;
  while (sweeps < limit && change > 1e-9 && !ppl::interrupted()) {
    change = engine.sweep();
    const double next = engine.elbo();
    ++sweeps;
    if (sweeps > 1 && next < elbo - 1e-9 * std::abs(elbo)) {  // coordinate ascent cannot go down
      ++falls;
      if (elbo - next > worst) worst = elbo - next, worst_sweep = sweeps;
    }
    elbo = next;
    trace.emplace_back(sweeps, elbo);
  }
  if (falls > 0)
    r.warnings.push_back(fmt::format("the ELBO fell at {} sweep{} (by {:.3g} at most, at sweep {}): {}some term is not of the "
                                     "conjugate-exponential form the updates assume, and q is not to be trusted",
                                     falls, falls == 1 ? "" : "s", worst, worst_sweep,
                                     engine.has_grid() ? "a factor on a grid was placed again (the ELBO is computed to the grid's "
                                                         "resolution, 64 points), or " : ""));
  r.report.push_back(fmt::format("sweeps: {}, design rows at most {}", sweeps, engine.widest_design()));
  r.report.push_back(change <= 1e-9 ? std::string("stopped: no factor's mean moved by 1e-9 of its sd")
                                    : fmt::format("stopped: {}", ppl::interrupted() ? "interrupted" : fmt::format("the sweep limit ({})", limit)));
  for (const auto& [k, e] : trace) r.report.push_back(fmt::format("elbo: {} {:.6f}", k, e));
  if (change > 1e-9 && !ppl::interrupted())
    r.warnings.push_back(fmt::format("coordinate ascent did not converge in {} sweeps (a factor's mean still moved by {:.3g} of its sd): "
                                     "raise --iterations", sweeps, change));
  return elbo;
}

// The report's lines on q: each factor's family, then each variable's arguments.
void report_factors(const lang::ir::model& m, const cavi& engine, weighted_result& r) {
  std::string factors;
  for (const auto& variables : engine.blocks()) {
    std::string names;
    for (int v : variables) names += (names.empty() ? "" : ", ") + m.variables[static_cast<std::size_t>(v)].name;
    factors += (factors.empty() ? "" : ", ") + (variables.size() > 1 ? "(" + names + ")" : names) + " MultiNormal";
  }
  for (int v : engine.unknowns())
    if (!engine.joint(v)) factors += (factors.empty() ? "" : ", ") + m.variables[static_cast<std::size_t>(v)].name + " " + engine.family(v);
  r.report.push_back("q: " + factors + " (a factor for each element; a MultiNormal one for all the elements it names)");
  for (int v : engine.unknowns()) r.report.push_back("q_" + engine.describe(v, 10));  // the first ten of each variable
}

// Coordinate ascent over the conjugate pairs (inference/cavi.hpp), from chain 1's start,
// then --draws draws of q, each with log p and log q on the constrained scale (their ratio
// is the same on any scale), judged by their ratios as every approximation's draws are.
weighted_result cavi_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  if (o.means) throw std::invalid_argument("--means is LDA's; for a conjugate model the report's q_ lines give each factor's arguments");
  particles::particle_graph pg(m, data, o.monitors);
  model::graph& g = pg.graph();
  // --starts R: R starts (the first chain 1's, as the mode's search starts), the one with the
  // highest ELBO kept.
  std::unique_ptr<cavi> engine;
  weighted_result r;
  int sweeps = 0;
  double elbo = -INFINITY;
  std::string elbos;
  int kept = 1;
  for (int k = 0; k < o.starts && !ppl::interrupted(); ++k) {
    ppl::rng start_rng = particles::item_stream(o.seed, static_cast<std::size_t>(k), 0x6d6f6465u);
    g.start(start_rng, o.start);
    start_where_finite(g, start_rng, o.start, [&g] {
      g.update_derived();
      return g.log_density();
    });
    auto next = std::make_unique<cavi>(g);
    weighted_result trial;
    int trial_sweeps = 0;
    double trial_change = INFINITY;
    const double trial_elbo = run_sweeps(*next, o, trial, trial_sweeps, trial_change);
    elbos += fmt::format("{}{:.3f}", elbos.empty() ? "" : ", ", trial_elbo);
    if (engine && !(trial_elbo > elbo)) continue;
    engine = std::move(next), r = std::move(trial), sweeps = trial_sweeps, elbo = trial_elbo, kept = k + 1;
  }
  if (o.starts > 1) r.report.insert(r.report.begin(), fmt::format("starts: {}; ELBO of each: {}; start {} kept", o.starts, elbos, kept));
  if (o.starts == 1 && engine && engine->has_discrete())
    r.notes.push_back("coordinate ascent over discrete unknowns (a mixture's indicators) ends in a local optimum that depends on the start; "
                      "--starts R runs R starts and keeps the one with the highest ELBO");
  report_factors(m, *engine, r);
  r.columns = {"lp__", "log_p__", "log_g__"};
  for (auto& c : pg.columns(false))
    if (c != "lp__") r.columns.push_back(std::move(c));
  if (ppl::interrupted()) {
    r.interrupted = true;
    r.stopped = fmt::format("coordinate ascent after {} sweeps", sweeps);
    return r;
  }
  ppl::rng rng = particles::item_stream(o.seed, 0, vb_purpose);
  std::vector<double> log_ratios, row;
  for (long i = 0; i < o.particles && !ppl::interrupted(); ++i) {
    const double log_q = engine->draw(rng);
    for (int v : engine->predicted()) g.draw_variable(v, rng);
    g.update_derived();
    const double log_p = g.log_density();
    pg.row(false, 0, row);
    row.insert(row.begin() + 1, {log_p, log_q});
    r.rows.insert(r.rows.end(), row.begin(), row.end());
    log_ratios.push_back(std::isfinite(log_p) ? log_p - log_q : -INFINITY);
  }
  r.row_count = log_ratios.size();
  r.report.push_back("draws: approximate, from the mean-field q of coordinate ascent, its factors independent; log_p__ and log_g__ are "
                     "log p and log q on the constrained scale");
  r.evidence = judge_ratios(r, log_ratios, "the mean-field q");
  r.report.push_back(fmt::format("elbo_final: {:.6f} (a lower bound on the log evidence)", elbo));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

weighted_result vb_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  ppl::rng rng = particles::item_stream(o.seed, 0, vb_purpose);
  model::graph g(m, data, rng);
  std::string reason;
  auto found = lda_of(g, reason);
  if (!found) {
    try {
      cavi check(g);  // its refusal, before chain 1's start is made
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(e.what()) + "; nor is it LDA, whose updates are known: there is " + reason);
    }
    return cavi_sample(m, data, o);
  }
  if (o.start.init) throw std::invalid_argument("--init: LDA's --method vb begins from a random start of its own (--seed)");
  samplers::lda_model lda = std::move(*found);
  weighted_result r;
  const auto chosen = make_engine(std::move(lda.corpus), o, rng, r);
  samplers::lda::vb_engine& engine = *chosen;
  samplers::lda::held_out heldout;
  if (o.heldout) heldout = samplers::lda_heldout(g, lda.s, engine.data().words, *o.heldout);
  // --starts ran every pass already.
  int passes = o.starts > 1 ? o.passes : 0;
  if (passes > 0 && o.heldout)
    r.report.push_back(fmt::format("the start kept, after {} passes: held-out perplexity {:.4f}", passes, engine.complete(heldout).perplexity()));
  // The passes' own time, the held-out scoring's left out (it is the same work for every
  // method bench/lda_vb.py compares, and not training).
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  while (passes < o.passes && !ppl::interrupted()) {
    const auto before = std::chrono::steady_clock::now();
    engine.pass();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
    ++passes;
    const double perplexity = o.heldout ? engine.complete(heldout).perplexity() : NAN;
    r.report.push_back(o.heldout ? fmt::format("pass {}: {} updates, {:.3f} s, held-out perplexity {:.4f}", passes, engine.updates(), seconds, perplexity)
                                 : fmt::format("pass {}: {} updates, {:.3f} s", passes, engine.updates(), seconds));
    if (o.pass_done) o.pass_done(passes, perplexity);
  }
  if (passes < o.passes) {
    r.interrupted = true;
    r.stopped = fmt::format("{} of {} passes", passes, o.passes);
    if (passes == 0) return r;
  }
  const std::vector<int> monitored = monitored_variables(m, g, o.monitors);
  r.columns = recorded_columns(g, monitored);
  if (r.columns.empty())
    r.notes.push_back("nothing is recorded: theta, phi and z are each larger than the 1000 scalars recorded by default (--monitor phi "
                      "writes phi; with --means, q's means in one row)");
  else
    write_rows(g, lda.s, engine, monitored, o, r);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
