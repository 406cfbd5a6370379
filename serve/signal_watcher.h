// Stopping the server on SIGINT or SIGTERM without a signal handler: the
// signals are blocked in every thread (the pool's threads inherit the mask)
// and taken by one watcher thread, which calls Server::stop() like any
// other code. A SIGINT ignored at start (a background job of a shell) stays
// ignored, as for any program.
#pragma once

#include <signal.h>

#include <atomic>
#include <thread>

namespace httplib {
class Server;
}

namespace dtb {

class SignalWatcher {
 public:
  /// Blocks the signals in the calling thread: create the watcher before
  /// the server starts its threads.
  explicit SignalWatcher(httplib::Server& server);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  void watch(httplib::Server& server);

  sigset_t signals_;
  std::atomic<bool> stopping_{false}, waiting_{true};
  std::thread thread_;
};

}  // namespace dtb
