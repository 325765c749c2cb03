// Chains spread over the processes of an MPI job (inference::chain_spread): chain c runs
// on rank c mod R. The other processes send rank 0 everything their chains would hand a
// writer or a callback, in one stream of messages per process (MPI keeps their order, so
// a saved state arrives after the rows it counts); rank 0 hands each on as its own chains'
// would be, and tells the others to stop when it is interrupted, a write fails or a chain
// fails anywhere.
#include <mpi.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/cluster.hpp"
#include "cli/cluster_mpi.hpp"
#include "core/archive.hpp"
#include "core/interrupt.hpp"

namespace ppl::cli {

namespace {

constexpr int tag_report = 1;  // to rank 0: a message below
constexpr int tag_stop = 2;    // from rank 0: stop the chains (a byte: one of `stop_reason`)

enum class message : std::uint8_t { rows, note, adaptation, finish, progress, heldout, checkpoint, done };
enum stop_reason : char { stop_interrupted = 1, stop_failed = 2 };

class mpi_spread;

// The writer of a process that does not write: each call becomes a message to rank 0.
class forwarding_writer final : public draws::draws_writer {
 public:
  forwarding_writer(mpi_spread& spread, std::size_t columns) : spread_(spread), columns_(columns) {}
  void write(int chain, long iteration, const double* values) override;
  void note(int chain, const std::string& text) override;
  void adaptation(int chain, const std::vector<std::string>& lines) override;
  void finish(int chain, double warmup_seconds, double sampling_seconds) override;
  void flush() override {}
  bool failed() const override;

 private:
  mpi_spread& spread_;
  std::size_t columns_;
};

class mpi_spread final : public inference::chain_spread {
 public:
  mpi_spread(int rank, int size) : rank_(rank), size_(size) {}
  bool runs(int chain) const override { return chain % size_ == rank_; }
  bool writes() const override { return rank_ == 0; }
  void agree_built(std::exception_ptr error) override;

  void forward_callbacks(inference::run_options& o, bool saving) override {
    o.progress = [this](int c, long done, long total, double lp) { send(message::progress, c, done, total, lp); };
    o.heldout_report = [this](int c, long it, const std::string& what, double score) { send(message::heldout, c, it, what, score); };
    if (saving) o.checkpoint = [this](int c, long done, const std::string& state) { send(message::checkpoint, c, done, state); };
  }
  draws::draws_writer* forward_writer(std::size_t columns) override {
    writer_ = std::make_unique<forwarding_writer>(*this, columns);
    return writer_.get();
  }
  void serve(draws::draws_writer* writer, const inference::run_options& o, inference::run_result& r) override;
  void stop() override { stop_wanted_ = true; }
  void report(const inference::run_result& r) override;
  void report_failure(std::exception_ptr error) override {
    if (!started_) return;  // failed before the chains began: agree_built has told everyone
    const job_failure f = describe_failure(error);
    send(message::done, static_cast<std::uint8_t>(0), f.status, f.text, std::uint64_t{0});
  }

  template <typename... T>
  void send(message kind, const T&... fields) {
    ppl::archive a;
    a.write(kind, fields...);
    const std::string bytes = a.take();
    std::lock_guard<std::mutex> lock(mutex_);
    send_rows_locked();
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, tag_report, MPI_COMM_WORLD);
  }
  // Rows go in batches (one message per row would make rank 0's receiving the bottleneck
  // of fast chains), sent when 64 kB have gathered, 0.1 s have passed, or before any other
  // message, so that a saved state still arrives after the rows it counts.
  void add_row(int chain, long iteration, std::vector<double> values) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (batch_.bytes().empty()) batch_.write(message::rows);
    batch_.write(chain, iteration, values);
    if (batch_.bytes().size() >= 65536 || std::chrono::steady_clock::now() - last_batch_ >= std::chrono::milliseconds(100)) send_rows_locked();
  }
  bool stopped();

