// `ppl infer --method rejection`: exact posterior draws by rejection from the prior (the
// seed note's rejection sampling; von Neumann 1951). With L(theta) = p(data | theta) <=
// exp(M) everywhere, a prior draw theta is kept with probability L(theta) / exp(M); the
// kept draws are independent draws of the posterior, and the acceptance rate times exp(M)
// estimates the evidence p(data) (its error binomial). M is found when every term of the
// likelihood is an observation of a discrete value (a probability, at most 1: M = 0), or
// given (--bound); a prior draw above it is an error, since the draws would not be exact.
// A pilot of prior draws estimates the acceptance rate first, and a run that would need
// more than --max-proposals draws is refused before it starts.
#include <fmt/core.h>

#include <boost/random/uniform_01.hpp>
#include <chrono>
#include <cmath>

#include "lang/diagnostics.hpp"
#include "lang/evidence.hpp"
#include "samplers/particles.hpp"

namespace ppl::samplers {

namespace {

constexpr std::uint32_t rejection_purpose = 0x72656a74u, pilot_purpose = 0x70696c74u;
constexpr std::size_t pilot_draws = 2000;

// M = 0 when every likelihood term is a probability; else throws saying why a bound is needed.
double found_bound(const lang::ir::model& m) {
  const auto likelihood = lang::likelihood_statements(m);
  for (std::size_t i = 0; i < m.statements.size(); ++i) {
    if (!likelihood[i]) continue;
    const auto& s = m.statements[i];
    const std::string why = s.which == lang::ir::statement::kind::factor
                                ? "a `factor` term has no bound ppl can find"
                                : "the observation of `" + m.variables[static_cast<std::size_t>(s.target)].name + "` has a density (" +
                                      s.dist_name + "), which can exceed 1";
    if (s.which == lang::ir::statement::kind::factor || s.dist->value_kind() != stdlib::scalar_kind::integer)
      lang::fail_at(m.source, s.pos,
                    "--method rejection needs a bound M with log p(data | unknowns) <= M for every value of the unknowns, and " + why +
                        "; give one with --bound M, or use --method importance or smc");
  }
  return 0;
}

struct proposal {
  double ll = -INFINITY, u = 1;
};

// Prior draw `i` of a stream: its log-likelihood and the uniform that decides it.
proposal propose(particles::particle_graph& pg, std::uint64_t seed, std::size_t i, std::uint32_t purpose) {
  runtime::rng rng = particles::item_stream(seed, i, purpose);
  pg.graph().draw_prior(rng);
  proposal p;
  p.ll = pg.graph().log_likelihood();
  if (std::isnan(p.ll)) p.ll = -INFINITY;
  p.u = boost::random::uniform_01<double>()(rng);
  return p;
}

void check_bound(double ll, double bound) {
  if (ll > bound + 1e-9 * std::max(1.0, std::abs(bound)))
    throw std::invalid_argument(fmt::format("--method rejection: a prior draw has log p(data | unknowns) = {:.6g}, above the bound {:.6g}; "
                                            "with a wrong bound the draws are not exact (give a larger --bound)",
                                            ll, bound));
}

}  // namespace

weighted_result rejection_sample(const lang::ir::model& m, const runtime::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  auto graphs = particles::make_graphs(m, data, o);
  weighted_result r;
  r.bound = o.bound ? *o.bound : found_bound(m);
  r.columns = graphs[0]->columns(false);
  // The pilot: the acceptance rate, and with it the expected cost.
  std::vector<double> pilot(pilot_draws);
  particles::for_each_index(o.threads, pilot_draws, [&](int t, std::size_t i) {
    pilot[i] = propose(*graphs[static_cast<std::size_t>(t)], o.seed, i, pilot_purpose).ll;
  });
  double rate = 0;
  for (double ll : pilot) {
    check_bound(ll, r.bound);
    rate += std::exp(ll - r.bound) / static_cast<double>(pilot_draws);
  }
  const double expected = static_cast<double>(o.particles) / rate;
  if (!(expected <= o.max_proposals))
    throw std::invalid_argument(fmt::format("--method rejection would need about {:.3g} prior draws for {} exact ones (acceptance about "
                                            "{:.2g}, from {} pilot draws), more than --max-proposals {:.3g}: the likelihood is too "
                                            "narrow for its bound; use --method smc (or importance, or mcmc)",
                                            expected, o.particles, rate, pilot_draws, o.max_proposals));
  // Proposals in batches spread over the threads, accepted in their order, until enough.
  const std::size_t width = r.columns.size(), wanted = static_cast<std::size_t>(o.particles);
  const std::size_t batch = std::max<std::size_t>(1024, static_cast<std::size_t>(std::min(expected * 1.1, 1e6)) / 4);
  std::size_t proposed = 0;
  while (r.row_count < wanted) {
    std::vector<std::vector<double>> rows(batch);
    particles::for_each_index(o.threads, batch, [&](int t, std::size_t k) {
      auto& pg = *graphs[static_cast<std::size_t>(t)];
      const proposal p = propose(pg, o.seed, proposed + k, rejection_purpose);
      check_bound(p.ll, r.bound);
      if (std::log(p.u) < p.ll - r.bound) pg.row(false, 0, rows[k]);
    });
    for (std::size_t k = 0; k < batch && r.row_count < wanted; ++k) {
      ++r.proposals;
      if (rows[k].empty()) continue;
      r.rows.insert(r.rows.end(), rows[k].begin(), rows[k].begin() + static_cast<std::ptrdiff_t>(width));
      ++r.row_count;
    }
    proposed += batch;
  }
  r.acceptance = static_cast<double>(r.row_count) / static_cast<double>(r.proposals);
  r.evidence = {r.bound + std::log(r.acceptance), std::sqrt((1 - r.acceptance) / static_cast<double>(r.row_count))};
  r.ess = static_cast<double>(r.row_count);
  r.proposals += static_cast<long>(pilot_draws);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::samplers
