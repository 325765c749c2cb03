#include "samplers/chain.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <sstream>
#include <thread>

#include "runtime/draws_writer.hpp"
#include "runtime/graph.hpp"
#include "runtime/interrupt.hpp"
#include "samplers/collapsed.hpp"
#include "samplers/factories.hpp"
#include "samplers/heldout_prediction.hpp"
#include "samplers/structure.hpp"

namespace ppl::samplers {

namespace {

using lang::ir::role;

std::string shape_label(const std::string& name, const runtime::shape& s) {
  if (s.rank == 0) return name;
  std::string out = name + "[";
  for (int d = 0; d < s.rank; ++d) out += (d ? ", 1:" : "1:") + std::to_string(s[d]);
  return out + "]";
}

// A variable's name in the plan: with its shape, or, partly observed, the missing elements
// it imputes ("y[3], y[5] (missing)", "y[2], y[4], y[7], ... (12 missing)").
std::string plan_label(const runtime::graph& g, int v) {
  const auto& name = g.model().variables[static_cast<std::size_t>(v)].name;
  const auto& shape = g.value(v).shape;
  if (!g.partly_observed(v)) return shape_label(name, shape);
  const auto& imputed = g.imputed_elements(v);
  std::string out;
  for (std::size_t i = 0; i < imputed.size() && i < 3; ++i) out += (i ? ", " : "") + runtime::element_label(name, shape, imputed[i]);
  return imputed.size() > 3 ? out + ", ... (" + std::to_string(imputed.size()) + " missing)" : out + " (missing)";
}

// One chain: its graph, its samplers in dependency order, its random stream.
struct chain {
  std::unique_ptr<runtime::graph> graph;
  std::vector<std::unique_ptr<sampler>> samplers;
  std::vector<std::string> sampled;  // the variables of each sampler, for its report: "b1, W1"
  std::vector<char> rewritten;       // per variable: its values are no state (sampler::values_rewritten)
  runtime::rng rng;
  std::vector<int> monitored;
  std::vector<char> derived_every, derived_kept;  // derived variables recomputed each iteration, at kept ones
  // lp__ at the current state, kept up to date from the samplers' changes (NaN when one
  // does not know its change: computed in full when next recorded).
  double lp = NAN;
  // --heldout for a model no sampler scores: the Normal observations' held-out RMSE.
  std::unique_ptr<heldout_prediction> prediction;
};

// lp__ is recomputed in full at least every this many iterations, so that rounding in the
// sum of changes stays far below the digits written; at fixed iterations, so that a
// resumed run makes the same values.
constexpr long lp_refresh = 1000;

runtime::rng chain_rng(std::uint64_t seed, int c) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(c)};
  return runtime::rng(seq);
}

int first_statement(const lang::ir::model& m, int v) {
  const auto& s = m.variables[static_cast<std::size_t>(v)].statements;
  return s.empty() ? 0 : *std::min_element(s.begin(), s.end());
}


double log_joint(chain& c);
[[noreturn]] void fail_at_start(runtime::graph& g, bool from_init);
constexpr int max_initial_attempts = 100;
// Starts at typical values before the failing terms' unknowns start uniformly instead.
constexpr int typical_attempts = 10;

// A chain's saved state: the iterations it has done, its random stream, the values of
// every unknown, then what each sampler keeps (sampler::persist). Derived values are
// recomputed from the unknowns, and samplers rebuild what they derive from them. Values
// that are no state (collapsed theta and phi, drawn from z's counts when recorded) are
// left out, and integers are stored as such (archive::compact): LDA's state is then its
// topic assignments in a byte each, not them, theta and phi in doubles.
std::string save_chain(chain& c, long completed) {
  runtime::archive a;
  std::ostringstream stream;
  stream << c.rng;
  std::string rng_text = stream.str();
  const auto& m = c.graph->model();
  std::size_t size = rng_text.size() + 4096;  // and room for the samplers' own
  for (std::size_t v = 0; v < m.variables.size(); ++v)
    if (m.variables[v].role == role::unknown && !c.rewritten[v]) size += 1 + runtime::archive::compact_size(c.graph->value(static_cast<int>(v)).data);
  a.reserve(size);
  a(completed, rng_text, c.lp);
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != role::unknown) continue;
    std::uint8_t kept = !c.rewritten[v];
    a(kept);
    if (kept) a.compact(c.graph->values()[v].data);
  }
  auto samplers = static_cast<std::uint64_t>(c.samplers.size());
  a(samplers);
  for (auto& s : c.samplers) s->persist(a);
  if (c.prediction) c.prediction->persist(a);
  return a.take();
}

