// The builder's promises: the same bytes for any thread count, and an
// interrupted run (killed mid-table) resumes into the same files.
#include <catch2/catch.hpp>

#include <omp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <tuple>

#include "support/progress_bar.h"
#include "gen/table_builder.h"
#include "solver/unit_solver.h"
#include "index/position_index.h"
#include "tests/gen/test_tables.h"

using namespace dtb;
namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every .wdl of `dir` is byte-identical to the one of the same name in
// `reference`, and `dir` holds exactly `expected` tables, their recorded
// counts (.stats, which name the table's checksum, so they match too) and
// nothing else.
void expect_same_tables(const std::string& dir, const std::string& reference, int expected) {
  int count = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    INFO(e.path().string());
    const auto extension = e.path().extension();
    REQUIRE((extension == ".wdl" || extension == ".stats"));  // no leftover temporary file
    CHECK(contents(e.path()) == contents(fs::path(reference) / e.path().filename()));
    count += extension == ".wdl";
  }
  CHECK(count == expected);
}

int count_tables(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".wdl";
  return n;
}

// Run `dtb gen` as a child process; returns its pid.
pid_t spawn_gen(const std::vector<std::string>& args) {
  const char* binary = std::getenv("DTB_BINARY");
  REQUIRE(binary);
  std::vector<std::string> full = {binary, "gen", "--quiet"};
  full.insert(full.end(), args.begin(), args.end());
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary, argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("one thread and two threads write byte-identical 2-4 piece tables") {
  const std::string& reference = gen::testing::test_tables_dir();  // built with 2 threads
  const std::string dir = gen::testing::make_temp_dir("one-thread");
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  gen::BuildOptions options;
  options.max_pieces = gen::testing::kTestPieces;
  options.out_dir = dir;
  gen::BuildSummary summary;
  std::string error;
  const auto status = gen::build_tables(options, summary, error);
  omp_set_num_threads(saved);
  INFO(error);
  REQUIRE(status == gen::BuildStatus::Ok);
  expect_same_tables(dir, reference, count_tables(reference));
}

TEST_CASE("a build killed mid-table resumes into the same files") {
  const std::string& reference = gen::testing::test_tables_dir();
  const std::string dir = gen::testing::make_temp_dir("killed");
  // KMvKM needs a dozen smaller units: kill once a few tables are done.
  const std::vector<std::string> args = {"--only", "KMvKM", "--threads", "2", "--out", dir};

  SECTION("SIGKILL") {
    const pid_t pid = spawn_gen(args);
    while (count_tables(dir) < 8) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGKILL);
    CHECK(wait_exit(pid) == 128 + SIGKILL);
  }
  SECTION("SIGTERM stops cleanly with a non-zero exit") {
    const pid_t pid = spawn_gen(args);
    while (count_tables(dir) < 8) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(pid, SIGTERM);
    CHECK(wait_exit(pid) == 130);
    for (const auto& e : fs::directory_iterator(dir))
      CHECK((e.path().extension() == ".wdl" || e.path().extension() == ".stats"));
  }
  const int partial = count_tables(dir);
  REQUIRE(wait_exit(spawn_gen(args)) == 0);
  CHECK(count_tables(dir) > partial);
  expect_same_tables(dir, reference, count_tables(dir));
}

TEST_CASE("a build with MTC leaves no scratch file behind, and removes those nothing resumes") {
  const std::string dir = gen::testing::make_temp_dir("mtc-scratch-build");
  std::ofstream(dir + "/KKKKKvKK.mtc-work") << "left by a killed run, no checkpoint";
  gen::BuildOptions options;
  options.max_pieces = 3;
  options.out_dir = dir;
  options.mtc = true;
  gen::BuildSummary summary;
  std::string error;
  REQUIRE(gen::build_tables(options, summary, error) == gen::BuildStatus::Ok);
  int mtc_tables = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    INFO(e.path().string());
    CHECK(e.path().extension() != ".mtc-work");
    mtc_tables += e.path().extension() == ".mtc";
  }
  CHECK(mtc_tables == count_tables(dir));
  CHECK(std::find(summary.notes.begin(), summary.notes.end(), "removed unused KKKKKvKK.mtc-work") !=
        summary.notes.end());
}

