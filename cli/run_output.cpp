#include "cli/run_output.hpp"

#include <fmt/core.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "draws/coda_writer.hpp"
#include "core/archive.hpp"
#include "core/interrupt.hpp"
#include "core/version.hpp"

namespace ppl::cli {

namespace {

std::vector<std::string> ppl_comments(const model_inputs& in, const infer_options& o, const std::vector<inference::plan_line>& plan) {
  std::vector<std::string> lines = identity_comments(in, o.run.seed);
  lines.push_back("init: " + o.init);
  lines.push_back(fmt::format("chains: {}, warmup: {}, draws: {}, thin: {}, threads per chain: {}", o.run.chains, o.run.warmup,
                              o.run.draws, o.run.thin, o.run.threads));
  lines.push_back(fmt::format("nuts and hmc: max_depth: {}, target_accept: {}, metric: {}", o.run.max_depth, o.run.target_accept,
                              o.metric));
  for (const auto& p : plan) lines.push_back("sampler: " + p.variable + " " + p.kind + " (" + p.reason + ")");
  return lines;
}

// CmdStan's configuration block, with ppl's settings where CmdStan has the setting and its
// own defaults (marked so) where ppl has the same fixed value. The sampler is NUTS when a
// block of the model runs it (static HMC when `hmc` does); the plan lines after it say
// which sampler drew each variable.
std::vector<std::string> stan_comments(const model_inputs& in, const infer_options& o, const std::vector<inference::plan_line>& plan,
                                       int chain, const std::string& path) {
  const bool hmc = std::any_of(plan.begin(), plan.end(), [](const auto& p) { return p.kind == "hmc"; });
  std::vector<std::string> lines = {
      fmt::format("Written by ppl {} in CmdStan's layout (the stan_version lines give the layout's version)", ppl::version()),
      "stan_version_major = 2", "stan_version_minor = 21", "stan_version_patch = 0",
      "model = " + std::filesystem::path(in.model_path).stem().string(),
      "method = sample (Default)", "  sample",
      fmt::format("    num_samples = {}", o.run.draws * o.run.thin), fmt::format("    num_warmup = {}", o.run.warmup),
      "    save_warmup = 0 (Default)", fmt::format("    thin = {}", o.run.thin), "    adapt",
      fmt::format("      engaged = {}", o.run.warmup > 0 ? 1 : 0), "      gamma = 0.05 (Default)",
      fmt::format("      delta = {}", o.run.target_accept), "      kappa = 0.75 (Default)", "      t0 = 10 (Default)",
      "      init_buffer = 75 (Default)", "      term_buffer = 50 (Default)", "      window = 25 (Default)",
      "    algorithm = hmc (Default)", "      hmc", hmc ? "        engine = static" : "        engine = nuts (Default)"};
  if (!hmc) {
    lines.push_back("          nuts");
    lines.push_back(fmt::format("            max_depth = {}", o.run.max_depth));
  }
  lines.push_back(o.metric == "dense" ? "        metric = dense_e" : o.metric == "diag" ? "        metric = diag_e (Default)"
                                                                  : "        metric = diag_e (Default; ppl's auto: dense_e where warmup chose it, as the adaptation lines say)");
  lines.push_back("        metric_file =  (Default)");
  lines.push_back("        stepsize = 1 (Default)");
  lines.push_back(hmc ? "        stepsize_jitter = 0.2" : "        stepsize_jitter = 0 (Default)");
  lines.push_back("    num_chains = 1 (Default)");
  lines.push_back(fmt::format("id = {}", chain));
  lines.push_back("data");
  lines.push_back("  file = " + in.data_path);
  lines.push_back("init = " + o.init);
  lines.push_back("random");
  lines.push_back(fmt::format("  seed = {}", o.run.seed));
  lines.push_back("output");
  lines.push_back("  file = " + path);
  lines.push_back("  diagnostic_file =  (Default)");
  lines.push_back("  refresh = 100 (Default)");
  lines.push_back(fmt::format("num_threads = {}", o.run.threads));
  for (const auto& p : plan) lines.push_back("ppl sampler: " + p.variable + " " + p.kind + " (" + p.reason + ")");
  return lines;
}

}  // namespace

std::vector<std::string> identity_comments(const model_inputs& in, std::uint64_t seed) {
  std::vector<std::string> lines = {fmt::format("ppl {}", ppl::version()), "model: " + in.model_path,
                                    "data: " + (in.data_path.empty() ? std::string("(none)") : in.data_path)};
  for (const auto& s : in.sets) lines.push_back("set: " + s);
  lines.push_back(fmt::format("seed: {}", seed));
  return lines;
}

std::vector<std::vector<std::string>> draws_comments(const model_inputs& in, const infer_options& o,
                                                     const std::vector<inference::plan_line>& plan, draws::draws_format format,
                                                     const std::vector<std::string>& paths) {
  if (format != draws::draws_format::stan) return {ppl_comments(in, o, plan)};
  std::vector<std::vector<std::string>> out;
  for (std::size_t c = 0; c < paths.size(); ++c) out.push_back(stan_comments(in, o, plan, static_cast<int>(c) + 1, paths[c]));
  return out;
}

infer_options coda_output(infer_options o) {
  if (o.format != "coda") return o;
  if (o.output.empty())
    throw std::invalid_argument("--format coda writes files named after --output (-o out/CODA: out/CODAindex.txt, "
                                "out/CODAchain1.txt, ...); name them with --output");
  if (o.output == "-")
    throw std::invalid_argument("--format coda writes several files, not standard output; name them with --output (-o out/CODA)");
  o.output = draws::coda_draws_path(o.output);
  return o;
}

draws::draws_format format_of(const infer_options& o) {
  return o.format == "stan" ? draws::draws_format::stan : o.format == "coda" ? draws::draws_format::coda : draws::draws_format::ppl;
}

std::vector<std::string> draws_outputs(const infer_options& o, int chains) {
  std::vector<std::string> out = draws::draws_paths(o.output, format_of(o), chains);
  if (format_of(o) == draws::draws_format::coda)
    for (const auto& p : draws::coda_paths(draws::coda_stem(o.output), chains)) out.push_back(p);
  return out;
}

int write_coda_files(const draws::draws_source& draws, const infer_options& o, bool saved,
                     const std::map<std::string, std::string>& spelled) {
  const std::string again = saved ? "; write them with: ppl infer --resume " + o.output : "";
  try {
    if (draws::write_coda(draws, draws::coda_stem(o.output), {o.run.warmup, o.run.thin}, ppl::interrupted, draws::draws_budget, spelled))
      return 0;
    fmt::print(stderr, "interrupted while writing the CODA files: none is written; the draws are whole in {}{}\n", o.output, again);
    return 130;
  } catch (const draws::write_error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    fmt::print(stderr, "note: no CODA file is written; the draws are whole in {}{}\n", o.output,
               saved ? "; once there is room, write them with: ppl infer --resume " + o.output : "");
    return 1;
  }
}

void write_replacing(const std::string& path, const std::string& what, const std::function<void(std::ostream&)>& write) {
  const std::string temporary = path + ".tmp";
  auto fail = [&](const std::string& reason) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write " + what + path + ": " + reason);
  };
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) fail(std::strerror(errno));
    errno = 0;
    write(out);
    out.flush();
    if (!out) fail(errno ? std::strerror(errno) : "write failed");
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) fail(ec.message());
}