// The first part of a saved state, before the samplers are made: the iterations done, the
// random stream and the unknowns' values, set in the chain's graph. Returns the
// iterations done.
long load_chain_values(chain& c, runtime::archive& a) {
  long completed = 0;
  std::string rng_text;
  a(completed, rng_text, c.lp);
  std::istringstream stream(rng_text);
  stream >> c.rng;
  if (!stream) throw std::runtime_error("the saved state is truncated or corrupt");
  const auto& m = c.graph->model();
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    if (m.variables[v].role != role::unknown) continue;
    std::uint8_t kept = 0;
    a(kept);
    if (!kept) continue;  // written by its sampler before it is read
    auto& data = c.graph->values()[v].data;
    const std::size_t size = data.size();
    a.compact(data);
    if (data.size() != size)
      throw std::runtime_error("the saved state does not fit the model: `" + m.variables[v].name + "` has " +
                               std::to_string(data.size()) + " values, the model gives it " + std::to_string(size));
  }
  c.graph->update_derived();
  return completed;
}

// The rest: each sampler's own state.
void load_chain_samplers(chain& c, runtime::archive& a) {
  std::uint64_t samplers = 0;
  a(samplers);
  if (samplers != c.samplers.size()) throw std::runtime_error("the saved state does not fit the model's samplers");
  for (auto& s : c.samplers) s->persist(a);
  if (c.prediction) c.prediction->persist(a);
  if (!a.done()) throw std::runtime_error("the saved state does not fit the model's samplers");
}

