#include "core/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace ppl {

namespace {

std::atomic<bool> flag{false};

extern "C" void on_signal(int) { flag.store(true); }

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

bool interrupted() { return flag.load(std::memory_order_relaxed); }
void set_interrupted(bool value) { flag.store(value); }

}  // namespace ppl