// What a run stopped after writing a unit's tables leaves (a full disk or a
// kill before its sidecars, checkpoint removal or while writing a sidecar):
// the rerun keeps the tables, counts their sidecars again to the same bytes
// and removes the rest. tests/cli/gen_faults.sh makes these faults for real.
TEST_CASE("a rerun restores the sidecars a finished table lacks and removes what it would resume from") {
  const std::string dir = gen::testing::make_temp_dir("unrecorded-sidecars");
  gen::BuildOptions options;
  options.max_pieces = 3;
  options.out_dir = dir;
  options.mtc = true;
  gen::BuildSummary summary;
  std::string error;
  REQUIRE(gen::build_tables(options, summary, error) == gen::BuildStatus::Ok);
  const std::vector<std::string> sidecars = {"KMvK.stats", "KMvK.mtc-stats", "KvKM.mtc-stats"};
  std::vector<std::string> recorded;
  for (const std::string& name : sidecars) {
    recorded.push_back(contents(dir + "/" + name));
    fs::remove(dir + "/" + name);
  }
  for (const char* name : {"KMvK.level", "KMvK.mtc-work", "KvKM.mtc-work", "KvKM.stats.tmp-a1B2c3"})
    std::ofstream(dir + "/" + name) << "left by a stopped run";

  gen::BuildSummary resumed;
  REQUIRE(gen::build_tables(options, resumed, error) == gen::BuildStatus::Ok);
  CHECK(resumed.tables_built == 0);
  for (std::size_t k = 0; k < sidecars.size(); ++k) {
    INFO(sidecars[k]);
    CHECK(contents(dir + "/" + sidecars[k]) == recorded[k]);
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    INFO(e.path().string());
    const auto extension = e.path().extension();
    CHECK((extension == ".wdl" || extension == ".mtc" || extension == ".stats" || extension == ".mtc-stats"));
  }
}

TEST_CASE("a resumed build counts the units it finds finished as done, not as work of this run") {
  const std::string dir = gen::testing::make_temp_dir("progress-resume");
  gen::BuildOptions options;
  options.max_pieces = 3;
  options.out_dir = dir;
  gen::BuildSummary summary;
  std::string error;
  REQUIRE(gen::build_tables(options, summary, error) == gen::BuildStatus::Ok);
  const std::vector<Material> done = gen::units_to_build(options);
  // A 3-piece table damaged: its unit is solved again, so it counts as work to do.
  const Material damaged = done.back();
  fs::resize_file(dir + "/" + damaged.name() + ".wdl", 100);

  options.max_pieces = 4;
  gen::BuildSummary resumed;
  gen::UnitBuilder builder(options, resumed);
  std::vector<Material> missing;
  REQUIRE(builder.prepare(missing, error) == gen::BuildStatus::Ok);
  std::uint64_t all = 0, finished = 0;
  for (const Material& m : gen::units_to_build(options)) all += builder.unit_work(m);
  for (const Material& m : done)
    if (m != damaged) finished += builder.unit_work(m);
  const gen::ProgressBar& progress = builder.progress();
  CHECK(progress.total() == all);
  CHECK(progress.done() == finished);     // the percentage: how much of the whole build is done
  CHECK(progress.skipped() == finished);  // and none of it sets the rate the ETA extrapolates
  CHECK(std::find(missing.begin(), missing.end(), damaged) != missing.end());
}