void refuse_overwriting_inputs(const std::string& option, const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  for (const auto& out : outputs)
    for (const auto& in : inputs) {
      if (in.empty() || out.empty()) continue;
      std::error_code ec;
      const bool same = fs::weakly_canonical(out, ec) == fs::weakly_canonical(in, ec) ||
                        (fs::exists(out, ec) && fs::exists(in, ec) && fs::equivalent(out, in, ec));
      if (same)
        throw std::invalid_argument(option + " " + out + " is " + (out == in ? "" : "the same file as ") + "an input of this run (" +
                                    in + "), which it would replace; write the output elsewhere");
    }
}

temporary_file::temporary_file(const std::string& stem) {
  std::error_code ec;
  std::string pattern = (std::filesystem::temp_directory_path(ec) / (stem + "XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("cannot make a temporary file " + pattern + ": " + std::strerror(errno));
  ::close(fd);
  path_ = pattern;
}

temporary_file::~temporary_file() {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

// ---- saved runs ----
namespace {

// The format's number follows the words: 2 stores integers compact and leaves out values
// no chain needs (inference/chain.cpp).
constexpr std::string_view magic_words = "ppl saved run ";
constexpr std::string_view magic = "ppl saved run 2\n";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The leading integer of `text` at `pos` (advanced past it), or false.
bool integer_at(std::string_view text, std::size_t& pos, long& value) {
  auto r = std::from_chars(text.data() + pos, text.data() + text.size(), value);
  if (r.ec != std::errc()) return false;
  pos = static_cast<std::size_t>(r.ptr - text.data());
  return true;
}

}  // namespace

std::string state_path(const std::string& draws_path) { return draws_path + ".state"; }

void write_saved_run(const std::string& path, const saved_run& s) {
  // The small fields through an archive; the chains' states (LDA's: tens of MB each)
  // straight from where they are held.
  ppl::archive a;
  a.write(s.args, s.directory, s.model_hash, s.data_hash, s.warmup, s.thin, s.completed);
  write_replacing(path, "the saved state ", [&](std::ostream& out) {
    out << magic << a.bytes();
    ppl::archive::write_strings(out, s.chains);
  });
}

saved_run read_saved_run(const std::string& path) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe)
    throw std::invalid_argument("--resume: there is no saved state " + path +
                                " (a run saves one beside its draws file when it writes one with --output)");
  const std::string bytes = read_file(path);
  if (bytes.compare(0, magic_words.size(), magic_words) != 0) throw std::invalid_argument("--resume: " + path + " is not a saved run of ppl");
  if (bytes.compare(0, magic.size(), magic) != 0)
    throw std::invalid_argument("--resume: " + path + " was saved by another version of ppl, whose saved runs this one cannot read; " +
                                "start the run again without --resume");
  saved_run s;
  try {
    ppl::archive a(bytes.substr(magic.size()));
    a(s.args, s.directory, s.model_hash, s.data_hash, s.warmup, s.thin, s.completed, s.chains);
    if (!a.done() || s.completed.size() != s.chains.size()) throw std::runtime_error("");
  } catch (const std::runtime_error&) {
    throw std::invalid_argument("--resume: the saved state " + path + " is truncated or corrupt");
  }
  return s;
}

std::uint64_t file_fingerprint(const std::string& path) {
  if (path.empty()) return 0;
  // FNV-1a over the bytes, read a block at a time: a data file of gigabytes is not held.
  std::uint64_t h = 1469598103934665603ull;
  std::ifstream in(path, std::ios::binary);
  std::vector<char> block(std::size_t{1} << 16);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    for (std::streamsize k = 0; k < in.gcount(); ++k) h = (h ^ static_cast<unsigned char>(block[static_cast<std::size_t>(k)])) * 1099511628211ull;
  }
  return h;
}

