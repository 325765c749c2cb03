#include "runtime/thread_pool.hpp"

namespace ppl::runtime {

thread_pool::thread_pool(std::size_t size) : errors_(size == 0 ? 1 : size) {
  for (std::size_t b = 1; b < errors_.size(); ++b) workers_.emplace_back([this, b] { work(b); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void thread_pool::work(std::size_t b) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(std::size_t)>* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      job = job_;
    }
    try {
      (*job)(b);
    } catch (...) {
      errors_[b] = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--running_ == 0) done_.notify_one();
    }
  }
}

void thread_pool::run(const std::function<void(std::size_t)>& part) {
  for (auto& e : errors_) e = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &part;
    running_ = workers_.size();
    ++generation_;
  }
  start_.notify_all();
  try {
    part(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return running_ == 0; });
  }
  for (auto& e : errors_)
    if (e) std::rethrow_exception(e);
}

}  // namespace ppl::runtime
