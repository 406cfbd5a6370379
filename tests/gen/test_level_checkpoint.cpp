// Level checkpoints (solver/level_checkpoint.h): a unit's solve stopped between
// levels resumes from its checkpoint into exactly the values (and MTC) of an
// uninterrupted solve; a damaged, foreign or truncated checkpoint is ignored.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <vector>

#include "support/interrupt.h"
#include "index/position_index.h"
#include "solver/level_checkpoint.h"
#include "solver/level_order.h"
#include "solver/slice_order.h"
#include "solver/unit_solver.h"
#include "tests/gen/test_tables.h"

using namespace dtb;

namespace {

// The test tables, asking for an interrupt at the `stop_at`-th lookup (0: never).
class InterruptingValues final : public gen::FinishedValues {
 public:
  InterruptingValues(const gen::FinishedValues& inner, std::uint64_t stop_at) : inner_(inner), stop_at_(stop_at) {}
  Wdl value(const Position& p) const override {
    if (++lookups_ == stop_at_) gen::request_interrupt();
    return inner_.value(p);
  }
  std::uint64_t lookups() const { return lookups_; }

 private:
  const gen::FinishedValues& inner_;
  std::uint64_t stop_at_;
  mutable std::atomic<std::uint64_t> lookups_{0};
};

// Every MTC value, wherever they are kept (memory or scratch file).
std::vector<std::uint8_t> all_mtc(const gen::MtcValues& mtc) {
  std::vector<std::uint8_t> plies(mtc.size());
  mtc.read(0, plies);
  return plies;
}

void expect_same(const gen::UnitSolution& a, const gen::UnitSolution& b) {
  REQUIRE(a.values.size() == b.values.size());
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    CHECK(*a.values[k] == *b.values[k]);
    REQUIRE(a.mtc.size() == b.mtc.size());
    if (k < a.mtc.size()) CHECK(all_mtc(*a.mtc[k]) == all_mtc(*b.mtc[k]));
  }
  CHECK(a.rounds == b.rounds);
}

// With MTC (the checkpoint then carries it too) and a checkpoint after every
// level ("" : none); MTC in scratch files in `scratch_dir` if not empty.
gen::SolveOptions every_level(const std::string& path, const std::string& scratch_dir = "") {
  gen::SolveOptions options;
  options.mtc = true;
  options.checkpoint_path = path;
  options.checkpoint_seconds = 0;
  options.mtc_scratch_dir = scratch_dir;
  return options;
}

}  // namespace

TEST_CASE("a unit solve stopped between levels resumes from its checkpoint") {
  const gen::WdlStore& store = gen::testing::test_store();
  const std::string dir = gen::testing::make_temp_dir("level-checkpoint");
  for (const char* name : {"MMvMM", "KMvMM"}) {
    INFO(name);
    const Material m = *parse_material(name);
    const std::string path = gen::level_checkpoint_path(dir, m);
    gen::UnitSolution reference;
    InterruptingValues counting(store, 0);
    REQUIRE(gen::solve_unit(m, counting, nullptr, reference, every_level("")) == gen::SolveStatus::Ok);
    REQUIRE(reference.levels > 3);

    for (const double at : {0.3, 0.7}) {  // stop part-way: some levels done, not all
      std::filesystem::remove(path);
      InterruptingValues stopping(store, static_cast<std::uint64_t>(at * double(counting.lookups())));
      gen::UnitSolution stopped;
      CHECK(gen::solve_unit(m, stopping, nullptr, stopped, every_level(path)) == gen::SolveStatus::Interrupted);
      gen::clear_interrupt();
      REQUIRE(std::filesystem::exists(path));

      gen::UnitSolution resumed;
      REQUIRE(gen::solve_unit(m, store, nullptr, resumed, every_level(path)) == gen::SolveStatus::Ok);
      CHECK(resumed.resumed_level >= 0);
      CHECK(resumed.resumed_level < reference.levels - 1);
      expect_same(resumed, reference);
    }

    SECTION("a damaged checkpoint is not trusted") {
      std::filesystem::remove(path);
      InterruptingValues stopping(store, counting.lookups() / 2);
      gen::UnitSolution stopped;
      (void)gen::solve_unit(m, stopping, nullptr, stopped, every_level(path));
      gen::clear_interrupt();
      REQUIRE(std::filesystem::exists(path));
      {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 2));
        f.put('\x5a');  // a byte in the values; the hash no longer matches
      }
      gen::UnitSolution fresh;
      REQUIRE(gen::solve_unit(m, store, nullptr, fresh, every_level(path)) == gen::SolveStatus::Ok);
      CHECK(fresh.resumed_level == -1);
      expect_same(fresh, reference);
    }
    SECTION("another unit's checkpoint is not taken") {
      const Material other = *parse_material(std::string(name) == "MMvMM" ? "KMvMM" : "MMvMM");
      std::filesystem::remove(path);
      InterruptingValues stopping(store, counting.lookups() / 2);
      gen::UnitSolution stopped;
      (void)gen::solve_unit(m, stopping, nullptr, stopped, every_level(path));
      gen::clear_interrupt();
      gen::UnitSolution solved;
      InterruptingValues plain(store, 0);
      REQUIRE(gen::solve_unit(other, plain, nullptr, solved, every_level(path)) == gen::SolveStatus::Ok);
      CHECK(solved.resumed_level == -1);
    }
  }
}

