#include "support/interrupt.h"

#include <atomic>
#include <csignal>

namespace dtb::gen {
namespace {

// Lock-free, so it may be written from a signal handler.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_stop_signal(int) { g_stop.store(true, std::memory_order_relaxed); }

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_requested() { return g_stop.load(std::memory_order_relaxed); }
void request_interrupt() { g_stop.store(true, std::memory_order_relaxed); }
void clear_interrupt() { g_stop.store(false, std::memory_order_relaxed); }

}  // namespace dtb::gen
