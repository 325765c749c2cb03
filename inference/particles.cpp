#include "inference/particles.hpp"

#include <boost/random/uniform_01.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <thread>

#include "draws/psis.hpp"
#include "model/sums.hpp"
#include "stdlib/moments.hpp"

namespace ppl::inference::particles {

using lang::ir::role;

particle_graph::particle_graph(const lang::ir::model& m, const data::data_table& data, const std::vector<std::string>& monitors) {
  ppl::rng rng(1);  // the start is overwritten: every particle begins as a prior draw
  graph_ = std::make_unique<model::graph>(m, data, rng);
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == role::unknown) {
      unknowns_.push_back(static_cast<int>(v));
      size_ += graph_->value(static_cast<int>(v)).data.size();
    }
  monitored_ = monitored_variables(m, *graph_, monitors);
}

void particle_graph::save(double* out) const {
  for (int v : unknowns_) out = std::copy(graph_->value(v).data.begin(), graph_->value(v).data.end(), out);
}

void particle_graph::load(const double* in) {
  for (int v : unknowns_) {
    auto& d = graph_->values()[static_cast<std::size_t>(v)].data;
    std::copy(in, in + d.size(), d.begin());
    in += d.size();
  }
  graph_->update_derived();
}

std::vector<std::string> particle_graph::columns(bool weighted) const {
  std::vector<std::string> out{"lp__"};
  if (weighted) out.push_back("weight__");
  for (auto& c : recorded_columns(*graph_, monitored_)) out.push_back(std::move(c));
  return out;
}

void particle_graph::row(bool weighted, double weight, std::vector<double>& out) {
  const double beta = graph_->temperature();
  graph_->set_temperature(1);
  out.assign(1, graph_->log_density());
  graph_->set_temperature(beta);
  if (weighted) out.push_back(weight);
  for (int v : monitored_) graph_->append_recorded(v, out);
}

std::vector<std::unique_ptr<particle_graph>> make_graphs(const lang::ir::model& m, const data::data_table& data,
                                                         const monte_carlo_options& o) {
  std::vector<std::unique_ptr<particle_graph>> out(static_cast<std::size_t>(std::max(1, o.threads)));
  for_each_index(o.threads, out.size(), [&](int, std::size_t t) { out[t] = std::make_unique<particle_graph>(m, data, o.monitors); });
  // An observed Sum holds on a set of measure zero (for real summands) that no prior draw
  // meets, nor a tempered move: these methods start from the prior.
  if (!model::observed_sums(out[0]->graph()).empty())
    throw std::invalid_argument("an observed Sum (y ~ Sum(...), BUGS's dsum) holds only where the summands add up to the data, which "
                                "no draw from the prior meets: the weighted methods cannot take it (use --method mcmc)");
  return out;
}

