// The probe (through the C API) against independently known values, for
// every position of every material: White and Black to move, quiet and
// capture positions alike.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "dtb/dtb.h"
#include "probe_test_support.h"
#include "rules/notation.h"

namespace dtb::test {
namespace {

struct Tally {
  std::atomic<std::uint64_t> probes{0}, failures{0}, mismatches{0};
  std::string first_problem;  // written once, by the thread that sets `reported`
  std::atomic<bool> reported{false};

  void problem(const std::string& what) {
    if (!reported.exchange(true)) first_problem = what;
  }
};

// Probe both sides to move of every index of `m` in [begin, end).
void check_range(dtb_tables* tables, const NaiveSolution& truth, const Material& m,
                 std::uint64_t begin, std::uint64_t end, Tally& tally) {
  const PositionIndex& index = truth.index(m);
  std::uint64_t probes = 0, failures = 0, mismatches = 0;
  for (std::uint64_t i = begin; i < end; ++i) {
    Position p = index.unrank(i);
    for (const Color side : {Color::White, Color::Black}) {
      p.side = side;
      const dtb_position c = c_position(p);
      dtb_wdl got = DTB_DRAW;
      dtb_error error{};
      ++probes;
      const dtb_status s = dtb_probe_wdl(tables, &c, &got, &error);
      if (s != DTB_OK) {
        ++failures;
        tally.problem(to_fen(p) + ": " + dtb_status_string(s) + ": " + error.message);
      } else if (static_cast<int>(got) != static_cast<int>(truth.value(p))) {
        ++mismatches;
        tally.problem(to_fen(p) + ": probe says " + std::to_string(got) + ", truth " +
                      std::to_string(static_cast<int>(truth.value(p))));
      }
    }
  }
  tally.probes += probes;
  tally.failures += failures;
  tally.mismatches += mismatches;
}

void check_every_position(dtb_tables* tables, const NaiveSolution& truth) {
  Tally tally;
  for (const Material& m : truth.materials()) {
    const std::uint64_t n = truth.index(m).size();
    std::thread other(check_range, tables, std::cref(truth), m, n / 2, n, std::ref(tally));
    check_range(tables, truth, m, 0, n / 2, tally);
    other.join();
  }
  INFO("first problem: " << tally.first_problem);
  CHECK(tally.failures == 0);
  CHECK(tally.mismatches == 0);
  CHECK(tally.probes > 0);
}

TEST_CASE("probe agrees with an independent solve on tables written from it (2-3 pieces)",
          "[agreement]") {
  const NaiveSolution truth(3);
  TempDir dir;
  write_naive_tables(truth, dir.path());
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(dir.path().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  CHECK(dtb_max_pieces(tables) == 3);
  check_every_position(tables, truth);
  dtb_close(tables);
}

TEST_CASE("generated 2-4 piece tables agree with an independent solve at every position",
          "[agreement][generated]") {
  const std::string dir = generated_tables_dir();
  const NaiveSolution truth(4);
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(dir.c_str(), 64 << 20, &tables, nullptr) == DTB_OK);
  REQUIRE(dtb_max_pieces(tables) >= 4);
  check_every_position(tables, truth);
  dtb_close(tables);
}

}  // namespace
}  // namespace dtb::test
