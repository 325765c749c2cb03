// `ppl infer --method rejection`: exact posterior draws by rejection from the prior (the
// seed note's rejection sampling; von Neumann 1951). With L(theta) = p(data | theta) <=
// exp(M) everywhere, a prior draw theta is kept with probability L(theta) / exp(M); the
// kept draws are independent draws of the posterior, and the acceptance rate times exp(M)
// estimates the evidence p(data) (its error binomial). M is found term by term (see
// bound_of: constant terms, location families whose scale is known, Poisson, Binomial and
// Exponential observations at their peaks, other discrete observations at 1), or given
// (--bound); a prior draw above it is an error, since the draws would not be exact.
// A pilot of prior draws estimates the acceptance rate first, and a run that would need
// more than --max-proposals draws is refused before it starts.
#include <fmt/core.h>

#include <boost/random/uniform_01.hpp>
#include <chrono>
#include <cmath>
#include <optional>
#include <span>

#include "core/source_error.hpp"
#include "core/interrupt.hpp"
#include "inference/particles.hpp"
#include "stdlib/registry.hpp"

namespace ppl::inference {

namespace {

constexpr std::uint32_t rejection_purpose = 0x72656a74u, pilot_purpose = 0x70696c74u;
constexpr std::size_t pilot_draws = 2000;

// Where the density (or probability) at y peaks as a function of one argument, the others
// fixed: the sup over that argument is the density at y with the argument set there.
// Location families peak at the location y (LogNormal at log y); Poisson's rate at y,
// Binomial's probability at y / n, Exponential's rate at 1 / y. `at` returns NaN where
// the peak lies on the argument's boundary (Poisson's y = 0, Binomial's y = 0 or n), at
// which the probability is 1.
struct peak_rule {
  std::size_t arg = 0;
  double (*at)(double y, std::span<const ppl::view> args) = nullptr;
};

std::optional<peak_rule> peak_of(std::string_view dist) {
  const auto value = [](double y, std::span<const ppl::view>) { return y; };
  if (dist == "Normal" || dist == "Cauchy" || dist == "DoubleExponential" || dist == "Logistic" || dist == "Gumbel") return peak_rule{0, value};
  if (dist == "StudentT") return peak_rule{1, value};
  if (dist == "LogNormal") return peak_rule{0, [](double y, std::span<const ppl::view>) { return std::log(y); }};
  if (dist == "Exponential") return peak_rule{0, [](double y, std::span<const ppl::view>) { return 1 / y; }};
  if (dist == "Poisson") return peak_rule{0, [](double y, std::span<const ppl::view>) { return y > 0 ? y : NAN; }};
  if (dist == "Binomial")
    return peak_rule{1, [](double y, std::span<const ppl::view> args) {
                       const double n = args[0][0];
                       return y > 0 && y < n ? y / n : NAN;
                     }};
  return std::nullopt;
}

// Whether `e` reads a loop variable: if not, every instance of its statement has the same value.
bool reads_loop(const lang::ir::expr& e) {
  if (e.which == lang::ir::expr::kind::loop_var) return true;
  for (const auto& a : e.args)
    if (a && reads_loop(*a)) return true;
  for (const auto& ix : e.indices)
    if ((ix.lo && reads_loop(*ix.lo)) || (ix.hi && reads_loop(*ix.hi))) return true;
  return false;
}

// For observations that share the argument of the peak rule (y[n] ~ Poisson(lambda)), the
// value of that argument at which their joint density peaks, its maximum-likelihood
// estimate from the values y and each instance's other arguments; NaN on the argument's
// boundary (every count 0, every trial a success), where the joint probability is 1;
// nullopt where ppl knows no closed form (then each observation's own peak serves).
std::optional<double> joint_peak(std::string_view dist, const std::vector<double>& y, const std::vector<std::vector<double>>& args) {
  double sum = 0, weights = 0;
  const auto n = static_cast<double>(y.size());
  if (dist == "Normal" || dist == "LogNormal") {  // the precision-weighted mean of y (of log y)
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double w = 1 / (args[i][1] * args[i][1]);
      sum += w * (dist == "Normal" ? y[i] : std::log(y[i]));
      weights += w;
    }
    return sum / weights;
  }
  for (std::size_t i = 0; i < y.size(); ++i) {
    sum += y[i];
    weights += dist == "Binomial" ? args[i][0] : 1.0;
  }
  if (dist == "Bernoulli" || dist == "Binomial") return sum > 0 && sum < weights ? sum / weights : NAN;
  if (dist == "Poisson") return sum > 0 ? sum / n : NAN;
  if (dist == "Exponential") return n / sum;
  return std::nullopt;
}

// Why statement `s`'s terms have no bound ppl finds, or empty; when empty, adds the bound
// of its terms to `bound`: a term whose arguments are free of unknowns is a constant (its
// value); observations through one argument that every instance shares, the others free
// of unknowns, are at most their joint density at its peak (joint_peak); through one
// argument with a peak rule (above), at most each one's density at its own peak; any
// other observation of a discrete value is a probability, at most 1 (log 1 = 0).
std::string bound_of(model::graph& g, const lang::ir::statement& s, double& bound) {
  const auto& m = g.model();
  if (s.which == lang::ir::statement::kind::factor) return "a `factor` term has no bound ppl can find";
  const std::string what = "the observation of `" + m.variables[static_cast<std::size_t>(s.target)].name + "` has a density (" + s.dist_name + ")";
  std::vector<std::size_t> varying;
  for (std::size_t k = 0; k < s.args.size(); ++k)
    if (s.args[k]->depends_on_unknown) varying.push_back(k);
  const std::vector<ppl::index_t> loops = model::instances(g).table(s);
  const std::size_t per = s.loops.size(), count = per == 0 ? 1 : loops.size() / per;
  if (varying.empty()) {
    for (std::size_t i = 0; i < count; ++i) bound += model::instances(g).log_density(s, loops.data() + i * per);
    return {};
  }
  const bool plain = s.dist == stdlib::library().find_distribution(s.dist_name);  // not truncated or censored
  const auto rule = plain && s.dist->value_rank() == 0 ? peak_of(s.dist->name()) : std::nullopt;
  const auto& values = g.value(s.target).data;
  if (plain && s.dist->value_rank() == 0 && varying.size() == 1 && !reads_loop(*s.args[varying[0]]) &&
      (s.dist->name() == "Bernoulli" || (rule && varying[0] == rule->arg))) {
    // One shared argument: the joint density's own peak, far tighter than each
    // observation's (20 coin flips, 14 heads: 0.7^14 0.3^6 against 1).
    std::vector<double> ys;
    std::vector<std::vector<double>> other;
    for (std::size_t i = 0; i < count; ++i) {
      const ppl::index_t* l = loops.data() + i * per;
      ys.push_back(values[static_cast<std::size_t>(model::instances(g).target(s, l).first)]);
      auto& a = other.emplace_back();
      for (const auto& v : model::instances(g).args_at(s, l)) a.push_back(v.size() == 1 ? v[0] : NAN);
    }
    if (const auto peak = joint_peak(s.dist->name(), ys, other)) {
      if (std::isnan(*peak)) return {};  // a joint probability of 1
      for (std::size_t i = 0; i < count; ++i) {
        std::vector<ppl::view> args = model::instances(g).args_at(s, loops.data() + i * per);
        args[varying[0]] = {&*peak, ppl::shape::scalar()};
        bound += s.dist->log_density(args, {&ys[i], ppl::shape::scalar()}, true);
      }
      return {};
    }
  }
  if (!rule || varying.size() > 1 || varying[0] != rule->arg) {
    if (s.dist->value_kind() == stdlib::scalar_kind::integer) return {};
    if (!plain) return what + ", truncated or censored, which can exceed 1";
    if (!rule) return what + ", which can exceed 1, and no bound ppl knows of for it";
    return what + " that depends on unknowns through more than its location, and may exceed any bound";
  }
  for (std::size_t i = 0; i < count; ++i) {
    const ppl::index_t* l = loops.data() + i * per;
    const double y = values[static_cast<std::size_t>(model::instances(g).target(s, l).first)];
    std::vector<ppl::view> args = model::instances(g).args_at(s, l);
    double at = rule->at(y, args);
    if (std::isnan(at)) continue;  // a probability of 1 at the boundary
    args[rule->arg] = {&at, ppl::shape::scalar()};
    bound += s.dist->log_density(args, {&y, ppl::shape::scalar()}, true);
  }
  return {};
}

// M with log p(data | unknowns) <= M for every value of the unknowns, the sum of each
// likelihood term's bound; else throws saying which term has none.
double found_bound(model::graph& g) {
  const auto& m = g.model();
  double bound = 0;
  for (std::size_t i = 0; i < m.statements.size(); ++i) {
    if (!g.likelihood(static_cast<int>(i))) continue;
    const auto& s = m.statements[i];
    if (const std::string why = bound_of(g, s, bound); !why.empty())
      ppl::fail_at(m.source, s.pos,
                    "--method rejection needs a bound M with log p(data | unknowns) <= M for every value of the unknowns, and " + why +
                        "; give one with --bound M, or use --method importance or smc");
  }
  return bound;
}

struct proposal {
  double ll = -INFINITY, u = 1;
};

// Prior draw `i` of a stream: its log-likelihood and the uniform that decides it.
proposal propose(particles::particle_graph& pg, std::uint64_t seed, std::size_t i, std::uint32_t purpose) {
  ppl::rng rng = particles::item_stream(seed, i, purpose);
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

// Interrupted before any draw was accepted: an empty result that says so.
weighted_result stopped(weighted_result& r, const monte_carlo_options& o, std::chrono::steady_clock::time_point start) {
  r.interrupted = true;
  r.stopped = fmt::format("0 of {} draws accepted", o.particles);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

weighted_result rejection_sample(const lang::ir::model& m, const data::data_table& data, const monte_carlo_options& o) {
  const auto start = std::chrono::steady_clock::now();
  auto graphs = particles::make_graphs(m, data, o);
  weighted_result r;
  r.bound = o.bound ? *o.bound : found_bound(graphs[0]->graph());
  r.columns = graphs[0]->columns(false);
  // The pilot: the acceptance rate, and with it the expected cost.
  std::vector<double> pilot(pilot_draws);
  particles::for_each_index(o.threads, pilot_draws, [&](int t, std::size_t i) {
    if (!ppl::interrupted()) pilot[i] = propose(*graphs[static_cast<std::size_t>(t)], o.seed, i, pilot_purpose).ll;
  });
  if (ppl::interrupted()) return stopped(r, o, start);
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
    std::vector<char> made(batch, 0);
    particles::for_each_index(o.threads, batch, [&](int t, std::size_t k) {
      if (ppl::interrupted()) return;
      auto& pg = *graphs[static_cast<std::size_t>(t)];
      const proposal p = propose(pg, o.seed, proposed + k, rejection_purpose);
      check_bound(p.ll, r.bound);
      if (std::log(p.u) < p.ll - r.bound) pg.row(false, 0, rows[k]);
      made[k] = 1;
    });
    // Proposals are taken in their order up to the first one an interruption left unmade.
    for (std::size_t k = 0; k < batch && r.row_count < wanted; ++k) {
      if (!made[k]) {
        r.interrupted = true;
        break;
      }
      ++r.proposals;
      if (rows[k].empty()) continue;
      r.rows.insert(r.rows.end(), rows[k].begin(), rows[k].begin() + static_cast<std::ptrdiff_t>(width));
      ++r.row_count;
    }
    proposed += batch;
    if (r.interrupted) break;
  }
  if (r.interrupted) {
    r.stopped = fmt::format("{} of {} draws accepted", r.row_count, wanted);
    if (r.row_count == 0) return stopped(r, o, start);
  }
  r.acceptance = static_cast<double>(r.row_count) / static_cast<double>(r.proposals);
  r.evidence = {r.bound + std::log(r.acceptance), std::sqrt((1 - r.acceptance) / static_cast<double>(r.row_count))};
  r.ess = static_cast<double>(r.row_count);
  r.proposals += static_cast<long>(pilot_draws);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ppl::inference
