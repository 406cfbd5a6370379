#include "serve/signal_watcher.h"

#include <httplib.h>
#include <pthread.h>

#include <chrono>

namespace dtb {

SignalWatcher::SignalWatcher(httplib::Server& server) {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGTERM);
  struct sigaction old {};
  if (sigaction(SIGINT, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) sigaddset(&signals_, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
  thread_ = std::thread([this, &server] { watch(server); });
}

void SignalWatcher::watch(httplib::Server& server) {
  int signal = 0;
  sigwait(&signals_, &signal);
  waiting_ = false;
  // stop() does nothing before the accept loop runs: a signal right after
  // the "listening" line must wait for it.
  while (!stopping_ && !server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server.stop();
}

SignalWatcher::~SignalWatcher() {
  stopping_ = true;
  // The server stopped for another reason: wake the watcher with a signal
  // to it alone (still a joinable thread, so its id is valid).
  if (waiting_) pthread_kill(thread_.native_handle(), SIGTERM);
  thread_.join();
}

}  // namespace dtb
