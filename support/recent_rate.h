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
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace dtb::gen {

class RecentRate {
 public:
  static constexpr double kMinWindowSeconds = 300, kWindowShare = 0.25;

  /// The work done by `seconds` since the start (work only: not what a
  /// resumed run found done). Samples come in time order; one a second is
  /// plenty (closer ones are dropped).
  void record(double seconds, std::uint64_t worked);
  /// Work a second over the window ending at the last sample; nullopt
  /// before a second has passed or while the window saw no work.
  std::optional<double> rate() const;
  /// The window's length at `seconds` elapsed.
  static double window(double seconds);

 private:
  struct Sample {
    double seconds;
    std::uint64_t worked;
  };
  std::deque<Sample> samples_;  // the first at or before the window's start
};

}  // namespace dtb::gen
