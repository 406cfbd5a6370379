// Progress on stderr for long jobs: the current item (a material), the
// overall percentage of the work and an estimated time to completion.
//
// On a terminal the line is redrawn in place a few times a second; when
// stderr is not a terminal (a log, CI) a plain line is printed every 10
// seconds at most instead, so logs stay readable. advance() is thread-safe and cheap:
// worker threads call it from inside parallel loops.
//
// A phase that reports no work for a while (a checkpoint written, a table
// compressed) must not look like a hang: a heartbeat thread redraws the line
// every second, so the elapsed time and the phase named by set_item() keep
// moving on a terminal, and a log gets a line every 10 seconds whatever
// the work does.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "support/recent_rate.h"

namespace dtb::gen {

/// Seconds left at the rate of the work done so far, not counting
/// `skipped` (of `done`) towards the rate; nullopt until there is a rate.
/// The ETA shown is the work left at the recent rate (recent_rate.h), once
/// this gives one.
std::optional<double> remaining_seconds(std::uint64_t total, std::uint64_t done, std::uint64_t skipped,
                                        double elapsed_seconds);

class ProgressBar {
 public:
  /// `enabled` false prints nothing (library users, tests); the counts
  /// below are kept either way.
  ProgressBar(std::string task, std::uint64_t total_work, bool enabled);
  ~ProgressBar();

  void set_item(const std::string& item);
  /// Work passed to advance() from now on counts `weight` times (1 at
  /// first): a caller whose items cost different amounts per unit of work
  /// weighs them, so that the ETA follows time rather than counts. Set it
  /// between items, not while advance() runs.
  void set_weight(std::uint64_t weight) { weight_ = weight; }
  void advance(std::uint64_t work);
  /// Work found already done (a resumed checkpoint): it counts towards the
  /// percentage but not towards the rate the ETA extrapolates, which would
  /// otherwise promise the rest at the speed of skipping.
  void skip(std::uint64_t work);
  /// Work found to be needed after all (a unit counted as likely to need
  /// none): the total grows, so the percentage steps back rather than the
  /// bar reaching 100 % with work left.
  void add_work(std::uint64_t work);
  /// Print the final line (100%, elapsed time).
  void finish();

  std::uint64_t total() const { return total_.load(std::memory_order_relaxed); }
  /// Work done so far, skipped work included.
  std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  std::uint64_t skipped() const { return skipped_.load(std::memory_order_relaxed); }

 private:
  void draw(bool force);
  void stop_heartbeat();

  std::string task_;
  std::atomic<std::uint64_t> total_;
  bool enabled_;
  bool tty_;
  std::chrono::milliseconds log_interval_{10000};
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> skipped_{0};  // of done_: by skip()
  std::uint64_t weight_ = 1;
  std::mutex mutex_;  // guards item_, last_draw_ and the output
  std::string item_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  RecentRate recent_;  // guarded by mutex_
  std::atomic<bool> finished_{false};
  std::mutex heartbeat_mutex_;
  std::condition_variable_any heartbeat_wake_;
  std::jthread heartbeat_;  // last: stopped and joined before the rest goes
};

}  // namespace dtb::gen