// `take`: the table `data` is, to move the arrays from (when there is one chain). Returns
// the iterations the chain has done: 0, or those of the saved state it resumes.
long build_chain(chain& c, const lang::ir::model& m, const runtime::data_table& data, runtime::data_table* take,
                 const run_options& o, int index) {
  c.rng = chain_rng(o.seed, index);
  const runtime::graph_options options{.start = o.start};
  c.graph = take ? std::make_unique<runtime::graph>(m, std::move(*take), c.rng, options)
                 : std::make_unique<runtime::graph>(m, data, c.rng, options);
  const std::string* saved = o.resume && !(*o.resume)[static_cast<std::size_t>(index)].empty()
                                 ? &(*o.resume)[static_cast<std::size_t>(index)] : nullptr;
  runtime::archive state(saved ? *saved : std::string());
  const long completed = saved ? load_chain_values(c, state) : 0;
  auto assignments = plan(*c.graph, o.overrides);
  sweep_order(m, assignments);
  c.monitored = monitored_variables(m, *c.graph, o.monitors);
  // Derived variables: those a density reads are recomputed every iteration (samplers keep
  // them current themselves, but whole-model evaluations read them); those only recorded
  // (and what they read) only at the iterations that are kept. An observable such as a
  // site-energy array then costs nothing during warmup or between thinned draws.
  const std::vector<char>& density = feeding_density(*c.graph);
  std::vector<char> recorded(m.variables.size(), 0);
  for (int v : c.monitored) recorded[static_cast<std::size_t>(v)] = 1;
  c.derived_every = with_inputs(m, density);
  c.derived_kept = with_inputs(m, recorded);
  sampler_settings settings;
  settings.threads = o.threads;
  settings.heldout = o.heldout;
  settings.warmup = o.warmup;
  settings.dense_metric = o.dense_metric;
  settings.target_accept = o.target_accept;
  settings.max_depth = o.max_depth;
  settings.collapsed = o.collapsed;
  settings.seed = o.seed;
  settings.chain = index;
  settings.recorded = c.derived_kept;  // the monitored variables and what recorded derived ones read
  // The chain must start where the log density is finite (every sampler compares against
  // it): a start where it is not is chosen again, up to 100 times, unless --init gives
  // every unknown. After the first few, the unknowns that the failing terms read start as
  // Stan starts them, uniform(-2, 2) on the unconstrained scale, in place of their typical
  // values (runtime/graph_start.cpp). Samplers keep state read from the graph (LDA's
  // counts), so they are made again for each start.
  const bool fixed = c.graph->covered_by_init();
  runtime::start_options start = o.start;
  auto make_chain_samplers = [&] {
    c.samplers.clear();
    c.sampled.clear();
    c.rewritten.assign(m.variables.size(), 0);
    for (auto& made : make_samplers(*c.graph, assignments)) {
      if (made.made->values_rewritten())
        for (int v : made.variables) c.rewritten[static_cast<std::size_t>(v)] = 1;
      c.samplers.push_back(std::move(made.made));
      c.sampled.push_back(made.names);
    }
    for (auto& s : c.samplers) s->configure(settings);
    // --heldout that no sampler takes: the Normal observations' RMSE, made once, before a
    // saved state (which holds its running mean) is read.
    if (o.heldout && !c.prediction && std::none_of(c.samplers.begin(), c.samplers.end(), [](const auto& s) { return s->scores_heldout(); })) {
      runtime::rng rng = side_stream(o.seed, index, 0, 0x70726564u);
      c.prediction = std::make_unique<heldout_prediction>(*c.graph, data, *o.heldout, rng);
    }
  };
  for (int attempt = 1;; ++attempt) {
    make_chain_samplers();
    if (saved) {
      load_chain_samplers(c, state);
      break;
    }
    if (std::isfinite(log_joint(c))) break;
    // Discrete unknowns that rule out the data are repaired where the start stands before
    // it is given up (a pass over the terms, made only for a start that failed).
    if (c.graph->settle_discrete_start(c.rng)) {
      make_chain_samplers();
      if (std::isfinite(log_joint(c))) break;
    }
    if (fixed || attempt == max_initial_attempts) fail_at_start(*c.graph, fixed);
    if (attempt >= typical_attempts && !o.start.from_prior) c.graph->mark_non_finite_inputs(start.uniform);
    c.graph->start(c.rng, start);
  }
  return completed;
}

// No finite start: names the first term whose log density is not finite, and the
// instance and the reason where there is one.
[[noreturn]] void fail_at_start(runtime::graph& g, bool from_init) {
  const auto& m = g.model();
  const std::string tried = from_init ? "at the values given with --init"
                                      : "at every starting point tried (" + std::to_string(max_initial_attempts) + ")";
  for (const auto& s : m.statements) {
    if (s.which == lang::ir::statement::kind::assign) continue;
    if (auto term = g.first_non_finite(s))
      lang::fail_at(m.source, s.pos,
                    term->what + " " + tried + (term->reason.empty() ? "" : (from_init ? ", because " : ", at the last because ") + term->reason));
  }
  lang::fail_at(m.source, 0, "the log density is not finite " + tried);
}

// lp__: the log joint density, with collapsed variables' terms replaced by the
// marginal their sampler keeps (LDA: log p(w, z) with theta and phi integrated out).
double log_joint(chain& c) {
  std::vector<char> skip;
  double marginal = 0;
  for (auto& s : c.samplers) marginal += s->marginal_log_density(skip);
  return marginal + c.graph->log_density(skip);
}

// Progress reports: about every 1% of the run, and at least every 50 iterations.
long progress_every(long total) { return std::clamp(total / 100, 1L, 50L); }

// What a chain's held-out score measures: a Normal observation's RMSE, or LDA's perplexity.
std::string heldout_what(const chain& c) { return c.prediction ? c.prediction->what() : "held-out perplexity"; }

// The held-out score of chain `index` at iteration `it`, from a stream of its own so that
// asking for it leaves the draws unchanged.
double heldout_score(chain& c, const run_options& o, int index, long it) {
  if (c.prediction) return c.prediction->rmse(*c.graph);
  runtime::rng rng = side_stream(o.seed, index, it, 0x68656c64u);
  for (auto& s : c.samplers)
    if (s->scores_heldout()) return s->heldout_perplexity(rng);
  return NAN;
}

