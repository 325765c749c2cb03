// `ppl sbc`: simulation-based calibration (Talts, Betancourt, Simpson, Vehtari & Gelman
// 2018, "Validating Bayesian inference algorithms with simulation-based calibration").
// If theta ~ p(theta), y ~ p(y | theta) and theta_1..theta_L are draws from p(theta | y),
// the rank of theta among them, #{l: theta_l < theta}, is uniform on 0..L: a sampler (or a
// model's plan of samplers) that does not draw from the posterior shows as ranks that are
// not. Each replicate draws the unknowns and the observations missing from the data with
// `simulate`'s ancestral draw, fits the model to those observations with one chain as
// `infer` runs it, and ranks every scalar unknown's true value among the thinned draws;
// a chi-square test over bins of the ranks says how far each scalar is from uniform.
//
// Replicate r takes its random streams from (seed, r) alone, so its ranks are the same
// whether it runs on a thread of this process or on another process of an MPI job
// (cli/cluster.hpp): replicates are spread over both, and rank 0 gathers them.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/cluster.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/run_output.hpp"
#include "cli/session.hpp"
#include "core/source_error.hpp"
#include "core/archive.hpp"
#include "model/graph.hpp"

namespace ppl::cli {

namespace {

struct sbc_options {
  long replicates = 100;
  inference::run_options run;  // per replicate: chains (1), warmup, draws, thin, seed, samplers
  std::vector<std::string> samplers;  // name=kind
  int bins = 10;              // of the ranks, for the chi-square test of uniformity
  int workers = 1;            // replicates fitted at once on threads (--threads)
  std::string output;         // CSV of every replicate's ranks (default: none)
};

struct sbc_setup {
  const lang::ir::model* model = nullptr;
  const data::data_table* data = nullptr;
  std::vector<int> unknowns;       // the variables ranked
  std::vector<std::string> names;  // their scalars, as columns
  inference::run_options run;       // one chain's settings
};

// One replicate's rank of each scalar, in the order of sbc_setup::names.
struct replicate {
  long index = 0;
  std::vector<long> ranks;
};

// The ranks this process made, or how it failed (as `guarded` would print it).
struct piece {
  std::vector<replicate> done;
  int status = 0;
  std::string error;
};

model::graph prior_graph(const sbc_setup& s, ppl::rng& rng) {
  model::graph_options options;
  options.allow_missing_observations = true;
  options.start.from_prior = true;
  return model::graph(*s.model, *s.data, rng, options);
}

replicate run_replicate(const sbc_setup& s, long r) {
  std::seed_seq seq{static_cast<std::uint32_t>(s.run.seed), static_cast<std::uint32_t>(s.run.seed >> 32), static_cast<std::uint32_t>(r),
                    static_cast<std::uint32_t>(r >> 32), 0x736263u};
  ppl::rng rng(seq);
  const auto& m = *s.model;
  model::graph prior = prior_graph(s, rng);
  std::vector<double> truth;
  for (int v : s.unknowns) prior.append_recorded(v, truth);
  data::data_table data = *s.data;
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (prior.simulated(static_cast<int>(v))) {
      data::data_value simulated;
      simulated.value = prior.value(static_cast<int>(v));
      simulated.integer = m.variables[v].type.kind == stdlib::scalar_kind::integer;
      simulated.origin = "sbc";
      data.set(m.variables[v].name, std::move(simulated));
    }
  inference::run_options o = s.run;
  o.seed = rng();
  const inference::run_result fit = inference::run(m, std::move(data), o, nullptr);
  const auto& rows = fit.draws.chains[0];
  const std::size_t width = fit.draws.columns.size(), first = width - s.names.size();
  replicate out{r, {}};
  for (std::size_t k = 0; k < s.names.size(); ++k) {
    long below = 0, ties = 0;
    for (std::size_t i = first + k; i < rows.size(); i += width) below += rows[i] < truth[k], ties += rows[i] == truth[k];
    // Ties (a discrete unknown) are broken uniformly at random, which keeps the ranks uniform.
    out.ranks.push_back(below + boost::random::uniform_int_distribution<long>(0, ties)(rng));
  }
  return out;
}

void describe(std::exception_ptr error, piece& p) {
  try {
    std::rethrow_exception(error);
  } catch (const ppl::source_error& e) {
    p.status = 1, p.error = e.what();
  } catch (const std::invalid_argument& e) {
    p.status = 2, p.error = fmt::format("error: {}\n", e.what());
  } catch (const std::exception& e) {
    p.status = 1, p.error = fmt::format("error: {}\n", e.what());
  }
}

// This process's replicates (r = rank, rank + R, ...), on `workers` threads taking them in turn.
piece run_mine(const sbc_setup& s, long replicates, int workers) {
  std::vector<long> mine;
  for (long r = process_rank(); r < replicates; r += process_count()) mine.push_back(r);
  piece out;
  out.done.resize(mine.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  auto work = [&] {
    for (std::size_t i; !failed && (i = next++) < mine.size();) {
      try {
        out.done[i] = run_replicate(s, mine[i]);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!failed.exchange(true)) describe(std::current_exception(), out);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (failed) out.done.clear();
  return out;
}

std::string pack(piece& p) {
  ppl::archive a;
  auto n = static_cast<std::uint64_t>(p.done.size());
  a(p.status, p.error, n);
  for (auto& r : p.done) a(r.index, r.ranks);
  return a.take();
}

piece unpack(std::string bytes) {
  ppl::archive a(std::move(bytes));
  piece p;
  std::uint64_t n = 0;
  a(p.status, p.error, n);
  p.done.resize(static_cast<std::size_t>(n));
  for (auto& r : p.done) a(r.index, r.ranks);
  return p;
}

// Each scalar's chi-square statistic of its ranks (0..L) in `bins` bins of as equal a width
// as L + 1 allows, each compared with the count its width expects, and its p-value with
// bins - 1 degrees of freedom.
void print_report(const sbc_setup& s, const std::vector<replicate>& all, const sbc_options& o) {
  const long values = o.run.draws + 1;
  const auto bin_of = [&](long rank) { return static_cast<std::size_t>(rank * o.bins / values); };
  std::vector<double> width(static_cast<std::size_t>(o.bins), 0.0);
  for (long q = 0; q < values; ++q) width[bin_of(q)] += 1.0 / static_cast<double>(values);
  const boost::math::chi_squared chi2(o.bins - 1);
  const double threshold = 0.01 / static_cast<double>(s.names.size());
  fmt::print("# sbc: {} replicates; ranks among {} draws (warmup {}, thin {}) in {} bins\n", all.size(), o.run.draws, o.run.warmup,
             o.run.thin, o.bins);
  fmt::print("{:<24} {:>10} {:>4} {:>10}\n", "name", "chi2", "df", "p");
  std::vector<std::string> low;
  for (std::size_t k = 0; k < s.names.size(); ++k) {
    std::vector<double> counts(width.size(), 0.0);
    for (const auto& r : all) counts[bin_of(r.ranks[k])] += 1;
    double stat = 0;
    for (std::size_t b = 0; b < counts.size(); ++b) {
      const double expected = width[b] * static_cast<double>(all.size());
      stat += (counts[b] - expected) * (counts[b] - expected) / expected;
    }
    const double p = boost::math::cdf(boost::math::complement(chi2, stat));
    fmt::print("{:<24} {:>10.2f} {:>4} {:>10.4g}\n", s.names[k], stat, o.bins - 1, p);
    if (p < threshold) low.push_back(s.names[k]);
  }
  if (!low.empty())
    fmt::print(stderr, "warning: the ranks of {} are not uniform (p below 0.01 / {} scalars): the draws are not from the posterior the "
                       "model defines, or the fits are too short to have converged (raise --warmup, --thin)\n",
               fmt::join(low, ", "), s.names.size());
}

void write_ranks(const std::string& path, const sbc_setup& s, const std::vector<replicate>& all) {
  write_replacing(path, "the ranks file ", [&](std::ostream& out) {
    out << "replicate";
    for (const auto& n : s.names) out << ',' << (n.find(',') == std::string::npos ? n : "\"" + n + "\"");
    out << '\n';
    for (const auto& r : all) {
      out << r.index + 1;
      for (long q : r.ranks) out << ',' << q;
      out << '\n';
    }
  });
}

sbc_setup make_setup(const loaded& l, const sbc_options& o) {
  const auto& m = *l.model;
  for (const auto& st : m.statements)
    if (st.which == lang::ir::statement::kind::factor)
      ppl::fail_at(m.source, st.pos, "this model has `factor` terms, so its observations cannot be simulated; `ppl sbc` needs a generative model");
  refuse_improper_priors(m, "`ppl sbc`");
  sbc_setup s;
  s.model = l.model.get();
  s.data = &l.data;
  ppl::rng rng(o.run.seed);
  const model::graph prior = prior_graph(s, rng);
  bool simulated = false;
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    simulated = simulated || prior.simulated(static_cast<int>(v));
    if (m.variables[v].role == lang::ir::role::unknown) s.unknowns.push_back(static_cast<int>(v)), s.run.monitors.push_back(m.variables[v].name);
  }
  if (!simulated)
    throw std::invalid_argument("ppl sbc: the data give every observation; leave the observations out, so that each replicate draws them");
  s.names = inference::recorded_columns(prior, s.unknowns);
  if (o.bins > o.run.draws + 1) throw std::invalid_argument(fmt::format("--bins {}: more bins than rank values (--draws + 1 = {})", o.bins, o.run.draws + 1));
  return s;
}

int run_sbc(const model_inputs& in, const sbc_options& o) {
  return guarded([&] {
    const loaded l = load(in);
    sbc_setup s = make_setup(l, o);
    if (!o.output.empty()) refuse_overwriting_inputs("--output", {o.output}, {in.model_path, in.data_path});
    inference::run_options fit;
    fit.chains = 1;
    fit.warmup = o.run.warmup;
    fit.draws = o.run.draws;
    fit.thin = o.run.thin;
    fit.seed = o.run.seed;
    fit.monitors = s.run.monitors;
    fit.overrides = parse_overrides(o.samplers, "mu");
    s.run = std::move(fit);
    agree_to_start();
    piece mine = run_mine(s, o.replicates, o.workers);
    const std::vector<std::string> pieces = gather_pieces(pack(mine));
    if (pieces.empty()) return mine.status;  // not rank 0: rank 0 reports
    std::vector<replicate> all;
    for (const auto& bytes : pieces) {
      piece p = unpack(bytes);
      if (p.status != 0) {
        fmt::print(stderr, "{}", p.error);
        return p.status;
      }
      for (auto& r : p.done) all.push_back(std::move(r));
    }
    std::sort(all.begin(), all.end(), [](const replicate& a, const replicate& b) { return a.index < b.index; });
    if (!o.output.empty()) write_ranks(o.output, s, all);
    print_report(s, all, o);
    return 0;
  });
}

struct sbc_arguments {
  model_inputs in;
  sbc_options o;
};

}  // namespace

command add_sbc_command(CLI::App& app) {
  auto a = std::make_shared<sbc_arguments>();
  sbc_options& o = a->o;
  o.run.warmup = 200;
  o.run.draws = 99;
  o.run.thin = 4;
  auto* cmd = app.add_subcommand("sbc", "simulation-based calibration: fit replicates simulated from the prior, test the ranks of the truth");
  add_model_inputs(cmd, a->in);
  cmd->add_option("--replicates", o.replicates, "datasets simulated from the prior and fitted")->capture_default_str()
      ->check(whole(1, 100000000));
  cmd->add_option("--warmup", o.run.warmup, "warmup iterations of each fit")->capture_default_str()->check(whole(0, 1000000000));
  cmd->add_option("--draws", o.run.draws, "draws kept per fit, among which the truth is ranked (ranks 0 to draws)")
      ->capture_default_str()->check(whole(1, 100000000));
  cmd->add_option("--thin", o.run.thin, "iterations per kept draw, so that the ranked draws are nearly independent")
      ->capture_default_str()->check(whole(1, 1000000));
  cmd->add_option("--seed", o.run.seed, "random seed")->capture_default_str()->check(seed());
  cmd->add_option("--threads", o.workers, "replicates fitted at once (under mpirun: per process)")->capture_default_str()
      ->check(whole(1, 256));
  cmd->add_option("--bins", o.bins, "bins of the ranks for the chi-square test")->capture_default_str()->check(whole(2, 1000));
  cmd->add_option("--sampler", o.samplers, "force a sampler kind: NAME=KIND (default: chosen by structure)");
  cmd->add_option("--output,-o", o.output, "CSV of every replicate's ranks (default: none)")->type_name("FILE");
  return {cmd, [a] { return run_sbc(a->in, a->o); }};
}

}  // namespace ppl::cli