void for_each_index(int threads, std::size_t count, const std::function<void(int, std::size_t)>& fn) {
  const auto workers = static_cast<std::size_t>(std::clamp<long>(threads, 1, static_cast<long>(std::max<std::size_t>(count, 1))));
  std::vector<std::exception_ptr> errors(workers);
  auto block = [&](std::size_t t) {
    try {
      for (std::size_t i = count * t / workers; i < count * (t + 1) / workers; ++i) fn(static_cast<int>(t), i);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> team;
  for (std::size_t t = 1; t < workers; ++t) team.emplace_back(block, t);
  block(0);
  for (auto& th : team) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

ppl::rng item_stream(std::uint64_t seed, std::size_t i, std::uint32_t purpose) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(i),
                    static_cast<std::uint32_t>(static_cast<std::uint64_t>(i) >> 32), purpose};
  return ppl::rng(seq);
}

namespace {

// Steele, Lea & Flood's (2014) splitmix64 finaliser: a bijection of 64-bit words whose
// outputs for neighbouring inputs share no visible pattern.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

ppl::rng quick_stream(std::uint64_t seed, std::uint64_t i, std::uint32_t purpose) {
  return ppl::rng(splitmix64(splitmix64(seed ^ (static_cast<std::uint64_t>(purpose) << 32)) ^ splitmix64(i)));
}

double effective_size(const std::vector<double>& log_weights) {
  const double top = log_weights.empty() ? -INFINITY : *std::max_element(log_weights.begin(), log_weights.end());
  if (!std::isfinite(top)) return 0;
  double sum = 0, squares = 0;
  for (double lw : log_weights) {
    const double w = std::exp(lw - top);
    sum += w;
    squares += w * w;
  }
  return sum * sum / squares;
}

evidence_estimate log_mean_exp(const std::vector<double>& x) {
  const auto n = static_cast<double>(x.size());
  const double top = x.empty() ? -INFINITY : *std::max_element(x.begin(), x.end());
  if (!std::isfinite(top)) return {top, NAN};
  double sum = 0, squares = 0;
  for (double v : x) {
    const double w = std::exp(v - top);
    sum += w;
    squares += w * w;
  }
  const double mean = sum / n;
  const double variance = x.size() > 1 ? (squares - n * mean * mean) / (n - 1) : NAN;
  return {top + std::log(mean), std::sqrt(std::max(variance, 0.0) / n) / mean};
}

void runs_spread(weighted_result& r) {
  const auto& z = r.run_log_z;
  const double sd = stdlib::sample_sd(z.data(), static_cast<index_t>(z.size()));
  r.evidence.se = std::max(r.evidence.se, sd / std::sqrt(static_cast<double>(z.size())));
  if (!(sd > 1)) return;
  r.unreliable = true;
  const auto [lo, hi] = std::minmax_element(z.begin(), z.end());
  r.warnings.push_back(fmt::format("the {} runs' log evidences range from {:.2f} to {:.2f} (sd {:.2f}): runs that work agree within "
                                   "about one unit, so these have not all found the posterior's mass, and the evidence and its "
                                   "standard error are unreliable; run with more --particles or --moves (a multimodal posterior "
                                   "needs moves that cross between its modes)",
                                   z.size(), *lo, *hi, sd));
}

std::vector<std::size_t> systematic_resample(const std::vector<double>& log_weights, std::size_t n, double u) {
  const double total = draws::log_sum_exp(log_weights);
  std::vector<std::size_t> out;
  out.reserve(n);
  double cumulative = 0;
  std::size_t i = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double point = (static_cast<double>(k) + u) / static_cast<double>(n);
    while (i + 1 < log_weights.size() && cumulative + std::exp(log_weights[i] - total) <= point) cumulative += std::exp(log_weights[i++] - total);
    out.push_back(i);
  }
  return out;
}

void finish_rows(weighted_result& r, const std::vector<double>& log_weights, std::size_t width, const monte_carlo_options& o) {
  const double total = draws::log_sum_exp(log_weights);
  r.ess = effective_size(log_weights);
  if (!o.resample) {
    for (std::size_t i = 0; i < log_weights.size(); ++i) r.rows[i * width + 1] = std::exp(log_weights[i] - total);
    r.row_count = log_weights.size();
    return;
  }
  ppl::rng rng = item_stream(o.seed, 0, 0x72736d70u);
  const auto picks = systematic_resample(log_weights, static_cast<std::size_t>(o.particles), boost::random::uniform_01<double>()(rng));
  std::vector<double> rows;
  rows.reserve(picks.size() * width);
  for (std::size_t i : picks) rows.insert(rows.end(), r.rows.begin() + static_cast<std::ptrdiff_t>(i * width),
                                          r.rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * width));
  for (std::size_t k = 0; k < picks.size(); ++k) rows[k * width + 1] = 1.0 / static_cast<double>(picks.size());
  r.rows = std::move(rows);
  r.row_count = picks.size();
  r.notes.push_back(fmt::format("the {} draws written are resampled (systematic) from the weighted ones, each weighing 1/{}; the weighted "
                                "draws estimate means more precisely", picks.size(), picks.size()));
}

}  // namespace ppl::inference::particles
