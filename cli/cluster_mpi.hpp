#pragma once
// What the MPI parts of cli/cluster.hpp share (compiled only with -DPPL_MPI=ON).
#include <atomic>
#include <exception>
#include <memory>
#include <string>

#include "inference/chain.hpp"

namespace ppl::cli {

// A failure on another process, raised on rank 0 with that process's message and exit
// status; run_in_group prints it. Not a std::exception, so that no `guarded` on the way
// prints it as an error of rank 0's own.
struct job_failure {
  int status = 1;
  std::string text;
};

// Rank 0 is receiving from chains that run elsewhere: if it fails before they report,
// it must abort the job rather than leave them waiting on it.
extern std::atomic<bool> remotes_running;

// An exception as `guarded` (cli/session.hpp) would print it, with its exit status.
job_failure describe_failure(std::exception_ptr error);

// Chain c on rank c mod R (cli/cluster_mpi_spread.cpp).
std::unique_ptr<inference::chain_spread> make_mpi_spread(int rank, int size);
// One chain run by every process, its LDA sweep shared (cli/cluster_mpi_team.cpp).
std::unique_ptr<inference::chain_spread> make_mpi_team(int rank, int size);

// Every process, once its chains are built (`error`: how that failed, or null): when any
// failed, all stop, rank 0 raising the lowest-ranked failure's message.
void agree_on_chains(std::exception_ptr error, int rank, int size);

}  // namespace ppl::cli
