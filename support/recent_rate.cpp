#include "support/recent_rate.h"

#include <algorithm>

namespace dtb::gen {

double RecentRate::window(double seconds) { return std::max(kMinWindowSeconds, kWindowShare * seconds); }

void RecentRate::record(double wall_seconds, std::uint64_t worked) {
  if (samples_.empty()) samples_.push_back({0, 0});  // the start
  if (wall_seconds < last_wall_ + 1.0) return;
  if (const double gap = wall_seconds - last_wall_; gap > stop_gap_) stopped_ += gap - sample_seconds_;
  last_wall_ = wall_seconds;
  const double seconds = wall_seconds - stopped_;
  samples_.push_back({seconds, worked});
  // Keep one sample at or before the window's start: the rate spans the
  // whole window, not the part of it after its oldest sample.
  const double start = seconds - window(seconds);
  while (samples_.size() > 2 && samples_[1].seconds <= start) samples_.pop_front();
}

std::optional<double> RecentRate::rate() const {
  if (samples_.size() < 2) return std::nullopt;
  const Sample& last = samples_.back();
  const double start = std::max(0.0, last.seconds - window(last.seconds));
  // The work done at `start`, between the two samples around it.
  const Sample& a = samples_[0];
  const Sample& b = samples_[1];
  double worked_at_start = static_cast<double>(a.worked);
  if (start > a.seconds && b.seconds > a.seconds)
    worked_at_start += static_cast<double>(b.worked - a.worked) * std::min(1.0, (start - a.seconds) / (b.seconds - a.seconds));
  const double span = last.seconds - std::max(start, a.seconds);
  const double worked = static_cast<double>(last.worked) - worked_at_start;
  if (span < 1.0 || worked <= 0) return std::nullopt;
  return worked / span;
}

}  // namespace dtb::gen
