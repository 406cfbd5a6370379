// The progress line's ETA (support/progress_bar.h): extrapolated from the work
// done in this run only, so a build resumed from a checkpoint does not
// promise the rest at the speed of skipping what was already done.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <vector>

#include "gen/phases_sidecar.h"
#include "gen/table_builder.h"
#include "tests/gen/test_tables.h"
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

TEST_CASE("work found needed after all grows the total, at the weight set, so the bar never passes it") {
  dtb::gen::ProgressBar bar("test", 1000, false);
  bar.advance(900);
  bar.set_weight(2);
  bar.add_work(500);  // counts 1000
  CHECK(bar.total() == 2000);
  CHECK(bar.done() == 900);
  bar.advance(500);
  CHECK(bar.done() == 1900);
  CHECK(bar.done() < bar.total());
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

TEST_CASE("the ETA's rate is that of the recent work, so a slow spell fades out of it") {
  using dtb::gen::RecentRate;
  RecentRate steady;
  for (int t = 10; t <= 600; t += 10) steady.record(t, 100 * static_cast<std::uint64_t>(t));
  CHECK(*steady.rate() == Approx(100.0));

  // 100 a second for 1000 s, then 10 a second for 2000 s (the machine
  // busy), then 100 a second again. At 4000 s the window is its last
  // quarter, 1000 s at full speed; the whole run's rate is about half of that.
  RecentRate slowed;
  std::uint64_t worked = 0;
  for (int t = 10; t <= 4000; t += 10) slowed.record(t, worked += (t > 1000 && t <= 3000) ? 100 : 1000);
  CHECK(*slowed.rate() == Approx(100.0));
  // Just after the slow spell, the window (1,000 s) still spans most of it.
  RecentRate just_after;
  worked = 0;
  for (int t = 10; t <= 3100; t += 10) just_after.record(t, worked += (t > 1000 && t <= 3000) ? 100 : 1000);
  CHECK(*just_after.rate() < 50.0);
}

TEST_CASE("time the process was stopped is not part of the ETA's rate") {
  using dtb::gen::RecentRate;
  // 100 a second for 1000 s, sampled every 10 s; stopped for 2000 s right
  // after; the first sample after it comes 10 s into the run again.
  RecentRate r(10);
  for (int t = 10; t <= 1000; t += 10) r.record(t, 100 * static_cast<std::uint64_t>(t));
  r.record(3000, 101000);
  CHECK(*r.rate() == Approx(100.0));
  CHECK(r.stopped_seconds() == Approx(1990.0));
  for (int t = 3010; t <= 3100; t += 10) r.record(t, 100 * static_cast<std::uint64_t>(t - 1990));
  CHECK(*r.rate() == Approx(100.0));
  // A gap of a few sample intervals is the process running slowly, not a stop.
  RecentRate slow(10);
  for (int t = 10; t <= 1000; t += 10) slow.record(t, 100 * static_cast<std::uint64_t>(t));
  slow.record(1050, 100000);  // nothing done in 50 s
  CHECK(slow.stopped_seconds() == 0.0);
  CHECK(*slow.rate() < 100.0);
  // Lines further apart (a longer log interval) take a longer gap to be a stop.
  RecentRate sparse(60);
  for (int t = 60; t <= 1200; t += 60) sparse.record(t, 100 * static_cast<std::uint64_t>(t));
  sparse.record(1500, 120000);
  CHECK(sparse.stopped_seconds() == 0.0);
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

TEST_CASE("a kings-only unit built alone splits its progress as its sibling's recorded phases say") {
  namespace gen = dtb::gen;
  const auto unit = [](const char* name) { return *dtb::parse_material(name); };
  const std::string dir = gen::testing::make_temp_dir("phases-read");
  gen::BuildOptions options;
  options.kings_only = true;
  options.max_pieces = 5;
  options.out_dir = dir;
  gen::BuildSummary summary;
  const gen::UnitBuilder builder(options, summary);
  CHECK(builder.first_pass_work(unit("KKKvK")) == gen::kFirstPassWork);  // nothing recorded

  gen::SolvePhases phases;
  phases.first_pass = 10;
  phases.propagate = 30;
  std::string error;
  REQUIRE(gen::write_phases_sidecar(dir, unit("KKvK"), phases, false, error));
  CHECK(builder.first_pass_work(unit("KKKvK")) == 3);
  // Recorded under either colour order: three kings against one with Black stronger.
  CHECK(builder.first_pass_work(unit("KvKKK")) == 3);
  // Not for a unit with another sibling, nor for a build with MTC.
  CHECK(builder.first_pass_work(unit("KKKvKK")) == gen::kFirstPassWork);
  gen::BuildOptions with_mtc = options;
  with_mtc.mtc = true;
  CHECK(gen::UnitBuilder(with_mtc, summary).first_pass_work(unit("KKKvK")) == gen::kFirstPassWork);

  // A damaged record is not read.
  const std::string path = gen::phases_sidecar_path(dir, unit("KKvK"));
  std::string line;
  std::getline(std::ifstream(path), line);
  line[line.find(" 30.000 ") + 1] = '9';
  std::ofstream(path) << line << "\n";
  CHECK_FALSE(gen::read_phases_sidecar(dir, unit("KKvK"), false));
  CHECK(builder.first_pass_work(unit("KKKvK")) == gen::kFirstPassWork);
}

TEST_CASE("a kings-only unit solved from its start records its phases, a unit too quick to measure does not") {
  namespace gen = dtb::gen;
  const auto unit = [](const char* name) { return *dtb::parse_material(name); };
  const std::string dir = gen::testing::make_temp_dir("phases-write");
  gen::BuildOptions options;
  options.kings_only = true;
  options.max_pieces = 5;
  options.only = unit("KKKKvK");  // its solve takes seconds; its closure's well under one
  options.out_dir = dir;
  gen::BuildSummary summary;
  std::string error;
  REQUIRE(gen::build_tables(options, summary, error) == gen::BuildStatus::Ok);
  const gen::UnitTiming& timing = summary.units.back();
  REQUIRE(timing.unit == unit("KKKKvK"));
  const auto recorded = gen::read_phases_sidecar(dir, unit("KKKKvK"), false);
  REQUIRE(recorded);
  CHECK(recorded->first_pass == Approx(timing.solve.first_pass).margin(0.001));
  CHECK(recorded->propagate == Approx(timing.solve.propagate).margin(0.001));
  CHECK_FALSE(gen::read_phases_sidecar(dir, unit("KKKKvK"), true));  // recorded for a build without MTC
  CHECK_FALSE(std::filesystem::exists(gen::phases_sidecar_path(dir, unit("KvK"))));
  // Five kings against one, built next alone, follows it.
  gen::BuildSummary later;
  const gen::UnitBuilder next(options, later);
  CHECK(next.first_pass_work(unit("KKKKKvK")) == gen::first_pass_work_for(unit("KKKKKvK"), {timing}));
}
