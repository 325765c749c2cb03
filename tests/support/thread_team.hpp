#pragma once
// The processes of a team (samplers/team.hpp) played by threads, each running its own copy
// of the chain: a gather or a sum goes through shared buffers between barriers.
#include <barrier>
#include <cstdint>
#include <mutex>
#include <vector>

#include "samplers/team.hpp"

namespace ppl::testing {

struct thread_hub {
  explicit thread_hub(int size) : size(size), wait(size), parts(static_cast<std::size_t>(size)), numbers(static_cast<std::size_t>(size)) {}
  int size;
  std::barrier<> wait;
  std::mutex mutex;
  std::vector<std::vector<std::uint32_t>> parts;
  std::vector<std::vector<double>> numbers;
  double scalar = 0;
};

class thread_team final : public samplers::team {
 public:
  thread_team(thread_hub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return hub_.size; }
  void gather(std::vector<std::uint32_t>& values, std::vector<std::size_t>& sizes) override { gather_in(hub_.parts, values, sizes); }
  void gather(std::vector<double>& values, std::vector<std::size_t>& sizes) override { gather_in(hub_.numbers, values, sizes); }
  double sum(double value) override {
    hub_.wait.arrive_and_wait();
    if (rank_ == 0) hub_.scalar = 0;
    hub_.wait.arrive_and_wait();
    {
      std::lock_guard<std::mutex> lock(hub_.mutex);
      hub_.scalar += value;
    }
    hub_.wait.arrive_and_wait();
    return hub_.scalar;
  }

 private:
  template <typename T>
  void gather_in(std::vector<std::vector<T>>& parts, std::vector<T>& values, std::vector<std::size_t>& sizes) {
    hub_.wait.arrive_and_wait();
    parts[static_cast<std::size_t>(rank_)] = values;
    hub_.wait.arrive_and_wait();
    values.clear();
    sizes.clear();
    for (const auto& part : parts) values.insert(values.end(), part.begin(), part.end()), sizes.push_back(part.size());
    hub_.wait.arrive_and_wait();
  }

  thread_hub& hub_;
  int rank_;
};

}  // namespace ppl::testing
