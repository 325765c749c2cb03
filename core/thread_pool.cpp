#include "core/thread_pool.hpp"

#include <chrono>

namespace ppl {

namespace {

// How long a thread keeps polling before it sleeps. Waking a sleeping thread costs far more
// on a virtual machine (the host must schedule an idle virtual CPU) than a stage of a
// sweep lasts, so threads poll through the short gaps between stages. A polling thread
// yields its processor every few microseconds, so that with more threads than processors
// (several chains, or more --threads than cores) the thread being waited for can run.
constexpr std::chrono::microseconds poll_for{2000};

template <typename Ready>
bool poll(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + poll_for;
  for (int i = 0;; ++i) {
    if (ready()) return true;
    if ((i & 255) == 255) {
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::yield();
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

}  // namespace

thread_pool::thread_pool(std::size_t size) : errors_(size == 0 ? 1 : size) {
  for (std::size_t b = 1; b < errors_.size(); ++b) workers_.emplace_back([this, b] { work(b); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    generation_.fetch_add(1);
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void thread_pool::work(std::size_t b) {
  std::uint64_t seen = 0;
  for (;;) {
    if (!poll([&] { return generation_.load(std::memory_order_acquire) != seen; })) {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
    }
    seen = generation_.load(std::memory_order_acquire);
    const std::function<void(std::size_t)>* job = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      job = job_;
    }
    try {
      (*job)(b);
    } catch (...) {
      errors_[b] = std::current_exception();
    }
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void thread_pool::run(const std::function<void(std::size_t)>& part) {
  for (auto& e : errors_) e = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &part;
    running_.store(workers_.size(), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_.notify_all();
  try {
    part(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  if (!poll([&] { return running_.load(std::memory_order_acquire) == 0; })) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return running_.load(std::memory_order_acquire) == 0; });
  }
  for (auto& e : errors_)
    if (e) std::rethrow_exception(e);
}

}  // namespace ppl