namespace {

// A note about a chain's iteration, "# chain C iteration I: ..." (held-out scores): its
// chain and iteration, or false.
bool iteration_note(std::string_view line, long& chain, long& iteration) {
  std::size_t at = 8;
  if (!line.starts_with("# chain ") || !integer_at(line, at, chain) || !line.substr(at).starts_with(" iteration ")) return false;
  at += 11;
  return integer_at(line, at, iteration);
}

// Cuts one draws file back to the rows the state counts. In ppl's layout (`chain` 0)
// each row starts with its chain and draw number, and notes about iterations not counted
// go. In Stan's, the file is chain `chain`'s and rows are its draws in order; no comment
// may stand among its rows, so only the adaptation block before the first row stays, and
// the notes of counted iterations are returned, to be written again at the end.
std::vector<std::string> cut_file(const std::string& path, const saved_run& s, long chain) {
  const std::string text = read_file(path);
  if (text.empty()) throw std::invalid_argument("--resume: cannot read the draws file " + path);
  auto counted = [&](long c, long iteration) {
    return c >= 1 && static_cast<std::size_t>(c) <= s.completed.size() && iteration <= s.completed[static_cast<std::size_t>(c - 1)];
  };
  auto kept = [&](long c) -> long {
    if (c < 1 || static_cast<std::size_t>(c) > s.completed.size()) return -1;
    const long done = s.completed[static_cast<std::size_t>(c - 1)];
    return done > s.warmup ? (done - s.warmup) / s.thin : 0;
  };
  std::string out;
  out.reserve(text.size());
  std::vector<std::string> notes;
  bool header = false, adaptation = false;
  long rows = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a row cut short by a kill: not counted
    const std::string_view line(text.data() + pos, end - pos);
    const bool comment = !line.empty() && line[0] == '#';
    long c = chain, iteration = 0;
    bool keep = true;
    if (!header) {
      header = !line.empty() && !comment;
    } else if (comment && iteration_note(line, c, iteration)) {
      keep = chain == 0 && counted(c, iteration);
      if (chain != 0 && counted(c, iteration)) notes.emplace_back(line.substr(2));
    } else if (comment) {
      adaptation = adaptation || line.find("Adaptation terminated") != std::string_view::npos;
      // The block is written just before draw 1: a state saved before that draw is
      // resumed into warmup, which writes the block again.
      keep = chain == 0 || (adaptation && rows == 0 && kept(chain) >= 1);
    } else if (!line.empty()) {
      std::size_t at = 0;
      iteration = rows + 1;
      if (chain == 0)
        keep = integer_at(line, at, c) && at < line.size() && line[at++] == ',' && integer_at(line, at, iteration);
      keep = keep && iteration >= 1 && iteration <= kept(c);
      rows += keep && chain != 0;
    }
    if (keep) out.append(text, pos, end - pos + 1);
    pos = end + 1;
  }
  write_replacing(path, "", [&](std::ostream& f) { f << out; });
  return notes;
}

}  // namespace

