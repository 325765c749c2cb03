#pragma once
// What `ppl infer` writes besides the terminal: the comment lines at the top of its draws
// files (ppl's layout, or CmdStan's configuration block so that Stan's readers take the
// files unchanged), JAGS's CODA files at the end of a run, the guard that refuses an
// output path that is one of the run's inputs, and the temporary draws file of a run that
// names none.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "draws/draws.hpp"
#include "draws/reader.hpp"
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

// --format coda, a complete run: its CODA files, transposed from its draws file o.output
// (draws/coda_writer.hpp). Returns the exit status: 0; 1 when a file cannot be written;
// 130 when Ctrl-C stops the writing. Those two are reported, and leave no CODA file: the
// draws file is whole, and `ppl infer --resume` (when the run's state is `saved`) writes them.
int write_coda_files(const draws::draws_source& draws, const infer_options& o, bool saved);

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

}  // namespace ppl::cli
