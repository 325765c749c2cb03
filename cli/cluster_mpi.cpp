// cli/cluster.hpp over MPI: starting and ending the job, holding back the output of the
// processes other than rank 0, agreeing before the work begins, gathering pieces.
#include <fcntl.h>
#include <fmt/core.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string_view>

#include "cli/cluster.hpp"
#include "cli/cluster_mpi.hpp"
#include "core/source_error.hpp"

namespace ppl::cli {

std::atomic<bool> remotes_running{false};

namespace {

struct job {
  bool active = false;  // under mpirun, with more than one process
  int rank = 0, size = 1;
  bool agreed = false;
  int real_stderr = -1;        // a held-back process's own standard error
  std::FILE* held = nullptr;   // what it wrote there meanwhile
};
job the_job;

// mpirun (Open MPI's, or any launcher speaking PMI/PMIx) says so in the environment.
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
}

void hold_output() {
  std::fflush(stdout);
  std::fflush(stderr);
  const int null = ::open("/dev/null", O_WRONLY);
  if (null >= 0) ::dup2(null, STDOUT_FILENO), ::close(null);
  the_job.held = std::tmpfile();
  if (!the_job.held) return;
  the_job.real_stderr = ::dup(STDERR_FILENO);
  ::dup2(::fileno(the_job.held), STDERR_FILENO);
}

// What this process wrote to standard error while held back, shown on its own.
void show_held() {
  std::cerr.flush();
  std::fflush(stderr);
  if (!the_job.held || the_job.real_stderr < 0) return;
  std::rewind(the_job.held);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, the_job.held)) > 0;)
    if (::write(the_job.real_stderr, buffer, n) < 0) break;
}

// All processes give their status so far; returns the worst. The lowest-ranked process
// that failed shows its message, unless rank 0 failed too (it has said the same).
int agree(int status) {
  int worst = 0, first = the_job.size;
  const int mine = status != 0 ? the_job.rank : the_job.size;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  the_job.agreed = true;
  if (worst != 0 && first == the_job.rank && first != 0) show_held();
  return worst;
}

int run_command(int argc, char** argv, const std::function<int()>& command) {
  const std::string_view name = argc > 1 ? argv[1] : "";
  const bool spreads = name == "infer" || name == "sbc";
  try {
    return the_job.rank == 0 || spreads ? command() : 0;
  } catch (const job_stopped& s) {
    return s.status;
  } catch (const job_failure& f) {
    std::cerr << f.text;
    return f.status;
  }
}

}  // namespace

job_failure describe_failure(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const job_failure& f) {
    return f;
  } catch (const ppl::source_error& e) {
    return {1, e.what()};
  } catch (const std::invalid_argument& e) {
    return {2, fmt::format("error: {}\n", e.what())};
  } catch (const std::bad_alloc&) {
    return {1, "error: out of memory\n"};
  } catch (const std::exception& e) {
    return {1, fmt::format("error: {}\n", e.what())};
  } catch (...) {
    return {1, "error: unknown failure\n"};
  }
}

int run_in_group(int argc, char** argv, const std::function<int()>& command) {
  if (!launched_by_mpirun()) return command();
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &the_job.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &the_job.size);
  // Chains on threads send their rows themselves, one at a time under a lock.
  if (provided < MPI_THREAD_SERIALIZED) {
    if (the_job.rank == 0) std::cerr << "error: this MPI library gives no thread support (MPI_THREAD_SERIALIZED); ppl needs it\n";
    MPI_Finalize();
    return 1;
  }
  the_job.active = the_job.size > 1;
  if (the_job.active && the_job.rank != 0) hold_output();
  int status = run_command(argc, argv, command);
  if (!the_job.active) {
  } else if (!the_job.agreed) {
    status = agree(status);
  } else if (the_job.rank == 0 && status != 0 && status != 130 && remotes_running) {
    // Failed before the other processes' chains reported: they would wait on it forever.
    std::cerr.flush();
    MPI_Abort(MPI_COMM_WORLD, status);
  }
  MPI_Finalize();
  return status;
}

int process_rank() { return the_job.rank; }
int process_count() { return the_job.size; }

void agree_to_start() {
  if (!the_job.active) return;
  if (const int worst = agree(0); worst != 0) throw job_stopped{worst};
}

bool processes_share_chains(int chains) { return the_job.active && chains < the_job.size; }

inference::chain_spread* spread_chains(int chains) {
  if (!the_job.active) return nullptr;
  // Read from the command line, so every process finds it alike, before agreeing.
  if (chains < the_job.size && chains != 1)
    throw std::invalid_argument(fmt::format("--chains {} on {} processes: each process runs whole chains, so give at least as many "
                                            "chains as processes (mpirun -np), or one chain, whose LDA sweep they then share",
                                            chains, the_job.size));
  agree_to_start();
  static const std::unique_ptr<inference::chain_spread> spread =
      chains < the_job.size ? make_mpi_team(the_job.rank, the_job.size) : make_mpi_spread(the_job.rank, the_job.size);
  return spread.get();
}

std::vector<std::string> gather_pieces(const std::string& mine) {
  if (!the_job.active) return {mine};
  int size = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<std::size_t>(the_job.size)), offsets(sizes.size());
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (the_job.rank == 0) {
    for (std::size_t r = 1; r < sizes.size(); ++r) offsets[r] = offsets[r - 1] + sizes[r - 1];
    all.resize(static_cast<std::size_t>(offsets.back() + sizes.back()));
  }
  MPI_Gatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (the_job.rank == 0)
    for (std::size_t r = 0; r < sizes.size(); ++r) out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
  return out;
}

}  // namespace ppl::cli
