#include "cli/run_output.hpp"

#include <fmt/core.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "draws/coda_writer.hpp"
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
  lines.push_back(o.metric == "dense" ? "        metric = dense_e" : "        metric = diag_e (Default)");
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

int write_coda_files(const draws::draws_source& draws, const infer_options& o, bool saved) {
  const std::string again = saved ? "; write them with: ppl infer --resume " + o.output : "";
  try {
    if (draws::write_coda(draws, draws::coda_stem(o.output), {o.run.warmup, o.run.thin}, ppl::interrupted)) return 0;
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

}  // namespace ppl::cli
