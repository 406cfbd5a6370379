// dtb_probe_dtw: distance to win through the C API, read from the .dtw tables
// that `dtb gen --dtw` writes. Checked against the tables' own definition
// (each distance is one more than the best successor's) rather than against
// stored numbers, and against the WDL probe.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "dtb/dtb.h"
#include "index/material.h"
#include "probe_test_support.h"

using namespace dtb;

namespace {

struct Dtw {
  dtb_wdl wdl;
  int plies;
};

Dtw probe_dtw(dtb_tables* tables, const dtb_position& p) {
  Dtw d{DTB_DRAW, -1};
  dtb_error e{};
  INFO(e.message);
  REQUIRE(dtb_probe_dtw(tables, &p, &d.wdl, &d.plies, &e) == DTB_OK);
  return d;
}

// The distance a position must have given its successors' (the definition of
// the .dtw values): a win one more than the quickest win, a loss one more than
// the slowest loss (0 without a move), a draw none (DTB_UNKNOWN).
Dtw expected_from_successors(dtb_tables* tables, const dtb_position& p) {
  dtb_move moves[128];
  std::size_t count = 0;
  REQUIRE(dtb_legal_moves(&p, moves, 128, &count, nullptr) == DTB_OK);
  int quickest_win = -1, slowest_loss = -1;
  bool can_draw = false;
  for (std::size_t i = 0; i < count; ++i) {
    dtb_position after;
    REQUIRE(dtb_make_move(&p, &moves[i], &after) == DTB_OK);
    const Dtw d = probe_dtw(tables, after);  // the opponent's view
    if (d.wdl == DTB_LOSS) quickest_win = quickest_win < 0 ? d.plies + 1 : std::min(quickest_win, d.plies + 1);
    if (d.wdl == DTB_WIN) slowest_loss = std::max(slowest_loss, d.plies + 1);
    can_draw |= d.wdl == DTB_DRAW;
  }
  if (quickest_win >= 0) return {DTB_WIN, quickest_win};
  if (can_draw) return {DTB_DRAW, DTB_UNKNOWN};
  return {DTB_LOSS, count == 0 ? 0 : slowest_loss};
}

}  // namespace

TEST_CASE("dtb_probe_dtw: every distance is one more than its best successor's, and agrees with the WDL probe") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  long checked = 0, mismatches = 0;
  for (const Material& m : materials_in_build_order(3)) {
    const std::string name = m.name();
    std::uint64_t size = 0;
    REQUIRE(dtb_material_size(name.c_str(), &size, nullptr) == DTB_OK);
    // Every 2-piece position, a spread sample of the 3-piece ones (each
    // successor probe decodes a block: the full set would take minutes).
    const std::uint64_t step = m.pieces() == 2 ? 1 : 211;
    for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
      for (std::uint64_t i = 0; i < size; i += step) {
        dtb_position p;
        REQUIRE(dtb_material_positions(name.c_str(), side, i, &p, 1, nullptr) == DTB_OK);
        const Dtw d = probe_dtw(tables, p);
        const Dtw want = expected_from_successors(tables, p);
        dtb_wdl wdl;
        REQUIRE(dtb_probe_wdl(tables, &p, &wdl, nullptr) == DTB_OK);
        const bool ok = d.wdl == want.wdl && d.plies == want.plies && d.wdl == wdl &&
                        (d.wdl == DTB_DRAW || d.plies % 2 == (d.wdl == DTB_WIN ? 1 : 0));
        if (!ok && mismatches++ < 5) {
          char fen[256];
          dtb_position_to_fen(&p, fen, sizeof fen);
          UNSCOPED_INFO(fen << ": dtw " << d.wdl << "/" << d.plies << ", successors say " << want.wdl << "/"
                            << want.plies);
        }
        ++checked;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(checked > 20000);
  dtb_close(tables);
}

TEST_CASE("dtb_probe_dtw: a side without pieces has lost in 0, a draw has no distance, the longest KMvK-class win is odd") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  // Black to move without pieces (no FEN writes this): White took the last one.
  const std::uint64_t kings_46_40 = (std::uint64_t{1} << 45) | (std::uint64_t{1} << 39);
  const dtb_position no_black{kings_46_40, 0, kings_46_40, DTB_BLACK};
  const Dtw gone = probe_dtw(tables, no_black);
  CHECK(gone.wdl == DTB_LOSS);
  CHECK(gone.plies == 0);
  const Dtw win = probe_dtw(tables, test::c_fen("W:WK2,6:BK50"));  // the longest KMvK rule win
  CHECK(win.wdl == DTB_WIN);
  CHECK(win.plies % 2 == 1);
  const Dtw draw = probe_dtw(tables, test::c_fen("W:WK1:BK50"));
  CHECK(draw.wdl == DTB_DRAW);
  CHECK(draw.plies == DTB_UNKNOWN);
  dtb_close(tables);
}

