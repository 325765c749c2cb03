#pragma once
// What `ppl infer` writes besides the terminal: the comment lines at the top of its draws
// files (ppl's layout, or CmdStan's configuration block so that Stan's readers take the
// files unchanged), JAGS's CODA files at the end of a run, the guard that refuses an
// output path that is one of the run's inputs, the temporary draws file of a run that
// names none, and the run's saved state, which --resume continues from.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "draws/draws.hpp"
#include "draws/reader.hpp"
#include "draws/writer.hpp"
#include "inference/chain.hpp"

namespace ppl::cli {

// The first comment lines of a ppl-layout draws file: ppl's version, the model, the data,
// each --set, the seed.
std::vector<std::string> identity_comments(const model_inputs& in, std::uint64_t seed);

// The comment lines of each file the run writes (one list for ppl's layout, one per
// chain for Stan's).
std::vector<std::vector<std::string>> draws_comments(const model_inputs& in, const infer_options& o,
                                                     const std::vector<inference::plan_line>& plan, draws::draws_format format,
                                                     const std::vector<std::string>& paths);

// --format coda: the CODA files are named after --output, and the draws are streamed to
// STEM.csv in ppl's layout first (draws/coda_writer.hpp); the options returned have
// that file as their output, which the saved state sits beside and --resume names.
// Throws std::invalid_argument without an --output that names files. Other formats: `o`.
infer_options coda_output(infer_options o);

// The layout --format names: ppl, stan or coda.
draws::draws_format format_of(const infer_options& o);

// The draws files a run of `chains` chains writes under --output (after coda_output): one
// file, or one a chain in Stan's layout, and for --format coda the CODA files too.
std::vector<std::string> draws_outputs(const infer_options& o, int chains);

// --format coda, a complete run: its CODA files, transposed from its draws file o.output
// (draws/coda_writer.hpp). Returns the exit status: 0; 1 when a file cannot be written;
// 130 when Ctrl-C stops the writing. Those two are reported, and leave no CODA file: the
// draws file is whole, and `ppl infer --resume` (when the run's state is `saved`) writes them.
int write_coda_files(const draws::draws_source& draws, const infer_options& o, bool saved,
                     const std::map<std::string, std::string>& spelled = {});

// Writes a file whole or not at all: `write` fills PATH.tmp, which then replaces PATH. A
// failed write (a full disk) or rename removes PATH.tmp and throws std::runtime_error
// "cannot write WHAT PATH: reason", `what` with its trailing space ("the saved state ").
void write_replacing(const std::string& path, const std::string& what, const std::function<void(std::ostream&)>& write);

// Throws std::invalid_argument (a usage error) when an output is one of the inputs: the
// same path, or another name of the same file. `option` names the output's option.
void refuse_overwriting_inputs(const std::string& option, const std::vector<std::string>& outputs,
                               const std::vector<std::string>& inputs);

// A file in the temporary directory ($TMPDIR or /tmp) for a run's draws when it names no
// --output (the summary is read back from it), removed when this goes.
class temporary_file {
 public:
  explicit temporary_file(const std::string& stem);
  ~temporary_file();
  temporary_file(const temporary_file&) = delete;
  temporary_file& operator=(const temporary_file&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// ---- saved runs ----
// Saving and resuming `ppl infer` runs. A run that writes a draws file keeps its state
// beside it, in DRAWS.csv.state (named after --output, in Stan's format too): the arguments it was started with and
// the directory it ran in, fingerprints of the model and data files, and each chain's
// saved state (inference/chain.hpp) with the iterations it had done. The chains save it
// every --checkpoint-every seconds and when they stop; the draws file is flushed first, so
// it always holds every draw the state has counted. `ppl infer --resume DRAWS.csv` cuts
// the draws file back to what the state counts (a run killed between two saves may have
// written more) and continues every chain from its state, with the same draws as a run
// never interrupted.
struct saved_run {
  std::vector<std::string> args;    // the arguments of `ppl infer`, after the command
  std::string directory;            // where it ran: relative paths in args are relative to it
  std::uint64_t model_hash = 0, data_hash = 0;
  long warmup = 0, thin = 1;        // to count the draws kept from the iterations done
  std::vector<long> completed;      // per chain: iterations done
  std::vector<std::string> chains;  // per chain: its saved state (empty: none yet)
};

std::string state_path(const std::string& draws_path);
// Written to a temporary file that then replaces the old one, so a crash never leaves half
// a state.
void write_saved_run(const std::string& path, const saved_run& s);
// Throws std::invalid_argument (a usage error) when the file is missing or not a state.
saved_run read_saved_run(const std::string& path);
// A fingerprint of a file's bytes (FNV-1a, 64 bits); 0 for no file.
std::uint64_t file_fingerprint(const std::string& path);
// Cuts the draws file (or, in Stan's format, each chain's file) back to the draws the
// state counts: chain c's rows up to its last kept iteration, with comment lines about
// later iterations dropped. Stan's files keep no comment among their rows, so the
// elapsed times go and each chain's notes of counted iterations (held-out scores) are
// returned, to be written again at the end of its file; none in ppl's layout.
std::vector<std::vector<std::string>> cut_draws(const std::string& path, const saved_run& s, draws::draws_format format);


// ---- the chains' output ----
// Where the chains' rows go, and the run's saved state beside them: continued from
// --resume, or begun here and written at each checkpoint.
class chain_output {
 public:
  // A run that names no draws file still streams its draws, to a temporary one the
  // summary is read from: memory does not grow with the number of draws. A resumed run's
  // draws file is first cut back to what its state counts.
  chain_output(const model_inputs& in, const infer_options& o, draws::draws_format streamed, bool saving, progress_display& progress);

  // The chains start from the saved state, if any, and save theirs when the run saves.
  void attach(inference::run_options& ro);
  // The writer, made once the chains know their columns and plan.
  draws::draws_writer* open(const std::vector<std::string>& columns, const std::vector<inference::plan_line>& plan);

  draws::draws_writer* writer() const { return writer_.get(); }
  bool saved_once() const { return saved_once_; }
  bool save_failed() const { return save_failed_; }

 private:
  void begin_state();
  // Called by the chains' threads.
  void checkpoint(int c, long done, std::string chain_state);

  const model_inputs& in_;
  const infer_options& o_;
  draws::draws_format streamed_;
  bool saving_;
  progress_display& progress_;
  std::optional<temporary_file> temporary_;
  std::string path_;
  std::unique_ptr<draws::draws_writer> writer_;
  saved_run state_;
  std::vector<std::string> resume_from_;
  std::vector<std::vector<std::string>> resumed_notes_;
  std::mutex state_mutex_;
  bool save_failed_ = false, saved_once_;
};
}  // namespace ppl::cli