 private:
  void send_rows_locked() {
    last_batch_ = std::chrono::steady_clock::now();
    if (batch_.bytes().empty()) return;
    MPI_Send(batch_.bytes().data(), static_cast<int>(batch_.bytes().size()), MPI_BYTE, 0, tag_report, MPI_COMM_WORLD);
    batch_ = ppl::archive();
  }
  bool receive(std::string bytes, draws::draws_writer* writer, const inference::run_options& o, inference::run_result& r);
  // Those still running: one that has reported may already be finishing MPI.
  void tell_all(stop_reason why, const std::vector<char>& finished) {
    const char byte = why;
    for (int p = 1; p < size_; ++p)
      if (!finished[static_cast<std::size_t>(p)]) MPI_Send(&byte, 1, MPI_BYTE, p, tag_stop, MPI_COMM_WORLD);
  }

  int rank_, size_;
  std::unique_ptr<forwarding_writer> writer_;
  std::mutex mutex_;
  std::atomic<bool> stop_wanted_{false};
  bool stop_seen_ = false;
  std::chrono::steady_clock::time_point last_look_{}, last_batch_{};
  ppl::archive batch_;
  std::optional<job_failure> failure_;
  bool started_ = false;  // every process has built its chains
};

void forwarding_writer::write(int chain, long iteration, const double* values) {
  spread_.add_row(chain, iteration, std::vector<double>(values, values + columns_));
}
void forwarding_writer::note(int chain, const std::string& text) { spread_.send(message::note, chain, text); }
void forwarding_writer::adaptation(int chain, const std::vector<std::string>& lines) { spread_.send(message::adaptation, chain, lines); }
void forwarding_writer::finish(int chain, double warmup_seconds, double sampling_seconds) {
  spread_.send(message::finish, chain, warmup_seconds, sampling_seconds);
}
bool forwarding_writer::failed() const { return spread_.stopped(); }

