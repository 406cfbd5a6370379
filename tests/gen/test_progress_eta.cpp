// The progress line's ETA (support/progress_bar.h): extrapolated from the work
// done in this run only, so a build resumed from a checkpoint does not
// promise the rest at the speed of skipping what was already done.
#include <catch2/catch.hpp>

#include <vector>

#include "support/progress_bar.h"
#include "solver/propagation_forecast.h"

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

TEST_CASE("a shrinking frontier forecasts the positions its later rounds decide") {
  using dtb::gen::forecast_remaining_decisions;
  // Halving each round: 250 + 125 + ... after a round of 250.
  const std::vector<std::uint64_t> halving = {7, 1000, 500, 250};
  CHECK(*forecast_remaining_decisions(halving) == 250);
  // A tenth each round: 10 + 1 + ... after a round of 100.
  const std::vector<std::uint64_t> tenth = {0, 10000, 1000, 100};
  CHECK(*forecast_remaining_decisions(tenth) == 11);
  // Still growing, level, or too few rounds: nothing is known.
  const std::vector<std::uint64_t> growing = {0, 10, 100};
  const std::vector<std::uint64_t> level = {0, 100, 100};
  const std::vector<std::uint64_t> short_run = {5, 100};
  CHECK_FALSE(forecast_remaining_decisions(growing));
  CHECK_FALSE(forecast_remaining_decisions(level));
  CHECK_FALSE(forecast_remaining_decisions(short_run));
}
