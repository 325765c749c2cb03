// `ppl infer`: run the chains, stream the draws, print the summary; and `ppl plan`.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include "cli/resume.hpp"
#include "cli/session.hpp"
#include "cli/summary_table.hpp"
#include "runtime/interrupt.hpp"
#include "runtime/version.hpp"
#include "samplers/chain.hpp"

namespace ppl::cli {

namespace {

std::map<std::string, std::string> parse_overrides(const std::vector<std::string>& specs) {
  std::map<std::string, std::string> out;
  for (const auto& s : specs) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw std::invalid_argument("--sampler " + s + ": expected NAME=KIND, e.g. --sampler theta=slice");
    out[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return out;
}

// One status line on a terminal: progress and the latest lp__ per chain, speed and time
// left.
class progress_display {
 public:
  progress_display(int chains, bool enabled)
      : done_(static_cast<std::size_t>(chains), 0), lp_(static_cast<std::size_t>(chains), NAN), enabled_(enabled) {}
  void update(int chain, long done, long total, double lp) {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    done_[static_cast<std::size_t>(chain)] = done;
    lp_[static_cast<std::size_t>(chain)] = lp;
    long sum = 0;
    std::string parts;
    for (std::size_t c = 0; c < done_.size(); ++c) {
      sum += done_[c];
      parts += fmt::format(" {}:{:3.0f}% lp__ {:.7g}", c + 1, 100.0 * static_cast<double>(done_[c]) / static_cast<double>(total), lp_[c]);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double rate = static_cast<double>(sum) / std::max(seconds, 1e-9);
    double left = (static_cast<double>(total) * static_cast<double>(done_.size()) - static_cast<double>(sum)) / std::max(rate, 1e-9);
    fmt::print(stderr, "\rchains{} | {:.0f} it/s | {:.0f} s left   ", parts, rate, left);
  }
  void finish() {
    if (enabled_) fmt::print(stderr, "\n");
  }
  // A line of its own above the status line.
  void note(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    fmt::print(stderr, "{}{}\n", enabled_ ? "\r\033[K" : "", text);
  }

 private:
  std::vector<long> done_;
  std::vector<double> lp_;
  bool enabled_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::vector<std::string> metadata(const model_inputs& in, const infer_options& o, const std::vector<samplers::plan_line>& plan) {
  std::vector<std::string> lines = {fmt::format("ppl {}", runtime::version()), "model: " + in.model_path,
                                    "data: " + (in.data_path.empty() ? std::string("(none)") : in.data_path)};
  for (const auto& s : in.sets) lines.push_back("set: " + s);
  lines.push_back(fmt::format("seed: {}", o.run.seed));
  lines.push_back(fmt::format("chains: {}, warmup: {}, draws: {}, thin: {}, threads per chain: {}", o.run.chains, o.run.warmup,
                              o.run.draws, o.run.thin, o.run.threads));
  for (const auto& p : plan) lines.push_back("sampler: " + p.variable + " " + p.kind + " (" + p.reason + ")");
  return lines;
}

}  // namespace

int run_infer(const model_inputs& in, const infer_options& o) {
  return guarded([&] { return infer_loaded(load(in), in, o, nullptr); });
}

int infer_loaded(loaded l, const model_inputs& in, const infer_options& o, runtime::draws* keep) {
  {
    runtime::data_table init, heldout;
    if (!o.init.empty()) init = runtime::read_data_file(o.init);
    if (!o.heldout.empty()) heldout = runtime::read_data_file(o.heldout);
    samplers::run_options ro = o.run;
    ro.dense_metric = o.metric == "dense";
    ro.monitors = o.monitor;
    ro.overrides = parse_overrides(o.samplers);
    ro.init = o.init.empty() ? nullptr : &init;
    ro.heldout = o.heldout.empty() ? nullptr : &heldout;
    progress_display progress(o.run.chains, !o.quiet && isatty(STDERR_FILENO));
    if (!o.quiet)
      ro.heldout_report = [&](int c, long it, double perplexity) {
        progress.note(fmt::format("chain {} iteration {}: held-out perplexity {:.6g}", c + 1, it, perplexity));
      };
    if (!o.quiet && isatty(STDERR_FILENO))
      ro.progress = [&](int c, long done, long total, double lp) { progress.update(c, done, total, lp); };
    runtime::install_interrupt_handlers();
    std::unique_ptr<runtime::draws_writer> writer;
    auto format = o.format == "stan" ? runtime::draws_format::stan : runtime::draws_format::ppl;
    // The run's saved state (cli/resume.hpp): continued from --resume, or begun here.
    const bool saving = !o.args.empty() && !o.output.empty();
    saved_run state;
    std::vector<std::string> resume_from;
    runtime::draws earlier;
    if (o.resume) {
      state = *o.resume;
      earlier = cut_draws(o.output, state, format);
      resume_from = state.chains;
      ro.resume = &resume_from;
      ro.resumed_draws = &earlier;
    } else if (saving) {
      state.args = o.args;
      state.directory = std::filesystem::current_path().string();
      state.model_hash = file_fingerprint(in.model_path);
      state.data_hash = file_fingerprint(in.data_path);
      state.warmup = o.run.warmup;
      state.thin = o.run.thin;
      state.completed.assign(static_cast<std::size_t>(o.run.chains), 0);
      state.chains.assign(static_cast<std::size_t>(o.run.chains), std::string());
    }
    std::mutex state_mutex;
    bool save_failed = false;
    if (saving) {
      ro.checkpoint_seconds = o.checkpoint_every;
      ro.checkpoint = [&](int c, long done, const std::string& chain_state) {
        std::lock_guard<std::mutex> lock(state_mutex);
        state.completed[static_cast<std::size_t>(c)] = done;
        state.chains[static_cast<std::size_t>(c)] = chain_state;
        if (writer) writer->flush();  // the draws the state counts are on disk before it is
        try {
          write_saved_run(state_path(o.output), state);
        } catch (const std::exception& e) {
          if (!save_failed) progress.note(fmt::format("warning: the run's state is not saved: {}", e.what()));
          save_failed = true;
        }
      };
    }
    samplers::run_result r = samplers::run(*l.model, std::move(l.data), ro, [&](const std::vector<std::string>& columns, const std::vector<samplers::plan_line>& plan) {
      std::vector<std::string> names = columns;
      if (format == runtime::draws_format::stan)
        for (auto& n : names) {
          std::replace(n.begin(), n.end(), '[', '.');
          std::replace(n.begin(), n.end(), ',', '.');
          n.erase(std::remove(n.begin(), n.end(), ']'), n.end());
        }
      writer = std::make_unique<runtime::draws_writer>(o.output, format, o.run.chains, metadata(in, o, plan), names,
                                                       o.resume != nullptr);
      if (o.resume)
        for (std::size_t c = 0; c < state.completed.size(); ++c)
          writer->note(static_cast<int>(c) + 1, fmt::format("chain {} iteration {}: resumed", c + 1, state.completed[c]));
      return writer.get();
    });
    progress.finish();
    writer.reset();
    if (!o.quiet)
      for (const auto& p : r.plan) fmt::print("# {:<24} {:<10} {}\n", p.variable, p.kind, p.reason);
    if (r.interrupted) {
      std::string done;
      for (std::size_t c = 0; c < r.completed.size(); ++c) done += fmt::format("{}chain {}: {} iterations", c ? ", " : "", c + 1, r.completed[c]);
      fmt::print(stderr, "interrupted: {}; every finished draw is kept{}\n", done, o.output.empty() ? "" : " in " + o.output);
      if (saving && !save_failed) fmt::print(stderr, "continue with: ppl infer --resume {}\n", o.output);
    }
    bool enough = true;
    for (std::size_t c = 0; c < r.draws.chains.size(); ++c) enough = enough && r.draws.rows(c) >= 4;
    if (enough) {
      auto warnings = print_summary(r.draws, {20, o.show, want_histograms(o.histograms)});
      // Collapsed theta and phi with --collapsed means: each recorded value is E[theta | z],
      // whose spread is narrower than the posterior's; the summary's sd and quantiles would
      // mislead unsaid.
      for (const auto& p : r.plan)
        if (p.means && std::any_of(r.draws.columns.begin(), r.draws.columns.end(),
                                   [&](const std::string& c) { return runtime::column_variable(c) == p.name; }))
          warnings.push_back(fmt::format("{0} holds Rao-Blackwellised means E[{0} | z] (--collapsed means), not draws: their mean "
                                         "estimates the posterior mean, their sd and quantiles understate the posterior's "
                                         "(without --collapsed means, {0} is recorded as draws)",
                                         p.name));
      for (std::size_t c = 0; c < r.reports.size(); ++c)
        for (const auto& rep : r.reports[c]) fmt::print("# chain {} {}\n", c + 1, rep);

      for (const auto& w : warnings) fmt::print(stderr, "warning: {}\n", w);
      if (ro.heldout)
        for (std::size_t c = 0; c < r.heldout_perplexity.size(); ++c)
          fmt::print("# chain {} held-out perplexity (document completion): {:.6g}\n", c + 1, r.heldout_perplexity[c]);
    } else {
      fmt::print(stderr, "warning: too few draws for a summary (it needs at least 4 per chain)\n");
    }
    for (std::size_t c = 0; c < r.warmup_seconds.size(); ++c)
      fmt::print("# chain {} elapsed: warmup {:.3f} s, sampling {:.3f} s\n", c + 1, r.warmup_seconds[c], r.sampling_seconds[c]);
    if (keep) *keep = std::move(r.draws);
    return r.interrupted ? 130 : 0;
  }
}

int resume_infer(const std::string& draws_path, const infer_options& current) {
  return guarded([&] {
    const saved_run saved = read_saved_run(state_path(draws_path));
    const std::string draws = std::filesystem::absolute(draws_path).string();
    std::error_code ec;
    std::filesystem::current_path(saved.directory, ec);
    if (ec) throw std::invalid_argument("--resume: cannot enter " + saved.directory + ", the directory the run began in");
    model_inputs in;
    infer_options o;
    parse_infer_arguments(saved.args, in, o);
    o.quiet = current.quiet;
    o.histograms = current.histograms;
    if (!current.show.empty()) o.show = current.show;
    o.output = draws;
    o.args = saved.args;
    o.resume = &saved;
    if (saved.chains.size() != static_cast<std::size_t>(o.run.chains))
      throw std::invalid_argument("--resume: the saved state has " + std::to_string(saved.chains.size()) + " chains, the run's arguments " +
                                  std::to_string(o.run.chains));
    const auto format = o.format == "stan" ? runtime::draws_format::stan : runtime::draws_format::ppl;
    const std::vector<std::string> given = runtime::draws_paths(draws_path, format, o.run.chains);
    const std::vector<std::string> files = runtime::draws_paths(draws, format, o.run.chains);
    for (std::size_t i = 0; i < files.size(); ++i)
      if (!std::filesystem::exists(files[i]))
        throw std::invalid_argument("--resume: the draws file " + given[i] + " is gone; the run continues only with the draws it has written");
    for (const auto& [path, hash] : {std::pair{in.model_path, saved.model_hash}, std::pair{in.data_path, saved.data_hash}})
      if (file_fingerprint(path) != hash)
        throw std::invalid_argument("--resume: " + path + " has changed since the run began; a run continues only with the model and data it began with");
    return infer_loaded(load(in), in, o, nullptr);
  });
}

int run_plan(const model_inputs& in, const std::vector<std::string>& overrides) {
  return guarded([&] {
    loaded l = load(in);
    for (const auto& p : samplers::describe_plan(*l.model, l.data, parse_overrides(overrides)))
      fmt::print("{:<28} {:<10} {}\n", p.variable, p.kind, p.reason);
    return 0;
  });
}

int run_summary(const std::string& path, const std::vector<std::string>& show, bool histograms) {
  return guarded([&] {
    std::vector<std::string> meta;
    runtime::draws d = runtime::read_draws(path, meta);
    for (const auto& m : meta) fmt::print("# {}\n", m);
    for (const auto& w : print_summary(d, {20, show, want_histograms(histograms)})) fmt::print(stderr, "warning: {}\n", w);
    return 0;
  });
}

}  // namespace ppl::cli
