// One chain run by every process of an MPI job (samplers/team.hpp): `mpirun -np R ppl
// infer ... --chains 1`. Every process builds the whole chain and runs it in step with the
// others; the samplers that share their work (LDA's engine, a conjugate update of many
// blocks) exchange their results inside each sweep, the only place the processes
// communicate. Rank 0 writes, prints and
// reports; the others' writer discards what their copy of the chain would write.
#include <mpi.h>

#include <csignal>
#include <type_traits>
#include <vector>

#include "cli/cluster.hpp"
#include "cli/cluster_mpi.hpp"
#include "core/interrupt.hpp"
#include "samplers/team.hpp"

namespace ppl::cli {

namespace {

std::atomic<bool> signalled{false};
extern "C" void on_team_signal(int) { signalled.store(true); }

// The processes of MPI_COMM_WORLD as a team. A process stops only when all do: a
// signal is kept until the next gather, where the processes agree on it, so that every one
// stops after the same sweep and none is left waiting in a sum the others never make.
class mpi_team final : public samplers::team {
 public:
  mpi_team(int rank, int size) : rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void gather(std::vector<std::uint32_t>& values, std::vector<std::size_t>& sizes) override { gather_as(MPI_UINT32_T, values, sizes); }
  void gather(std::vector<double>& values, std::vector<std::size_t>& sizes) override { gather_as(MPI_DOUBLE, values, sizes); }
  double sum(double value) override {
    double total = 0;
    MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total;
  }

 private:
  // The sizes go first, each doubled plus this process's signal, so that agreeing on
  // stopping costs no message of its own.
  template <typename T>
  void gather_as(MPI_Datatype type, std::vector<T>& values, std::vector<std::size_t>& sizes) {
    if (!installed_) {
      signalled = ppl::interrupted();
      std::signal(SIGINT, on_team_signal);
      std::signal(SIGTERM, on_team_signal);
      installed_ = true;
    }
    const int mine = static_cast<int>(values.size()) * 2 + (signalled ? 1 : 0);
    std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(counts.size());
    MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    bool stop = false;
    sizes.assign(counts.size(), 0);
    int total = 0;
    for (std::size_t p = 0; p < counts.size(); ++p) {
      stop = stop || counts[p] % 2;
      counts[p] /= 2;
      sizes[p] = static_cast<std::size_t>(counts[p]);
      offsets[p] = total;
      total += counts[p];
    }
    // Received into a buffer kept from one gather to the next, then copied: a new one each
    // time (tens of MB for a matrix factorisation's users) would be fresh pages to fault in.
    std::vector<T>& all = received<T>();
    if (all.size() < static_cast<std::size_t>(total)) all.resize(static_cast<std::size_t>(total));
    MPI_Allgatherv(values.data(), counts[static_cast<std::size_t>(rank_)], type, all.data(), counts.data(), offsets.data(), type,
                   MPI_COMM_WORLD);
    values.assign(all.begin(), all.begin() + total);
    if (stop) ppl::set_interrupted(true);
  }

  template <typename T>
  std::vector<T>& received() {
    if constexpr (std::is_same_v<T, double>) return received_numbers_;
    else return received_counts_;
  }

  int rank_, size_;
  bool installed_ = false;
  std::vector<double> received_numbers_;
  std::vector<std::uint32_t> received_counts_;
};

// What the other processes' copies of the chain write: nothing.
class discarding_writer final : public draws::draws_writer {
 public:
  void write(int, long, const double*) override {}
  void note(int, const std::string&) override {}
  void adaptation(int, const std::vector<std::string>&) override {}
  void finish(int, double, double) override {}
  void flush() override {}
  bool failed() const override { return false; }
};

class team_spread final : public inference::chain_spread {
 public:
  team_spread(int rank, int size) : rank_(rank), size_(size), team_(rank, size) { samplers::set_process_team(&team_); }
  bool runs(int) const override { return true; }
  bool writes() const override { return rank_ == 0; }
  void agree_built(std::exception_ptr error) override {
    agree_on_chains(error, rank_, size_);
    started_ = true;
  }
  void forward_callbacks(inference::run_options& o, bool) override {
    o.progress = nullptr;
    o.heldout_report = nullptr;
    o.checkpoint = nullptr;
  }
  draws::draws_writer* forward_writer(std::size_t) override { return &discard_; }
  // No chain runs elsewhere: nothing to receive.
  void serve(draws::draws_writer*, const inference::run_options&, inference::run_result&) override {}
  void stop() override {}
  void report(const inference::run_result&) override {}
  // Once the chains run, the others wait in the next sum for this process: only ending the
  // job frees them. (Before, agree_built has told everyone.)
  void report_failure(std::exception_ptr error) override {
    if (!started_) return;
    const job_failure f = describe_failure(error);
    MPI_Abort(MPI_COMM_WORLD, f.status);
  }

 private:
  int rank_, size_;
  mpi_team team_;
  discarding_writer discard_;
  bool started_ = false;
};

}  // namespace

std::unique_ptr<inference::chain_spread> make_mpi_team(int rank, int size) { return std::make_unique<team_spread>(rank, size); }

}  // namespace ppl::cli
