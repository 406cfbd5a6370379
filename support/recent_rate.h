// The rate of the recent work, for a progress line's ETA.
//
// Why not the rate of the whole run: a build of hours meets a machine whose
// load changes (it was stopped for an hour, or two test suites ran beside
// it), and work whose real cost per counted unit drifts from what its
// weights say (7-piece units cost several times a 6-piece one a position).
// The whole run's rate carries all of that to the end: a build paused for
// 40 minutes promised twice the time it needed for the rest of its run.
// The rate over the last part of the run forgets it.
//
// The window is a quarter of the time elapsed, at least five minutes: long
// enough to span the phases of a unit (a first pass, then rounds of
// propagation, which the weights price only roughly), short enough to forget
// a pause. Replayed on the per-unit timings of builds (2-6, kings-only 7
// with MTC), it kept the ETA within a factor of two of the time left more
// often than the whole run's rate (never less often).
//
// A process that was stopped (SIGSTOP, a suspended machine) is another
// case: no sample comes while it is stopped, though the progress line
// samples every few seconds whatever the work does (its heartbeat). The
// window alone forgot such a pause only slowly, and just after one it held
// little but the pause: a verify stopped for 23 minutes printed "ETA
// 1232h29m". A gap between samples far longer than their interval is
// therefore taken as time the process did not run, and left out of the
// clock the rate and the window are measured on: the ETA then assumes the
// process runs from now on, which is all it can know.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>

namespace dtb::gen {

class RecentRate {
 public:
  static constexpr double kMinWindowSeconds = 300, kWindowShare = 0.25;
  /// A gap between samples of more than this many intervals is a stop.
  static constexpr double kStopIntervals = 6, kMinStopSeconds = 60;

  /// `sample_seconds`: how often the caller samples while the process runs.
  explicit RecentRate(double sample_seconds = 10)
      : stop_gap_(std::max(kMinStopSeconds, kStopIntervals * sample_seconds)), sample_seconds_(sample_seconds) {}

  /// The work done by `seconds` since the start (work only: not what a
  /// resumed run found done). Samples come in time order; one a second is
  /// plenty (closer ones are dropped). A gap longer than a stop's counts as
  /// one sample interval of running.
  void record(double seconds, std::uint64_t worked);
  /// Work a second over the window ending at the last sample; nullopt
  /// before a second has passed or while the window saw no work.
  std::optional<double> rate() const;
  /// The window's length at `seconds` elapsed.
  static double window(double seconds);
  /// Seconds left out of the clock as stops so far.
  double stopped_seconds() const { return stopped_; }

 private:
  struct Sample {
    double seconds;
    std::uint64_t worked;
  };
  std::deque<Sample> samples_;  // the first at or before the window's start; running seconds
  double stop_gap_, sample_seconds_;
  double stopped_ = 0;     // wall seconds taken out of the clock as stops
  double last_wall_ = 0;   // wall time of the last sample
};

}  // namespace dtb::gen
