// The progress line's ETA (gen/progress_bar.h): extrapolated from the work
// done in this run only, so a build resumed from a checkpoint does not
// promise the rest at the speed of skipping what was already done.
#include <catch2/catch.hpp>

#include "gen/progress_bar.h"

using dtb::gen::remaining_seconds;

TEST_CASE("the ETA extrapolates the rate of the work done, not of the work skipped") {
  // A quarter done in 100 s: three quarters left take 300 s.
  CHECK(*remaining_seconds(1000, 250, 0, 100.0) == Approx(300.0));
  // Resumed: 200 of the 250 were found done by a checkpoint; 50 took 100 s,
  // so the 750 left take 1500 s (the old ETA said 300 s).
  CHECK(*remaining_seconds(1000, 250, 200, 100.0) == Approx(1500.0));
  // Nothing worked yet (only skipped), too early, or finished: no estimate.
  CHECK_FALSE(remaining_seconds(1000, 200, 200, 100.0));
  CHECK_FALSE(remaining_seconds(1000, 250, 0, 0.5));
  CHECK_FALSE(remaining_seconds(1000, 1000, 0, 100.0));
  CHECK_FALSE(remaining_seconds(1000, 1200, 0, 100.0));
}