// `dtb gen --mtc` keeps MTC values in scratch files (support/scratch_file.h) and
// its checkpoints keep only a hash per level of them.
TEST_CASE("MTC kept in scratch files: the same values, resumed from a checkpoint, checked when resumed") {
  const gen::WdlStore& store = gen::testing::test_store();
  const std::string dir = gen::testing::make_temp_dir("mtc-scratch");
  const Material m = *parse_material("KMvMM");
  const std::string path = gen::level_checkpoint_path(dir, m);
  gen::UnitSolution reference;
  InterruptingValues counting(store, 0);
  REQUIRE(gen::solve_unit(m, counting, nullptr, reference, every_level("")) == gen::SolveStatus::Ok);

  gen::UnitSolution whole;
  REQUIRE(gen::solve_unit(m, store, nullptr, whole, every_level(path, dir)) == gen::SolveStatus::Ok);
  REQUIRE(whole.mtc.size() == 2);
  for (const auto& mtc : whole.mtc) {
    REQUIRE(mtc->file());
    CHECK(std::filesystem::file_size(mtc->file()->path()) == mtc->size());
  }
  expect_same(whole, reference);

  // Stopped part-way; `damage` flips a byte of the top level's MTC in the
  // scratch file (a finished level in any checkpoint) before resuming.
  for (const bool damage : {false, true}) {
    INFO("damaged scratch file: " << damage);
    std::filesystem::remove(path);
    InterruptingValues stopping(store, counting.lookups() / 2);
    gen::UnitSolution stopped;
    REQUIRE(gen::solve_unit(m, stopping, nullptr, stopped, every_level(path, dir)) == gen::SolveStatus::Interrupted);
    gen::clear_interrupt();
    REQUIRE(std::filesystem::exists(path));
    stopped = gen::UnitSolution();  // unmaps the scratch files; they stay
    if (damage) {
      const PositionIndex index(m);
      const gen::SliceLevels levels(index);
      const std::uint64_t at = levels.level(levels.levels() - 1).front() * index.kings_per_slice();
      std::fstream f(gen::mtc_scratch_path(dir, m), std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(static_cast<std::streamoff>(at));
      const char was = static_cast<char>(f.get());
      f.seekp(static_cast<std::streamoff>(at));
      f.put(static_cast<char>(was ^ 0x5a));
    }
    gen::UnitSolution resumed;
    REQUIRE(gen::solve_unit(m, store, nullptr, resumed, every_level(path, dir)) == gen::SolveStatus::Ok);
    if (damage)
      CHECK(resumed.resumed_level == -1);
    else
      CHECK(resumed.resumed_level >= 0);
    expect_same(resumed, reference);
  }
}

// Spilled values (solver/unit_values.h): a unit's finished levels kept in
// scratch files give every value, capture flag and MTC of the in-memory
// solve; a solve stopped part-way resumes into the same; a finished level
// changed in the file is noticed and the unit solved afresh.
TEST_CASE("values spilled to scratch files: the same values, resumed from a checkpoint, checked when resumed") {
  const gen::WdlStore& store = gen::testing::test_store();
  const std::string dir = gen::testing::make_temp_dir("values-scratch");
  for (const char* name : {"MMvMM", "KMvMM", "KKvKM", "MMMvM"}) {
    INFO(name);
    const Material m = *parse_material(name);
    const std::string path = gen::level_checkpoint_path(dir, m);
    gen::UnitSolution reference;
    InterruptingValues counting(store, 0);
    REQUIRE(gen::solve_unit(m, counting, nullptr, reference, every_level("")) == gen::SolveStatus::Ok);

    gen::SolveOptions spilled = every_level(path, dir);
    spilled.values_scratch_dir = dir;
    std::filesystem::remove(path);
    gen::UnitSolution whole;
    REQUIRE(gen::solve_unit(m, store, nullptr, whole, spilled) == gen::SolveStatus::Ok);
    for (const auto& values : whole.values) {
      REQUIRE(values->file());
      CHECK(values->memory_bytes() == 0);
    }
    expect_same(whole, reference);
    const gen::MaterialStats counted = whole.values[0]->count(m), expected = reference.values[0]->count(m);
    CHECK(counted.win == expected.win);
    CHECK(counted.draw == expected.draw);
    CHECK(counted.loss == expected.loss);
    CHECK(counted.captures == expected.captures);
    CHECK(counted.quiet_win == expected.quiet_win);

    for (const bool damage : {false, true}) {
      INFO("damaged values file: " << damage);
      std::filesystem::remove(path);
      InterruptingValues stopping(store, counting.lookups() / 2);
      gen::UnitSolution stopped;
      REQUIRE(gen::solve_unit(m, stopping, nullptr, stopped, spilled) == gen::SolveStatus::Interrupted);
      gen::clear_interrupt();
      REQUIRE(std::filesystem::exists(path));
      stopped = gen::UnitSolution();  // unmaps the scratch files; they stay
      if (damage) {  // a value of the top level, finished in any checkpoint
        const PositionIndex index(m);
        const gen::SliceLevels levels(index);
        const std::uint64_t at = gen::LevelOrder(index, levels).slice_start(levels.level(levels.levels() - 1).front());
        std::fstream f(gen::values_scratch_path(dir, m), std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(static_cast<std::streamoff>(at / 4));
        const char was = static_cast<char>(f.get());
        f.seekp(static_cast<std::streamoff>(at / 4));
        f.put(static_cast<char>(was ^ 0x03));
      }
      gen::UnitSolution resumed;
      REQUIRE(gen::solve_unit(m, store, nullptr, resumed, spilled) == gen::SolveStatus::Ok);
      if (damage)
        CHECK(resumed.resumed_level == -1);
      else
        CHECK(resumed.resumed_level >= 0);
      expect_same(resumed, reference);
    }
  }
}

TEST_CASE("a scratch file that cannot be made fails the solve with a message") {
  const gen::WdlStore& store = gen::testing::test_store();
  gen::UnitSolution out;
  CHECK(gen::solve_unit(*parse_material("KMvMM"), store, nullptr, out,
                        every_level("", "/nonexistent/dtb-scratch")) == gen::SolveStatus::Failed);
  CHECK(out.error.find("/nonexistent/dtb-scratch/KMvMM.mtc-work") != std::string::npos);
}

// A kings-only unit is one level, so it saves between propagation rounds
// instead (level_checkpoint.h, "Round checkpoints"): in either working state
// (byte or compact), with MTC in memory or in a scratch file.
TEST_CASE("a kings-only unit stopped between rounds resumes from its round checkpoint") {
  const gen::WdlStore& store = gen::testing::test_store();
  const std::string dir = gen::testing::make_temp_dir("round-checkpoint");
  const Material m = *parse_material("KKKvK");
  const std::string path = gen::level_checkpoint_path(dir, m);
  gen::UnitSolution reference;
  REQUIRE(gen::solve_unit(m, store, nullptr, reference, every_level("")) == gen::SolveStatus::Ok);
  REQUIRE(reference.levels == 1);
  const int rounds = reference.rounds;
  REQUIRE(rounds > 4);

  // Stopped before round `at` (its checkpoint is saved first).
  const auto stop_before = [&](int at, const std::string& scratch, bool compact) {
    std::filesystem::remove(path);
    gen::SolveOptions options = every_level(path, scratch);
    options.compact_states = compact;
    options.before_round = [at](int round) {
      if (round == at) gen::request_interrupt();
    };
    gen::UnitSolution stopped;
    const gen::SolveStatus status = gen::solve_unit(m, store, nullptr, stopped, options);
    gen::clear_interrupt();
    REQUIRE(status == gen::SolveStatus::Interrupted);
    REQUIRE(std::filesystem::exists(path));
  };
  const auto resume = [&](const std::string& scratch, bool compact) {
    gen::SolveOptions options = every_level(path, scratch);
    options.compact_states = compact;
    gen::UnitSolution resumed;
    REQUIRE(gen::solve_unit(m, store, nullptr, resumed, options) == gen::SolveStatus::Ok);
    expect_same(resumed, reference);
    return resumed.resumed_round;
  };

  SECTION("the same values and MTC, stopped early, midway or late") {
    for (const bool compact : {false, true})
      for (const bool scratch : {false, true}) {
        INFO("compact states: " << compact << ", MTC in a scratch file: " << scratch);
        const std::string scratch_dir = scratch ? dir : "";
        for (const int at : {1, rounds / 2, rounds - 1}) {
          INFO("stopped before round " << at);
          stop_before(at, scratch_dir, compact);
          CHECK(resume(scratch_dir, compact) == at);
        }
      }
  }

  SECTION("a damaged round checkpoint is not trusted") {
    stop_before(rounds / 2, "", false);
    {
      std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(path) / 3));
      f.put('\x5a');
    }
    CHECK(resume("", false) == -1);
  }
  SECTION("a checkpoint saved in the other working state is not taken") {
    stop_before(rounds / 2, "", true);
    CHECK(resume("", false) == -1);
  }
  SECTION("a scratch file changed at a propagated position is caught") {
    stop_before(rounds / 2, dir, false);
    const std::vector<std::uint8_t> plies = all_mtc(*reference.mtc.front());
    const auto one = std::find(plies.begin(), plies.end(), std::uint8_t{1});  // decided long before the stop
    REQUIRE(one != plies.end());
    {
      std::fstream f(gen::mtc_scratch_path(dir, m), std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(one - plies.begin()));
      f.put('\x07');
    }
    CHECK(resume(dir, false) == -1);
  }
}