TEST_CASE("dtb_probe_dtw: every failure has its status", "[status]") {
  dtb_tables* tables = nullptr;
  dtb_wdl wdl;
  int plies;
  dtb_error e{};
  SECTION("missing .dtw tables name the material") {
    REQUIRE(dtb_open(test::generated_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
    const dtb_position p = test::c_fen("W:WK1,K2:BK50");
    CHECK(dtb_probe_dtw(tables, &p, &wdl, &plies, &e) == DTB_TABLE_MISSING);
    CHECK(std::string(e.material) == "KKvK");
    CHECK(std::string(e.message).find("KKvK.dtw") != std::string::npos);
    const dtb_position five = test::c_fen("W:WK1,K2,K3:BK49,K50");
    CHECK(dtb_probe_dtw(tables, &five, &wdl, &plies, &e) == DTB_TOO_MANY_PIECES);
  }
  SECTION("invalid positions and NULL arguments") {
    REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
    dtb_position p = test::c_fen("W:WK1,K2:BK50");
    CHECK(dtb_probe_dtw(tables, &p, &wdl, nullptr, &e) == DTB_INVALID_ARGUMENT);
    CHECK(dtb_probe_dtw(nullptr, &p, &wdl, &plies, &e) == DTB_INVALID_ARGUMENT);
    p.black |= p.white;  // a square with both colours
    CHECK(dtb_probe_dtw(tables, &p, &wdl, &plies, &e) == DTB_INVALID_POSITION);
  }
  SECTION("a damaged block is reported with its number, never as a value") {
    test::TempDir dir;
    for (const auto& entry : std::filesystem::directory_iterator(test::dtw_tables_dir()))
      std::filesystem::copy_file(entry.path(), dir.file(entry.path().filename().string()));
    const std::string path = dir.file("KMvK.dtw");
    test::damage_last_quarter(path);
    REQUIRE(dtb_open(dir.path().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
    std::uint64_t positions = 0;
    REQUIRE(dtb_material_size("KMvK", &positions, nullptr) == DTB_OK);
    std::vector<dtb_position> all(positions);
    REQUIRE(dtb_material_positions("KMvK", DTB_WHITE, 0, all.data(), positions, nullptr) == DTB_OK);
    long corrupted = 0;
    dtb_error first{};
    for (const dtb_position& p : all) {
      if (dtb_probe_dtw(tables, &p, &wdl, &plies, &e) == DTB_CORRUPTED_TABLE && corrupted++ == 0) first = e;
    }
    REQUIRE(corrupted > 0);
    CHECK(std::string(first.material) == "KMvK");
    CHECK(std::string(first.message).find("KMvK.dtw") != std::string::npos);
    CHECK(first.block >= 0);
  }
  dtb_close(tables);
}

TEST_CASE("dtw and rule-budget probes from many threads agree with one thread", "[concurrency]") {
  // The .dtw/.rule files open lazily under a mutex and their blocks go into
  // the handle's shared cache: threads starting at different places of the
  // same tables must see exactly what one thread sees (tests/cli/probe_tsan.sh
  // runs this under ThreadSanitizer).
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  std::vector<dtb_position> positions;
  for (const char* name : {"KKvK", "KvKK"}) {
    std::uint64_t size = 0;
    REQUIRE(dtb_material_size(name, &size, nullptr) == DTB_OK);
    std::vector<dtb_position> all(size);
    REQUIRE(dtb_material_positions(name, DTB_WHITE, 0, all.data(), size, nullptr) == DTB_OK);
    // Every 16th position: still every table and block, and ThreadSanitizer
    // (tests/cli/probe_tsan.sh) makes each probe ~100x slower.
    for (std::size_t k = 0; k < all.size(); k += 16) positions.push_back(all[k]);
  }
  auto probe_all = [&](dtb_tables* handle, std::size_t start, std::vector<int>& out) {
    out.assign(positions.size(), -1);
    for (std::size_t k = 0; k < positions.size(); ++k) {
      const std::size_t i = (start + k) % positions.size();
      dtb_wdl dtw_wdl, rule_wdl;
      int dtw = 0, budget = 0;
      const dtb_status a = dtb_probe_dtw(handle, &positions[i], &dtw_wdl, &dtw, nullptr);
      const dtb_status b = dtb_probe_rule_budget(handle, &positions[i], &rule_wdl, &budget, nullptr);
      out[i] = a != DTB_OK || b != DTB_OK ? -2 : ((dtw * 3 + dtw_wdl) * 64 + budget) * 3 + rule_wdl;
    }
  };
  std::vector<int> alone;
  probe_all(tables, 0, alone);
  // A fresh handle for the threads: they race to open the files too.
  dtb_tables* shared = nullptr;
  REQUIRE(dtb_open(test::dtw_tables_dir().c_str(), 1 << 20, &shared, nullptr) == DTB_OK);
  constexpr int kThreads = 4;
  std::vector<std::vector<int>> answers(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(probe_all, shared, positions.size() * static_cast<std::size_t>(t) / kThreads,
                         std::ref(answers[static_cast<std::size_t>(t)]));
  for (std::thread& t : threads) t.join();
  dtb_close(shared);
  for (const std::vector<int>& a : answers) CHECK(a == alone);
  CHECK(std::count(alone.begin(), alone.end(), -2) == 0);
  dtb_close(tables);
}