std::vector<std::vector<std::string>> cut_draws(const std::string& path, const saved_run& s, draws::draws_format format) {
  if (format != draws::draws_format::stan) {
    cut_file(path, s, 0);
    return {};
  }
  std::vector<std::vector<std::string>> notes;
  const std::vector<std::string> paths = draws::draws_paths(path, format, static_cast<int>(s.completed.size()));
  for (std::size_t c = 0; c < paths.size(); ++c) notes.push_back(cut_file(paths[c], s, static_cast<long>(c) + 1));
  return notes;
}


// ---- the chains' output ----

chain_output::chain_output(const model_inputs& in, const infer_options& o, draws::draws_format streamed, bool saving,
                           progress_display& progress)
    : in_(in), o_(o), streamed_(streamed), saving_(saving), progress_(progress), saved_once_(o.resume != nullptr) {
  if (o.output.empty()) temporary_.emplace("ppl-draws-");
  path_ = o.output.empty() ? temporary_->path() : o.output;
  if (o.resume) {
    state_ = *o.resume;
    resumed_notes_ = cut_draws(o.output, state_, streamed);
    resume_from_ = state_.chains;
  } else if (saving) {
    begin_state();
  }
}

void chain_output::attach(inference::run_options& ro) {
  if (o_.resume) ro.resume = &resume_from_;
  if (!saving_) return;
  ro.checkpoint_seconds = o_.checkpoint_every;
  ro.checkpoint = [this](int c, long done, std::string chain_state) { checkpoint(c, done, std::move(chain_state)); };
}

draws::draws_writer* chain_output::open(const std::vector<std::string>& columns, const std::vector<inference::plan_line>& plan) {
  const auto paths = draws::draws_paths(path_, streamed_, o_.run.chains);
  writer_ = std::make_unique<draws::draws_writer>(path_, streamed_, o_.run.chains, draws_comments(in_, o_, plan, streamed_, paths), columns,
                                                  o_.resume != nullptr);
  for (std::size_t c = 0; c < resumed_notes_.size(); ++c)
    for (const auto& note : resumed_notes_[c]) writer_->note(static_cast<int>(c) + 1, note);
  // ppl's layout says where a chain was resumed; Stan's has no comments among its rows.
  if (o_.resume && streamed_ == draws::draws_format::ppl)
    for (std::size_t c = 0; c < state_.completed.size(); ++c)
      writer_->note(static_cast<int>(c) + 1, fmt::format("chain {} iteration {}: resumed", c + 1, state_.completed[c]));
  return writer_.get();
}

void chain_output::begin_state() {
  state_.args = o_.args;
  state_.directory = std::filesystem::current_path().string();
  state_.model_hash = file_fingerprint(in_.model_path);
  state_.data_hash = file_fingerprint(in_.data_path);
  state_.warmup = o_.run.warmup;
  state_.thin = o_.run.thin;
  state_.completed.assign(static_cast<std::size_t>(o_.run.chains), 0);
  state_.chains.assign(static_cast<std::size_t>(o_.run.chains), std::string());
}

void chain_output::checkpoint(int c, long done, std::string chain_state) {
  std::lock_guard<std::mutex> lock(state_mutex_);
  state_.completed[static_cast<std::size_t>(c)] = done;
  state_.chains[static_cast<std::size_t>(c)] = std::move(chain_state);
  try {
    if (writer_) writer_->flush();  // the draws the state counts are on disk before it is
    write_saved_run(state_path(o_.output), state_);
    saved_once_ = true;
  } catch (const draws::write_error&) {
    // Reported where the chains stop; the state already saved still agrees with the file.
  } catch (const std::exception& e) {
    if (!save_failed_) progress_.note(fmt::format("warning: the run's state is not saved: {}", e.what()));
    save_failed_ = true;
  }
}
}  // namespace ppl::cli
