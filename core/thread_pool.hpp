#pragma once
// A fixed team of threads that runs one job at a time, each thread on its own part:
// for samplers that share one chain's sweep between threads (LDA's parallel sweep, the Ising heat-bath), where a sweep
// has many short stages and starting threads for each would cost more than the work.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ppl {

class thread_pool {
 public:
  // `size` parts: the calling thread runs part 0, size - 1 threads the others.
  explicit thread_pool(std::size_t size);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  std::size_t size() const { return workers_.size() + 1; }
  // Runs part(b) for every b in [0, size()) and returns when all have finished;
  // rethrows the first exception a part threw.
  void run(const std::function<void(std::size_t)>& part);

 private:
  void work(std::size_t b);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> running_{0};
  bool stopping_ = false;
  std::vector<std::exception_ptr> errors_;
};

}  // namespace ppl
