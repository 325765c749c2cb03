// `ppl infer --method vb`: variational Bayes where the planner sees the structure of
// conjugate-exponential families whose coordinate-ascent updates it has (samplers/
// lda_vb.hpp): LDA's z, theta and phi, the collapsed Gibbs sampler's structure. --passes
// passes over the documents, in batches of --batch-size (online VB) or all at once (batch
// VB), the held-out perplexity after each pass (--heldout), and --draws rows of the
// monitored theta, phi and z drawn from q (or, --means, one row of q's means). No lp__ is
// written: the log joint of a corpus at a draw of q says nothing of q's fit, which the
// held-out perplexity measures.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/interrupt.hpp"
#include "inference/chain.hpp"
#include "inference/particles.hpp"
#include "samplers/collapsed.hpp"
#include "samplers/lda_vb.hpp"

namespace ppl::inference {

namespace {

constexpr std::uint32_t vb_purpose = 0x76626c64u;

// The model's LDA structure; refused with a message when it has none, or has unknowns
// besides z, theta and phi.
samplers::lda_model lda_of(model::graph& g) {
  const auto& m = g.model();
  std::string reason;
  auto lda = samplers::find_lda(g, reason);
  if (!lda)
    throw std::invalid_argument("--method vb takes models with LDA's structure (documents' topic proportions theta, topics phi, a "
                                "topic z for each token), where its updates are known; here there is " + reason +
                                " (use --method advi for a continuous model, or mcmc)");
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown && static_cast<int>(v) != lda->s.z && static_cast<int>(v) != lda->s.theta &&
        static_cast<int>(v) != lda->s.phi)
      throw std::invalid_argument("--method vb updates LDA's z, theta and phi, and `" + m.variables[v].name +
                                  "` is another unknown, which it has no update for (use --method mcmc)");
  return std::move(*lda);
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

}  // namespace

weighted_result vb_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  ppl::rng rng = particles::item_stream(o.seed, 0, vb_purpose);
  model::graph g(m, data, rng);
  samplers::lda_model lda = lda_of(g);
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
