#pragma once
// Saving and resuming `ppl infer` runs. A run that writes a draws file keeps its state
// beside it, in DRAWS.csv.state (named after --output, in Stan's format too): the arguments it was started with and
// the directory it ran in, fingerprints of the model and data files, and each chain's
// saved state (inference/chain.hpp) with the iterations it had done. The chains save it
// every --checkpoint-every seconds and when they stop; the draws file is flushed first, so
// it always holds every draw the state has counted. `ppl infer --resume DRAWS.csv` cuts
// the draws file back to what the state counts (a run killed between two saves may have
// written more) and continues every chain from its state, with the same draws as a run
// never interrupted.
#include <cstdint>
#include <string>
#include <vector>

#include "draws/draws.hpp"

namespace ppl::cli {

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

}  // namespace ppl::cli
