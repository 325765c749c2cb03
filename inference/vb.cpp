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

}  // namespace

weighted_result vb_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  ppl::rng rng = particles::item_stream(o.seed, 0, vb_purpose);
  model::graph g(m, data, rng);
  std::string reason;
  auto lda = samplers::find_lda(g, reason);
  if (!lda)
    throw std::invalid_argument("--method vb takes models with LDA's structure (documents' topic proportions theta, topics phi, a "
                                "topic z for each token), where its updates are known; here there is " + reason +
                                " (use --method advi for a continuous model, or mcmc)");
  const samplers::collapsed_structure s = lda->s;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == lang::ir::role::unknown && static_cast<int>(v) != s.z && static_cast<int>(v) != s.theta &&
        static_cast<int>(v) != s.phi)
      throw std::invalid_argument("--method vb updates LDA's z, theta and phi, and `" + m.variables[v].name +
                                  "` is another unknown, which it has no update for (use --method mcmc)");
  samplers::lda::vb_options vo;
  vo.batch_size = o.batch_size;
  vo.offset = o.offset;
  vo.decay = o.decay;
  vo.threads = o.threads;
  weighted_result r;
  // --starts: the best by ELBO of several starts, each run all its passes (after a few
  // passes the ELBO does not yet tell the starts that will end in a poor local optimum).
  const int first = o.starts > 1 ? o.passes : 0;
  std::unique_ptr<samplers::lda::vb_engine> chosen;
  if (o.starts > 1) {
    std::vector<double> elbos;
    chosen = samplers::lda::best_start(lda->corpus, vo, rng, o.starts, first, elbos);
    const auto best = std::max_element(elbos.begin(), elbos.end()) - elbos.begin();
    std::string list;
    for (double e : elbos) list += (list.empty() ? "" : ", ") + fmt::format("{:.1f}", e);
    r.report.push_back(fmt::format("starts: {}, each {} passes; ELBO of each: {}; start {} kept", o.starts, first, list, best + 1));
  } else {
    chosen = std::make_unique<samplers::lda::vb_engine>(std::move(lda->corpus), vo, rng);
  }
  samplers::lda::vb_engine& engine = *chosen;
  samplers::lda::held_out heldout;
  if (o.heldout) heldout = samplers::lda_heldout(g, s, engine.data().words, *o.heldout);
  int passes = first;
  // The passes' own time, the held-out scoring's left out (it is the same work for every
  // method bench/lda_vb.py compares, and not training).
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (int pass = first + 1; pass <= o.passes && !ppl::interrupted(); ++pass) {
    const auto before = std::chrono::steady_clock::now();
    engine.pass();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
    passes = pass;
    const double perplexity = o.heldout ? engine.complete(heldout).perplexity() : NAN;
    r.report.push_back(o.heldout ? fmt::format("pass {}: {} updates, {:.3f} s, held-out perplexity {:.4f}", pass, engine.updates(), seconds, perplexity)
                                 : fmt::format("pass {}: {} updates, {:.3f} s", pass, engine.updates(), seconds));
    if (o.pass_done) o.pass_done(pass, perplexity);
  }
  if (first > 0 && o.heldout)
    r.report.push_back(fmt::format("the start kept, after {} passes: held-out perplexity {:.4f}", first, engine.complete(heldout).perplexity()));
  if (passes < o.passes) {
    r.interrupted = true;
    r.stopped = fmt::format("{} of {} passes", passes, o.passes);
    if (passes == 0) return r;
  }
  // The rows: draws of q for the monitored variables among theta, phi and z.
  const std::vector<int> monitored = monitored_variables(m, g, o.monitors);
  r.columns = recorded_columns(g, monitored);
  if (r.columns.empty()) {
    r.notes.push_back("nothing is recorded: theta, phi and z are each larger than the 1000 scalars recorded by default (--monitor phi "
                      "writes phi; with --means, q's means in one row)");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
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
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
