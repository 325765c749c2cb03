#pragma once
// The processes that share one chain's sweep: an MPI job running one chain
// (`mpirun -np R ppl infer ... --chains 1`, cli/cluster_mpi_team.cpp). Every process runs
// the whole chain; a sampler that can split its work (LDA's documents, a conjugate
// update's blocks) does its share and exchanges the result through the team, so that each
// process's copy of the chain goes on from the same state.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ppl::samplers {

// Each sweep calls `gather` and `sum` on every process in the same order, so an
// implementation may also agree there on stopping the run.
class team {
 public:
  virtual ~team() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every process's `values`, one after another in rank order, in place of this one's;
  // `sizes` gets how many each gave.
  virtual void gather(std::vector<std::uint32_t>& values, std::vector<std::size_t>& sizes) = 0;
  virtual void gather(std::vector<double>& values, std::vector<std::size_t>& sizes) = 0;
  virtual double sum(double value) = 0;
};

// The team a new sampler joins: the one set for this thread (a test's team of threads), else
// the process's (cli/cluster_mpi_team.cpp sets it under mpirun); null when there is none.
void set_process_team(team* t);
void set_thread_team(team* t);
team* process_team();

}  // namespace ppl::samplers