// The progress line counts work for each position's first pass, for the
// propagation (solver/unit_solver.h, kSolveWorkPerPosition) and for writing
// the files (UnitBuilder::write_work); the propagation's share is spread over
// the positions the rounds are expected to decide
// (solver/propagation_forecast.h). However the forecast errs, each unit ends
// having reported exactly its work: no jump past the total, none short of it.
TEST_CASE("every unit reports exactly its work, whatever the forecast of its rounds") {
  const auto [kings_only, pieces, mtc] = GENERATE(std::tuple{false, 3, false}, std::tuple{false, 3, true},
                                                  std::tuple{true, 4, false}, std::tuple{true, 4, true});
  const std::string dir = gen::testing::make_temp_dir("progress-exact");
  gen::BuildOptions options;
  options.max_pieces = pieces;
  options.kings_only = kings_only;
  options.mtc = mtc;
  options.out_dir = dir;
  gen::BuildSummary summary;
  gen::UnitBuilder builder(options, summary);
  std::vector<Material> missing;
  std::string error;
  REQUIRE(builder.prepare(missing, error) == gen::BuildStatus::Ok);
  REQUIRE(builder.open_finished(64 << 20, 0, error) == gen::BuildStatus::Ok);
  std::uint64_t expected = 0;
  for (const Material& m : missing) {
    INFO(m.name());
    REQUIRE(builder.build(m, {}, error) == gen::BuildStatus::Ok);
    expected += builder.unit_work(m);
    CHECK(builder.progress().done() == expected);
  }
  CHECK(expected == builder.progress().total());
}

// Two kings against two: most positions are drawn, and draws are never
// decided by a round. Counting the propagation's work a decided position at
// a time left the bar at about the share of decided positions until the
// unit's end; spread over the forecast decisions it is nearly full by the
// last round.
TEST_CASE("a unit of many draws moves the progress bar through its rounds, not at its end") {
  const std::string dir = gen::testing::make_temp_dir("progress-draws");
  gen::BuildOptions options;
  options.max_pieces = 3;
  options.kings_only = true;
  options.out_dir = dir;
  gen::BuildSummary summary;
  std::string error;
  gen::UnitBuilder builder(options, summary);
  std::vector<Material> missing;
  REQUIRE(builder.prepare(missing, error) == gen::BuildStatus::Ok);
  REQUIRE(builder.open_finished(64 << 20, 0, error) == gen::BuildStatus::Ok);
  for (const Material& m : missing) REQUIRE(builder.build(m, {}, error) == gen::BuildStatus::Ok);

  const Material unit = *parse_material("KKvKK");
  const std::uint64_t positions = PositionIndex(unit).size();  // a symmetric unit: one table
  const std::uint64_t work = gen::kSolveWorkPerPosition * positions;
  gen::ProgressBar bar("test", work, false);
  std::vector<std::uint64_t> done_before_round;
  gen::SolveOptions solve;
  // The default split of a position's work and the ones a builder may set
  // for a kings-only unit (gen::first_pass_work_for).
  solve.first_pass_work = GENERATE(as<std::uint64_t>{}, 3, 8, 9);
  static_assert(gen::kFirstPassWork == 8);
  solve.before_round = [&](int) { done_before_round.push_back(bar.done()); };
  gen::UnitSolution solution;
  REQUIRE(gen::solve_unit(unit, builder.finished(), &bar, solution, solve) == gen::SolveStatus::Ok);
  REQUIRE(done_before_round.size() >= 4);
  CHECK(done_before_round.front() == solve.first_pass_work * positions);  // the first pass, exactly
  const gen::MaterialStats stats = solution.values[0]->count(unit);
  const auto decided = static_cast<double>(stats.win + stats.loss);
  std::string trail;
  for (const auto d : done_before_round) trail += std::to_string(d) + " ";
  INFO("done before each round: " << trail);
  INFO("positions " << positions << ", decided " << decided << ", done before the last round "
                    << done_before_round.back());
  CHECK(decided < 0.5 * static_cast<double>(positions));  // the old count would stop near 75-85 %
  CHECK(static_cast<double>(done_before_round.back()) >= 0.99 * static_cast<double>(work));
  CHECK(std::is_sorted(done_before_round.begin(), done_before_round.end()));
  CHECK(bar.done() == work);
}