// The Hamiltonian columns of a kept iteration: those of the first Hamiltonian sampler,
// with divergent__ set when any block diverged and n_leapfrog__ summed over the blocks.
// With none: NaN where a value would be a Hamiltonian quantity, 0 for the counts.
void hamiltonian_stats(const chain& c, std::vector<double>& row) {
  const transition_stats* first = nullptr;
  double divergent = 0, leapfrogs = 0;
  for (const auto& s : c.samplers)
    if (const transition_stats* t = s->last_transition()) {
      if (!first) first = t;
      divergent = std::max(divergent, t->divergent ? 1.0 : 0.0);
      leapfrogs += static_cast<double>(t->leapfrogs);
    }
  if (!first) {
    row.insert(row.end(), {NAN, NAN, 0, 0, 0, NAN});
    return;
  }
  row.insert(row.end(), {first->accept_stat, first->step_size, static_cast<double>(first->tree_depth), leapfrogs, divergent, first->energy});
}

bool has_hamiltonian(const chain& c) {
  return std::any_of(c.samplers.begin(), c.samplers.end(), [](const auto& s) { return s->last_transition() != nullptr; });
}

// What a chain's run writes where: the writer (or none), whether rows carry the
// Hamiltonian columns, and the in-memory copy (keep_draws).
struct chain_output {
  runtime::draws_writer* writer = nullptr;
  bool hamiltonian = false;
  std::vector<double>* kept = nullptr;
};

void run_chain(chain& c, int index, const run_options& o, const chain_output& out, long& completed, double& score,
               double& warmup_seconds, double& sampling_seconds) {
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  auto phase_start = std::chrono::steady_clock::now();
  auto last_checkpoint = phase_start;
  long total = o.warmup + o.draws * o.thin;
  const long heldout_every = o.heldout_every > 0 ? o.heldout_every : std::max(1L, total / 10);
  runtime::draws_writer* writer = out.writer;
  std::vector<double> row;
  auto checkpoint = [&] {
    // After a failed write the file lacks rows the chain has made: the last state saved
    // before it is the one that agrees with the file.
    if (writer && writer->failed()) return;
    o.checkpoint(index, completed, save_chain(c, completed));
    last_checkpoint = std::chrono::steady_clock::now();
  };
  auto iteration = [&](long it) {
    bool warmup = it <= o.warmup;
    if (it == o.warmup + 1) {
      warmup_seconds = since(phase_start);
      phase_start = std::chrono::steady_clock::now();
    }
    for (auto& s : c.samplers) {
      s->step(c.rng, warmup);
      c.lp += s->last_change();
    }
    c.graph->update_derived(c.derived_every);
    completed = it;
    const bool kept = !warmup && (it - o.warmup) % o.thin == 0;
    if (kept && c.prediction) c.prediction->add(*c.graph);
    if (o.heldout && (it % heldout_every == 0 || it == total)) {
      score = heldout_score(c, o, index, it);
      const std::string what = heldout_what(c);
      if (writer) writer->note(index + 1, fmt::format("chain {} iteration {}: {} {:.6g}", index + 1, it, what, score));
      if (o.heldout_report) o.heldout_report(index, it, what, score);
    }
    const bool report = o.progress && (it % progress_every(total) == 0 || it == total);
    // The carried value is refreshed only at points every run has in common (kept rows, every
    // lp_refresh-th iteration), never for a progress report: lp__ then does not depend on
    // whether progress is shown, and a resumed run's lp__ is the uninterrupted one's.
    if (it % lp_refresh == 0 || (kept && std::isnan(c.lp))) c.lp = log_joint(c);
    const double lp = c.lp;
    if (report) o.progress(index, it, total, std::isnan(lp) ? log_joint(c) : lp);
    if (kept) {
      for (auto& s : c.samplers) s->record(it);
      c.graph->update_derived(c.derived_kept);
      row.assign(1, lp);
      if (out.hamiltonian) hamiltonian_stats(c, row);
      for (int v : c.monitored) c.graph->append_recorded(v, row);
      if (out.kept) out.kept->insert(out.kept->end(), row.begin(), row.end());
      const long draw = (it - o.warmup) / o.thin;
      if (writer && draw == 1) {
        std::vector<std::string> adapted;
        for (auto& s : c.samplers)
          for (auto& line : s->adaptation()) adapted.push_back(std::move(line));
        writer->adaptation(index + 1, adapted);
      }
      if (writer) writer->write(index + 1, draw, row.data());
    }
    if (o.checkpoint && it < total && since(last_checkpoint) >= o.checkpoint_seconds) checkpoint();
  };
  for (long it = completed + 1; it <= total && !runtime::interrupted() && !(writer && writer->failed()); ++it) {
    try {
      iteration(it);
    } catch (const lang::source_error& e) {
      // Where in the run it happened, under the message that says where in the model.
      lang::diagnostic d = e.diag();
      const std::string when = fmt::format("while sampling: chain {}, iteration {}{}", index + 1, it, it <= o.warmup ? " (warmup)" : "");
      d.note = d.note.empty() ? when : d.note + "; " + when;
      throw lang::source_error(d);
    }
  }
  if (o.checkpoint) checkpoint();
  if (completed <= o.warmup) warmup_seconds = since(phase_start);
  else sampling_seconds = since(phase_start);
  if (writer && !writer->failed()) writer->finish(index + 1, warmup_seconds, sampling_seconds);
}

