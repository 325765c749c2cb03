// The chain engine's run: chains built side by side and run on threads (or spread over
// processes), each iteration's sweep of samplers, lp__ carried from their changes, the
// kept rows streamed to the draws writer, progress, held-out scores and checkpoints.
#include "inference/chain.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "core/interrupt.hpp"
#include "core/source_error.hpp"
#include "stdlib/checks.hpp"
#include "draws/writer.hpp"
#include "inference/chain_internal.hpp"

namespace ppl::inference {

// lp__: the log joint density, with collapsed variables' terms replaced by the
// marginal their sampler keeps (LDA: log p(w, z) with theta and phi integrated out).
double log_joint(chain& c) {
  std::vector<char> skip;
  double marginal = 0;
  for (auto& s : c.samplers) marginal += s->marginal_log_density(skip);
  return marginal + c.graph->log_density(skip);
}

namespace {

// lp__ is recomputed in full at least every this many iterations, so that rounding in the
// sum of changes stays far below the digits written; at fixed iterations, so that a
// resumed run makes the same values.
constexpr long lp_refresh = 1000;

// Progress reports: about every 1% of the run, and at least every 50 iterations.
long progress_every(long total) { return std::clamp(total / 100, 1L, 50L); }

// What a chain's held-out score measures: a Normal observation's RMSE, or LDA's perplexity.
std::string heldout_what(const chain& c) { return c.prediction ? c.prediction->what() : "held-out perplexity"; }

// The held-out score of chain `index` at iteration `it`, from a stream of its own so that
// asking for it leaves the draws unchanged.
double heldout_score(chain& c, const run_options& o, int index, long it) {
  if (c.prediction) return c.prediction->rmse(*c.graph);
  ppl::rng rng = samplers::side_stream(o.seed, index, it, 0x68656c64u);
  for (auto& s : c.samplers)
    if (s->scores_heldout()) return s->heldout_perplexity(rng);
  return NAN;
}

// The Hamiltonian columns of a kept iteration: those of the first Hamiltonian sampler,
// with divergent__ set when any block diverged and n_leapfrog__ summed over the blocks.
// With none: NaN where a value would be a Hamiltonian quantity, 0 for the counts.
void hamiltonian_stats(const chain& c, std::vector<double>& row) {
  const samplers::transition_stats* first = nullptr;
  double divergent = 0, leapfrogs = 0;
  for (const auto& s : c.samplers)
    if (const samplers::transition_stats* t = s->last_transition()) {
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

// The model's print(...) statements at a kept draw, to standard error, a line a statement
// (lang/prints.hpp): "print at line 7, chain 1, draw 12: mu = 0.53; b[i] = [0.1, 0.2] (by i)".
// A print of data alone at the chain's first draw only. Lines of chains on other threads
// are not interleaved.
void print_values(const chain& c, int index, long draw) {
  static std::mutex out;
  const auto& m = c.graph->model();
  auto value = [&](const ppl::tensor& t) {
    if (t.shape.rank == 0) return stdlib::format_number(t.data[0]);
    std::string s;
    for (double x : t.data) s += (s.empty() ? "" : ", ") + stdlib::format_number(x);
    return "[" + s + "]";
  };
  for (std::size_t k = 0; k < m.prints.size();) {
    const std::size_t pos = m.prints[k].pos;
    std::string line;
    bool varies = false;
    for (; k < m.prints.size() && m.prints[k].pos == pos; ++k) {
      const auto& p = m.prints[k];
      varies = varies || m.variables[static_cast<std::size_t>(p.variable)].role == lang::ir::role::derived;
      line += fmt::format("{}{} = {}{}", line.empty() ? "" : "; ", p.label, value(c.graph->value(p.variable)),
                          p.loops.empty() ? "" : " (by " + p.loops + ")");
    }
    if (!varies && draw != 1) continue;
    const std::lock_guard<std::mutex> lock(out);
    fmt::print(stderr, "print at line {}, chain {}, draw {}: {}\n", m.lines.locate(pos).line, index + 1, draw, line);
  }
}

// What a chain's run writes where: the writer (or none), whether rows carry the
// Hamiltonian columns, and the in-memory copy (keep_draws).
struct chain_output {
  draws::draws_writer* writer = nullptr;
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
  draws::draws_writer* writer = out.writer;
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
    c.trial.before(*c.graph);
    for (std::size_t k = 0; k < c.samplers.size(); ++k) {
      if (!c.trial.steps(k, it)) continue;
      c.samplers[k]->step(c.rng, warmup);
      c.lp += c.samplers[k]->last_change();
    }
    c.trial.after(*c.graph, it);
    c.graph->update_derived(c.derived_every);
    if (warmup) restart_stranded(c, o, index, it);
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
      const long draw = (it - o.warmup) / o.thin;
      if (!c.graph->model().prints.empty()) print_values(c, index, draw);
      row.assign(1, lp);
      if (out.hamiltonian) hamiltonian_stats(c, row);
      if (c.deviance) {
        row.push_back(c.deviance->deviance());
        c.deviance->record(draw);
      }
      for (int v : c.monitored) c.graph->append_recorded(v, row);
      if (out.kept) out.kept->insert(out.kept->end(), row.begin(), row.end());
      if (writer && draw == 1) {
        std::vector<std::string> adapted;
        for (auto& s : c.samplers)
          for (auto& line : s->adaptation()) adapted.push_back(std::move(line));
        if (!c.trial.verdict().empty()) adapted.push_back("plan: " + c.trial.verdict());
        if (!c.start_report.empty()) adapted.push_back("start: " + c.start_report);
        writer->adaptation(index + 1, adapted);
      }
      if (writer) writer->write(index + 1, draw, row.data());
    }
    if (o.checkpoint && it < total && since(last_checkpoint) >= o.checkpoint_seconds) checkpoint();
  };
  for (long it = completed + 1; it <= total && !ppl::interrupted() && !(writer && writer->failed()); ++it) {
    try {
      iteration(it);
    } catch (const ppl::source_error& e) {
      // Where in the run it happened, under the message that says where in the model.
      ppl::diagnostic d = e.diag();
      const std::string when = fmt::format("while sampling: chain {}, iteration {}{}", index + 1, it, it <= o.warmup ? " (warmup)" : "");
      d.note = d.note.empty() ? when : d.note + "; " + when;
      throw ppl::source_error(d);
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


// Builds this process's chains; returns the iterations each has done (0, or its saved
// state's). One chain takes the data's arrays (a large corpus is then held once); several
// copy them, built side by side, and the table is let go once they are built. A held-out
// prediction reads them after the graph is built: then no chain takes them. Processes that
// build their chains apart agree that all did before any row is sent.
std::vector<long> build_chains(std::vector<chain>& chains, const lang::ir::model& m, data::data_table data, const run_options& o) {
  std::vector<long> completed(chains.size(), 0);
  std::exception_ptr failed;
  try {
    if (o.chains == 1) {
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

// --dic: JAGS's pD and the deviance at the posterior means from this process's chains,
// which need every chain.
dic_penalties dic_of(std::vector<chain>& chains, const run_options& o) {
  if (o.spread) {
    dic_penalties none;
    none.jags_note = none.mean_note = "needs every chain in one process";
    return none;
  }
  std::vector<deviance_record*> records;
  for (auto& c : chains)
    if (c.deviance) records.push_back(c.deviance.get());
  ppl::rng rng = samplers::side_stream(o.seed, 0, 0, 0x646963u);  // "dic"
  return penalties(records, rng);
}

// The chains of this process (all of them, or those a chain_spread gives it), built and
// run; the others' figures are filled by chain_spread::serve on the writing process.
run_result run_here(const lang::ir::model& m, data::data_table data, const run_options& o,
                    const std::function<draws::draws_writer*(const std::vector<std::string>&, const std::vector<plan_line>&)>& open_writer) {
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
  if (hamiltonian) result.columns.insert(result.columns.end(), draws::hamiltonian_columns().begin(), draws::hamiltonian_columns().end());
  if (o.dic) {
    result.columns.push_back("deviance");
    for (auto& c : chains)
      if (c.graph) c.deviance = std::make_unique<deviance_record>(*c.graph, o.draws, o.chains);
  }
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
  draws::draws_writer* writer = forwards ? o.spread->forward_writer(result.columns.size())
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
  result.interrupted = result.interrupted || ppl::interrupted();
  for (std::size_t c = 0; c < chains.size(); ++c) {
    if (!here(static_cast<int>(c))) continue;
    for (std::size_t k = 0; k < chains[c].samplers.size(); ++k) {
      std::string r = chains[c].samplers[k]->report();
      if (!r.empty()) result.reports[c].push_back(chains[c].sampled[k] + ": " + r);
    }
    if (!chains[c].trial.verdict().empty()) result.reports[c].push_back("plan: " + chains[c].trial.verdict());
    if (!chains[c].start_report.empty()) result.reports[c].push_back("start: " + chains[c].start_report);
  }
  if (o.dic) result.dic = dic_of(chains, o);
  return result;
}

}  // namespace

run_result run(const lang::ir::model& m, data::data_table data, const run_options& o,
               const std::function<draws::draws_writer*(const std::vector<std::string>&, const std::vector<plan_line>&)>& open_writer) {
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

}  // namespace ppl::inference
