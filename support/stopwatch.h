// Wall-clock timing of the generator's phases (the build summary,
// `dtb gen --timings`, the benchmarks). Wall, not CPU, time: the phases run
// on every thread, and wall time is what a user waits for.
#pragma once

#include <chrono>

namespace dtb::gen {

class Stopwatch {
 public:
  /// Seconds since construction or the previous lap(); starts the next lap.
  double lap() {
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return seconds;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
};

}  // namespace dtb::gen
