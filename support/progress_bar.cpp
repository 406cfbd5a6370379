#include "support/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dtb::gen {
namespace {

std::string format_duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

// Time since the start to the second, for a log: with it a log alone tells
// how each ETA compared with the time the build really took
// (scripts/eta-check).
std::string format_elapsed(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);  // as format_duration rounds
  char buf[40];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

}  // namespace

std::optional<double> remaining_seconds(std::uint64_t total, std::uint64_t done, std::uint64_t skipped,
                                        double elapsed_seconds) {
  done = std::min(done, total);
  const double worked = static_cast<double>(done - std::min(skipped, done));
  if (done >= total || worked <= 0.001 * static_cast<double>(total) || elapsed_seconds <= 1.0) return std::nullopt;
  return elapsed_seconds * static_cast<double>(total - done) / worked;
}

ProgressBar::ProgressBar(std::string task, std::uint64_t total_work, bool enabled)
    : task_(std::move(task)),
      total_(std::max<std::uint64_t>(total_work, 1)),
      enabled_(enabled),
      tty_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  // DTB_PROGRESS_LOG_MS: another interval for a log's lines (a test that
  // follows every step of a small build sets 0).
  if (const char* ms = std::getenv("DTB_PROGRESS_LOG_MS"); ms && *ms)
    log_interval_ = std::chrono::milliseconds(std::strtoll(ms, nullptr, 10));
  // The ETA's rate is sampled with each line drawn, but at most once a
  // second (recent_rate.h): how far apart its samples come while running.
  const double line_seconds = tty_ ? 0.0 : std::chrono::duration<double>(log_interval_).count();
  recent_ = RecentRate(std::max(1.0, line_seconds));
  if (!enabled_) return;
  heartbeat_ = std::jthread([this](std::stop_token stop) {
    std::unique_lock lock(heartbeat_mutex_);
    while (!heartbeat_wake_.wait_for(lock, stop, std::chrono::seconds(1), [] { return false; }) &&
           !stop.stop_requested())
      if (!finished_) draw(false);
  });
}

ProgressBar::~ProgressBar() {
  stop_heartbeat();
  // A bar interrupted by an error still ends its line on a terminal.
  if (enabled_ && tty_ && !finished_) std::fputc('\n', stderr);
}

void ProgressBar::set_item(const std::string& item) {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    item_ = item;
  }
  // On a terminal a new item redraws at once; in a log it waits for the next
  // line (every 10 s): a unit's levels change several times a second on
  // small tables, and one line per change made logs of thousands of lines.
  draw(tty_);
}

void ProgressBar::advance(std::uint64_t work) {
  done_.fetch_add(work * weight_, std::memory_order_relaxed);
  if (enabled_) draw(false);
}

void ProgressBar::skip(std::uint64_t work) {
  skipped_.fetch_add(work * weight_, std::memory_order_relaxed);
  advance(work);
}

void ProgressBar::add_work(std::uint64_t work) { total_.fetch_add(work * weight_, std::memory_order_relaxed); }

void ProgressBar::finish() {
  if (!enabled_ || finished_) return;
  stop_heartbeat();  // the final line is the last: no redraw after it
  done_.store(total_.load());
  draw(true);
  finished_ = true;
  if (tty_) std::fputc('\n', stderr);
}

void ProgressBar::stop_heartbeat() {
  if (!heartbeat_.joinable()) return;
  heartbeat_.request_stop();
  heartbeat_.join();
}

void ProgressBar::draw(bool force) {
  // Redraw at most 5 times a second on a terminal, every 10 s in a log
  // (and at the end).
  const auto interval = tty_ ? std::chrono::milliseconds(200) : log_interval_;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;  // someone else is drawing: skip, never wait
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < interval) return;
  last_draw_ = now;

  const std::uint64_t total = total_.load();
  const double done = static_cast<double>(std::min(done_.load(), total));
  // Rounded down to the tenth shown: 99.96 % is not "100.0%" while work is left.
  const double fraction = std::floor(1000.0 * done / static_cast<double>(total)) / 1000.0;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::uint64_t done_now = done_.load(), skipped_now = skipped_.load();
  recent_.record(elapsed, done_now - std::min(skipped_now, done_now));
  std::string eta = "--";
  if (fraction >= 1.0) {
    eta = "done in " + format_duration(elapsed);
  } else if (auto left = remaining_seconds(total, done_now, skipped_now, elapsed)) {
    if (const auto rate = recent_.rate()) left = static_cast<double>(total - std::min(done_now, total)) / *rate;
    eta = "ETA " + format_duration(*left);
  }

  constexpr int kWidth = 30;
  const int filled = static_cast<int>(fraction * kWidth);
  const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
  if (tty_)
    std::fprintf(stderr, "\r%s [%s] %5.1f%%  %-12s %-18s\x1b[K", task_.c_str(), bar.c_str(),
                 100.0 * fraction, item_.c_str(), eta.c_str());
  else
    std::fprintf(stderr, "%s %5.1f%%  %s  %s  elapsed %s\n", task_.c_str(), 100.0 * fraction, item_.c_str(),
                 eta.c_str(), format_elapsed(elapsed).c_str());
  std::fflush(stderr);
}

}  // namespace dtb::gen
