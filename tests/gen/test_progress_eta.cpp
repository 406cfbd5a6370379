// The progress line's ETA (support/progress_bar.h): extrapolated from the work
// done in this run only, so a build resumed from a checkpoint does not
// promise the rest at the speed of skipping what was already done.
#include <catch2/catch.hpp>

#include <vector>

#include "gen/table_builder.h"
#include "index/material.h"
#include "support/progress_bar.h"
#include "solver/propagation_forecast.h"
#include "support/recent_rate.h"

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

TEST_CASE("the ETA's rate is that of the recent work, so a pause fades out of it") {
  using dtb::gen::RecentRate;
  RecentRate steady;
  for (int t = 10; t <= 600; t += 10) steady.record(t, 100 * static_cast<std::uint64_t>(t));
  CHECK(*steady.rate() == Approx(100.0));

  // 100 a second for 1000 s, stopped for 2000 s (no samples: the process
  // was stopped), then 100 a second again. At 4000 s the window is its last
  // quarter, 1000 s of work at full speed; the whole run's rate is half that.
  RecentRate paused;
  for (int t = 10; t <= 1000; t += 10) paused.record(t, 100 * static_cast<std::uint64_t>(t));
  for (int t = 3000; t <= 4000; t += 10) paused.record(t, 100 * static_cast<std::uint64_t>(t - 2000));
  CHECK(*paused.rate() == Approx(100.0));
  // Just after the stop, the window (1,000 s) still spans most of the pause.
  RecentRate just_after;
  for (int t = 10; t <= 1000; t += 10) just_after.record(t, 100 * static_cast<std::uint64_t>(t));
  just_after.record(3000, 100000);
  just_after.record(3100, 110000);
  CHECK(*just_after.rate() < 50.0);
}

TEST_CASE("the recent rate's window is a quarter of the run, at least five minutes") {
  using dtb::gen::RecentRate;
  CHECK(RecentRate::window(100) == 300);
  CHECK(RecentRate::window(4000) == 1000);
  // At 400 s: the last 300 s only, not the slow first 100 s.
  RecentRate r;
  r.record(100, 100);
  for (int t = 110; t <= 400; t += 10) r.record(t, 100 + 50 * static_cast<std::uint64_t>(t - 100));
  CHECK(*r.rate() == Approx(50.0));
}

TEST_CASE("no recent rate without recent work or time") {
  using dtb::gen::RecentRate;
  RecentRate none;
  CHECK_FALSE(none.rate());
  none.record(0.5, 10);  // under a second after the start: dropped
  CHECK_FALSE(none.rate());
  RecentRate stalled;
  stalled.record(10, 500);
  for (int t = 20; t <= 2000; t += 10) stalled.record(t, 500);  // nothing since 10 s: the window saw no work
  CHECK_FALSE(stalled.rate());
}

TEST_CASE("a kings-only unit splits its progress as the unit with one king fewer did") {
  using dtb::gen::first_pass_work_for;
  using dtb::gen::kFirstPassWork;
  const auto unit = [](const char* name) { return *dtb::parse_material(name); };
  const auto timing = [&](const char* name, double first_pass, double propagate) {
    dtb::gen::UnitTiming t;
    t.unit = unit(name);
    t.solve.first_pass = first_pass;
    t.solve.propagate = propagate;
    return t;
  };
  // Nothing built yet, or only other units: the default split.
  CHECK(first_pass_work_for(unit("KKKKvK"), {}) == kFirstPassWork);
  CHECK(first_pass_work_for(unit("KKKKvK"), {timing("KKvKK", 10, 30)}) == kFirstPassWork);
  // Five kings against one after four against one: an even split.
  CHECK(first_pass_work_for(unit("KKKKKvK"), {timing("KKKKvK", 10, 10)}) == 6);
  // The sibling under its other colour, and the stronger side black.
  CHECK(first_pass_work_for(unit("KvKKKKK"), {timing("KvKKKK", 10, 10)}) == 6);
  CHECK(first_pass_work_for(unit("KKvKKK"), {timing("KKvKK", 30, 10)}) == 9);
  // Never below a quarter nor above three quarters; too short a sample, or a
  // unit with men: the default.
  CHECK(first_pass_work_for(unit("KKKKKvK"), {timing("KKKKvK", 1, 99)}) == 3);
  CHECK(first_pass_work_for(unit("KKKKKvK"), {timing("KKKKvK", 99, 1)}) == 9);
  CHECK(first_pass_work_for(unit("KKKKKvK"), {timing("KKKKvK", 0.2, 0.3)}) == kFirstPassWork);
  CHECK(first_pass_work_for(unit("KKKKMvK"), {timing("KKKMvK", 10, 10)}) == kFirstPassWork);
}
