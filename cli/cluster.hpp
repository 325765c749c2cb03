#pragma once
// The processes of an MPI job (`mpirun -np R ppl infer ...`). An MPI build (-DPPL_MPI=ON)
// compiles cli/cluster_mpi*.cpp; any other cli/cluster_single.cpp, where a run is one
// process. MPI is started only when mpirun launched the program, so an MPI build run
// directly is a plain single process.
//
// Every process reads and checks the same command line, model and data; the commands
// that spread their work (infer, sbc) then agree that none of them failed before anything
// is written, and rank 0 alone writes files and prints. The other processes print nothing
// on standard output, and their standard error is held back: it is shown only when that
// process alone failed before the work began (a file missing on its machine). An error
// after that reaches rank 0, which prints it, and every process stops with its status.
#include <functional>
#include <string>
#include <vector>

#include "inference/chain.hpp"

namespace ppl::cli {

// main's body run in the job: by every process for infer and sbc, by rank 0 alone for any
// other command (the others wait for its exit status). Returns the exit status.
int run_in_group(int argc, char** argv, const std::function<int()>& command);

// This process's rank (from 0) and the number of processes: 0 and 1 without MPI.
int process_rank();
int process_count();

// Every process of a command that spreads its work calls this once its inputs are read
// and checked: when another process failed before it, this one stops with the same status
// (thrown as job_stopped, which run_in_group catches).
struct job_stopped {
  int status = 1;
};
void agree_to_start();

// infer: `chains` chains spread over the processes (chain c on rank c mod R), or, with one
// chain and several processes, that chain run by all of them, its LDA sweep shared
// (samplers/lda.hpp: AD-LDA across processes); null for one process. Agrees to start first.
inference::chain_spread* spread_chains(int chains);
// Whether the processes share one chain (its state is then not saved: each holds only its
// own documents' topics).
bool processes_share_chains(int chains);

// sbc: rank 0 gets every process's piece, in rank order; the others an empty list.
std::vector<std::string> gather_pieces(const std::string& mine);

}  // namespace ppl::cli