// Runs fn(c) for every chain on its own thread; rethrows the first failure.
void on_threads(int chains, const std::function<void(int)>& fn) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(chains));
  std::vector<std::thread> threads;
  for (int c = 0; c < chains; ++c)
    threads.emplace_back([&, c] {
      try {
        fn(c);
      } catch (...) {
        errors[static_cast<std::size_t>(c)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

std::vector<plan_line> plan_lines(runtime::graph& g, const std::map<std::string, std::string>& overrides, collapsed_record record) {
  std::vector<plan_line> out;
  for (const auto& a : plan(g, overrides)) {
    const auto& var = g.model().variables[static_cast<std::size_t>(a.variable)];
    std::string ignored;
    const auto collapsed = a.chosen->kind() == "collapsed" ? find_collapsed(g.model(), a.variable, ignored) : std::nullopt;
    const bool integrated = collapsed && collapsed->z != a.variable;
    out.push_back({plan_label(g, a.variable), std::string(a.chosen->kind()),
                   integrated ? a.reason + "; " + collapsed_recording(var.name, record) : a.reason, var.name,
                   integrated && record == collapsed_record::means});
  }
  return out;
}

}  // namespace

std::vector<int> monitored_variables(const lang::ir::model& m, const runtime::graph& g, const std::vector<std::string>& names,
                                     std::vector<unrecorded>* left_out) {
  std::vector<int> out;
  if (!names.empty()) {
    for (const auto& n : names) {
      int v = m.find(n);
      if (v < 0) throw std::invalid_argument("--monitor: `" + n + "` is not a variable of the model");
      out.push_back(v);
    }
    return out;
  }
  // By default every unknown and derived variable small enough to list (1000 scalars);
  // larger ones (LDA's z) only on request.
  for (std::size_t v = 0; v < m.variables.size(); ++v) {
    auto r = m.variables[v].role;
    if (r != role::unknown && r != role::derived) continue;
    const auto size = static_cast<runtime::index_t>(g.recorded_elements(static_cast<int>(v)).size());
    if (size <= 1000) out.push_back(static_cast<int>(v));
    else if (left_out) left_out->push_back({m.variables[v].name, static_cast<long long>(size)});
  }
  return out;
}
std::vector<std::string> recorded_columns(const runtime::graph& g, const std::vector<int>& monitored) {
  std::vector<std::string> out;
  for (int v : monitored) {
    const auto& t = g.value(v);
    for (runtime::index_t i : g.recorded_elements(v))
      out.push_back(runtime::element_column(g.model().variables[static_cast<std::size_t>(v)].name, t.shape, i));
  }
  return out;
}

void sweep_order(const lang::ir::model& m, std::vector<assignment>& assignments) {
  // Ancestral draws last: the predictions' variables leave them out of their updates.
  std::sort(assignments.begin(), assignments.end(), [&](const assignment& a, const assignment& b) {
    const bool last_a = a.chosen->kind() == "ancestral", last_b = b.chosen->kind() == "ancestral";
    if (last_a != last_b) return last_b;
    return first_statement(m, a.variable) < first_statement(m, b.variable);
  });
}

std::vector<made_sampler> make_samplers(runtime::graph& g, const std::vector<assignment>& assignments) {
  // A kind that joins its variables into one block (NUTS) gets one sampler for all of them,
  // at the place of the first. A variable whose support's bounds follow other unknowns
  // stays on its own: its transform is read again before each update, which is right for
  // an update given those unknowns, not for one that moves them too.
  const auto& m = g.model();
  std::vector<made_sampler> out;
  std::vector<char> done(assignments.size(), 0);
  std::vector<char> joins(assignments.size());
  for (std::size_t i = 0; i < assignments.size(); ++i)
    joins[i] = assignments[i].chosen->joins_block() && (!g.support_moves(assignments[i].variable) || g.follows_bounds(assignments[i].variable));
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    if (done[i]) continue;
    const factory* f = assignments[i].chosen;
    std::vector<int> block{assignments[i].variable};
    for (std::size_t j = i + 1; joins[i] && j < assignments.size(); ++j)
      if (assignments[j].chosen == f && joins[j]) {
        block.push_back(assignments[j].variable);
        done[j] = 1;
      }
    std::string names;
    for (int v : block) names += (names.empty() ? "" : ", ") + m.variables[static_cast<std::size_t>(v)].name;
    out.push_back({f->joins_block() ? f->make_block(g, block) : f->make(g, block.front()), names, block});
  }
  for (const auto& [theta, b] : find_scale_moves(g, assignments))
    out.push_back({make_scale_move(g, theta, b),
                   m.variables[static_cast<std::size_t>(theta)].name + " with " + m.variables[static_cast<std::size_t>(b)].name + " (scale move)",
                   {theta, b}});
  return out;
}

std::vector<plan_line> describe_plan(const lang::ir::model& m, const runtime::data_table& data,
                                     const std::map<std::string, std::string>& overrides) {
  runtime::rng rng(1);
  runtime::graph g(m, data, rng);
  return plan_lines(g, overrides, collapsed_record::draws);
}

namespace {

// Builds this process's chains; returns the iterations each has done (0, or its saved
// state's). One chain takes the data's arrays (a large corpus is then held once); several
// copy them, built side by side, and the table is let go once they are built. A held-out
// prediction reads them after the graph is built: then no chain takes them. Processes that
// build their chains apart agree that all did before any row is sent.
std::vector<long> build_chains(std::vector<chain>& chains, const lang::ir::model& m, runtime::data_table data, const run_options& o) {
  std::vector<long> completed(chains.size(), 0);
  std::exception_ptr failed;
  try {
    if (o.chains == 1 && !o.heldout) {
      completed[0] = build_chain(chains[0], m, data, &data, o, 0);
    } else {
      on_threads(o.chains, [&](int c) {
        if (!o.spread || o.spread->runs(c))
          completed[static_cast<std::size_t>(c)] = build_chain(chains[static_cast<std::size_t>(c)], m, data, nullptr, o, c);
      });
    }
  } catch (...) {
    if (!o.spread) throw;
    failed = std::current_exception();
  }
  if (o.spread) o.spread->agree_built(failed);
  return completed;
}

// The chains of this process (all of them, or those a chain_spread gives it), built and
// run; the others' figures are filled by chain_spread::serve on the writing process.
run_result run_here(const lang::ir::model& m, runtime::data_table data, const run_options& o,
                    const std::function<runtime::draws_writer*(const std::vector<std::string>&, const std::vector<plan_line>&)>& open_writer) {
  std::vector<chain> chains(static_cast<std::size_t>(o.chains));
  if (o.resume && o.resume->size() != chains.size()) throw std::invalid_argument("the saved state has a different number of chains");
  const auto here = [&](int c) { return !o.spread || o.spread->runs(c); };
  const bool forwards = o.spread && !o.spread->writes();
  int first = 0;
  while (!here(first)) ++first;
  run_result result;
  result.completed = build_chains(chains, m, std::move(data), o);
  const chain& lead = chains[static_cast<std::size_t>(first)];
  result.plan = plan_lines(*lead.graph, o.overrides, o.collapsed);
  monitored_variables(m, *lead.graph, o.monitors, &result.left_out);
  const bool hamiltonian = o.hamiltonian_columns || has_hamiltonian(lead);
  result.columns.push_back("lp__");
  if (hamiltonian) result.columns.insert(result.columns.end(), runtime::hamiltonian_columns().begin(), runtime::hamiltonian_columns().end());
  for (auto& c : recorded_columns(*lead.graph, lead.monitored)) result.columns.push_back(std::move(c));
  const bool keep = !open_writer && !forwards;
  if (keep) {
    result.draws.columns = result.columns;
    result.draws.chains.resize(chains.size());
    if (o.resumed_draws) {
      if (o.resumed_draws->columns != result.columns) throw std::invalid_argument("the draws file's columns are not the model's");
      for (std::size_t c = 0; c < chains.size() && c < o.resumed_draws->chains.size(); ++c)
        result.draws.chains[c] = o.resumed_draws->chains[c];
    }
  }
  result.heldout_score.assign(chains.size(), NAN);
  if (o.heldout)
    result.heldout_what = heldout_what(lead) + (lead.prediction ? "" : " (document completion)");
  result.warmup_seconds.assign(chains.size(), 0.0);
  result.sampling_seconds.assign(chains.size(), 0.0);
  result.reports.assign(chains.size(), {});
  runtime::draws_writer* writer = forwards ? o.spread->forward_writer(result.columns.size())
                                  : open_writer ? open_writer(result.columns, result.plan) : nullptr;
  // The writing process of an MPI job receives the other processes' rows while its own
  // chains run; a failure here stops them before it is thrown, and one there (another
  // process's chain failed) is thrown once this process's chains have stopped.
  std::thread server;
  std::exception_ptr served;
  if (o.spread && !forwards)
    server = std::thread([&] {
      try {
        o.spread->serve(writer, o, result);
      } catch (...) {
        served = std::current_exception();
      }
    });
  try {
    on_threads(o.chains, [&](int c) {
      if (!here(c)) return;
      const auto k = static_cast<std::size_t>(c);
      const chain_output out{writer, hamiltonian, keep ? &result.draws.chains[k] : nullptr};
      run_chain(chains[k], c, o, out, result.completed[k], result.heldout_score[k], result.warmup_seconds[k],
                result.sampling_seconds[k]);
    });
  } catch (...) {
    if (server.joinable()) o.spread->stop(), server.join();
    throw;
  }
  if (server.joinable()) server.join();
  if (served) std::rethrow_exception(served);
  if (writer) writer->flush();
  result.interrupted = result.interrupted || runtime::interrupted();
  for (std::size_t c = 0; c < chains.size(); ++c) {
    if (!here(static_cast<int>(c))) continue;
    for (std::size_t k = 0; k < chains[c].samplers.size(); ++k) {
      std::string r = chains[c].samplers[k]->report();
      if (!r.empty()) result.reports[c].push_back(chains[c].sampled[k] + ": " + r);
    }
  }
  return result;
}

}  // namespace

run_result run(const lang::ir::model& m, runtime::data_table data, const run_options& o,
               const std::function<runtime::draws_writer*(const std::vector<std::string>&, const std::vector<plan_line>&)>& open_writer) {
  if (!o.spread || o.spread->writes()) return run_here(m, std::move(data), o, open_writer);
  // A process that forwards its chains reports their end, or their failure, to the writer.
  run_result r;
  try {
    r = run_here(m, std::move(data), o, open_writer);
  } catch (...) {
    o.spread->report_failure(std::current_exception());
    throw;
  }
  o.spread->report(r);
  return r;
}

}  // namespace ppl::samplers