// Whether rank 0 has asked this process's chains to stop for a failure. Looked for at most
// every 10 ms (chains ask every iteration); an interrupt is passed on as one, so that the
// chains stop as they would on Ctrl-C, saving their state.
bool mpi_spread::stopped() {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (stop_seen_ || now - last_look_ < std::chrono::milliseconds(10)) return stop_seen_;
  last_look_ = now;
  for (int flag = 1; flag;) {
    MPI_Iprobe(0, tag_stop, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (!flag) break;
    char why = 0;
    MPI_Recv(&why, 1, MPI_BYTE, 0, tag_stop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (why == stop_interrupted) ppl::set_interrupted(true);
    else stop_seen_ = true;
  }
  return stop_seen_;
}

void mpi_spread::agree_built(std::exception_ptr error) {
  agree_on_chains(error, rank_, size_);
  started_ = true;
}

void mpi_spread::report(const inference::run_result& r) {
  ppl::archive a;
  std::uint64_t mine = 0;
  for (std::size_t c = 0; c < r.completed.size(); ++c) mine += runs(static_cast<int>(c));
  a.write(message::done, static_cast<std::uint8_t>(ppl::interrupted()), 0, std::string(), mine);
  for (std::size_t c = 0; c < r.completed.size(); ++c)
    if (runs(static_cast<int>(c)))
      a.write(static_cast<int>(c), r.completed[c], r.heldout_score[c], r.warmup_seconds[c], r.sampling_seconds[c], r.reports[c]);
  const std::string bytes = a.take();
  std::lock_guard<std::mutex> lock(mutex_);
  send_rows_locked();
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, tag_report, MPI_COMM_WORLD);
}

void mpi_spread::serve(draws::draws_writer* writer, const inference::run_options& o, inference::run_result& r) {
  int waiting = size_ - 1;
  std::vector<char> finished(static_cast<std::size_t>(size_), 0);
  bool told_interrupt = false, told_failure = false;
  while (waiting > 0) {
    if (!told_interrupt && ppl::interrupted()) tell_all(stop_interrupted, finished), told_interrupt = true;
    if (!told_failure && (stop_wanted_ || failure_ || (writer && writer->failed()))) tell_all(stop_failed, finished), told_failure = true;
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag_report, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::string bytes(static_cast<std::size_t>(count), '\0');
    MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag_report, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (receive(std::move(bytes), writer, o, r)) --waiting, finished[static_cast<std::size_t>(status.MPI_SOURCE)] = 1;
  }
  remotes_running = false;
  if (failure_) throw *failure_;
}

// Hands one message on; true when it is a process's last. Its length is the switch, one
// short case per kind of message, each reading the fields its sender wrote.
bool mpi_spread::receive(std::string bytes, draws::draws_writer* writer, const inference::run_options& o, inference::run_result& r) {
  ppl::archive a(std::move(bytes));
  message kind{};
  int c = 0;
  a(kind);
  if (kind == message::done) {
    std::uint8_t interrupted = 0;
    job_failure f;
    std::uint64_t chains = 0;
    a(interrupted, f.status, f.text, chains);
    if (interrupted) r.interrupted = true, ppl::set_interrupted(true);
    // A chain failed there: this process's chains stop too (as on Ctrl-C), and the failure
    // is raised once they have.
    if (f.status != 0 && !failure_) failure_ = f, ppl::set_interrupted(true);
    for (std::uint64_t k = 0; k < chains; ++k) {
      a(c);
      const auto i = static_cast<std::size_t>(c);
      a(r.completed[i], r.heldout_score[i], r.warmup_seconds[i], r.sampling_seconds[i], r.reports[i]);
    }
    return true;
  }
  a(c);
  try {
    switch (kind) {
      case message::rows: {
        long it = 0;
        std::vector<double> values;
        for (bool first = true; first || !a.done(); first = false) {
          if (!first) a(c);
          a(it, values);
          if (writer) writer->write(c, it, values.data());
        }
        break;
      }
      case message::note: {
        std::string text;
        a(text);
        if (writer) writer->note(c, text);
        break;
      }
      case message::adaptation: {
        std::vector<std::string> lines;
        a(lines);
        if (writer) writer->adaptation(c, lines);
        break;
      }
      case message::finish: {
        double warmup = 0, sampling = 0;
        a(warmup, sampling);
        if (writer) writer->finish(c, warmup, sampling);
        break;
      }
      case message::progress: {
        long done = 0, total = 0;
        double lp = 0;
        a(done, total, lp);
        if (o.progress) o.progress(c, done, total, lp);
        break;
      }
      case message::heldout: {
        long it = 0;
        std::string what;
        double score = 0;
        a(it, what, score);
        if (o.heldout_report) o.heldout_report(c, it, what, score);
        break;
      }
      case message::checkpoint: {
        long done = 0;
        std::string state;
        a(done, state);
        if (o.checkpoint) o.checkpoint(c, done, std::move(state));
        break;
      }
      case message::done: break;
    }
  } catch (const draws::write_error&) {
    // The writer has failed: the chains are told to stop, and the error is reported where
    // rank 0's own chains stop.
  }
  return false;
}

}  // namespace

// The lowest-ranked process whose chains failed to build gives its status to all, and its
// message to rank 0, which raises it; the others stop with that status.
void agree_on_chains(std::exception_ptr error, int rank, int size) {
  const job_failure mine = error ? describe_failure(error) : job_failure{0, ""};
  const int candidate = error ? rank : size;
  int first = size;
  MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size) {
    remotes_running = rank == 0;
    return;
  }
  int status = mine.status;
  MPI_Bcast(&status, 1, MPI_INT, first, MPI_COMM_WORLD);
  if (first == 0 && rank == 0) std::rethrow_exception(error);
  if (first != 0 && rank == first) {
    MPI_Send(mine.text.data(), static_cast<int>(mine.text.size()), MPI_BYTE, 0, tag_report, MPI_COMM_WORLD);
  } else if (first != 0 && rank == 0) {
    MPI_Status probe;
    MPI_Probe(first, tag_report, MPI_COMM_WORLD, &probe);
    int count = 0;
    MPI_Get_count(&probe, MPI_BYTE, &count);
    std::string text(static_cast<std::size_t>(count), '\0');
    MPI_Recv(text.data(), count, MPI_BYTE, first, tag_report, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    throw job_failure{status, text};
  }
  throw job_stopped{status};
}

std::unique_ptr<inference::chain_spread> make_mpi_spread(int rank, int size) { return std::make_unique<mpi_spread>(rank, size); }

}  // namespace ppl::cli
