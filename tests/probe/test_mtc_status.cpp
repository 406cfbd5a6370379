// The failures of dtb_probe_mtc and dtb_best_move: a directory built without
// `dtb gen --mtc` says which file is missing and what builds it (and still
// answers what needs no .mtc file), a damaged .mtc block is reported with its
// number and never read as a distance, bad arguments have their statuses.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "dtb/dtb.h"
#include "dtb/dtb.hpp"
#include "index/material.h"
#include "index/position_index.h"
#include "probe_test_support.h"

namespace dtb::test {
namespace {

// `dir` with the files of the MTC test tables whose names end in one of
// `extensions`, as symbolic links (or copies, to damage them).
void link_tables(const TempDir& dir, const std::vector<std::string>& extensions, bool copy = false) {
  for (const auto& entry : std::filesystem::directory_iterator(mtc_tables_dir())) {
    const std::string ext = entry.path().extension().string();
    if (std::find(extensions.begin(), extensions.end(), ext) == extensions.end()) continue;
    const std::string target = dir.file(entry.path().filename().string());
    if (copy)
      std::filesystem::copy_file(entry.path(), target);
    else
      std::filesystem::create_symlink(std::filesystem::absolute(entry.path()), target);
  }
}

}  // namespace

TEST_CASE("dtb_probe_mtc: a directory without .mtc tables names the file and `dtb gen --mtc`", "[status]") {
  TempDir dir;
  link_tables(dir, {".wdl"});
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(dir.path().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  dtb_wdl wdl;
  int mtc = -2;
  dtb_move move{};
  dtb_error e{};
  // A quiet win of three kings: its MTC is in KKKvK.mtc.
  const dtb_position quiet = c_fen("W:WK1,K2,K3:BK45");
  CHECK(dtb_probe_mtc(tables, &quiet, &wdl, &mtc, &e) == DTB_TABLE_MISSING);
  CHECK(e.status == DTB_TABLE_MISSING);
  CHECK(std::string(e.material) == "KKKvK");
  CHECK(std::string(e.message).find("KKKvK.mtc") != std::string::npos);
  CHECK(std::string(e.message).find("dtb gen --mtc") != std::string::npos);
  // Its best move needs the MTC of the positions after its king moves.
  e = dtb_error{};
  CHECK(dtb_best_move(tables, &quiet, &move, &e) == DTB_TABLE_MISSING);
  CHECK(std::string(e.message).find(".mtc") != std::string::npos);
  // Black to move reads the reversed material's file.
  const dtb_position black = c_fen("B:WK45:BK1,K2,K3");
  CHECK(dtb_probe_mtc(tables, &black, &wdl, &mtc, &e) == DTB_TABLE_MISSING);
  CHECK(std::string(e.message).find("KKKvK.mtc") != std::string::npos);
  // What needs no .mtc file is still answered: a draw, a forced capture.
  const dtb_position draw = c_fen("W:WK1,K2:BK50");
  CHECK(dtb_probe_mtc(tables, &draw, &wdl, &mtc, &e) == DTB_OK);
  CHECK(mtc == DTB_UNKNOWN);
  CHECK(dtb_best_move(tables, &draw, &move, &e) == DTB_OK);
  const dtb_position capture = c_fen("W:W28,K46:B23");
  CHECK(dtb_probe_mtc(tables, &capture, &wdl, &mtc, &e) == DTB_OK);
  CHECK(mtc == 1);
  dtb_close(tables);
}

TEST_CASE("dtb_probe_mtc: a damaged .mtc block is reported with its number, never as a distance", "[status]") {
  TempDir dir;
  link_tables(dir, {".wdl"});
  link_tables(dir, {".mtc"}, true);
  damage_last_quarter(dir.file("KKKvK.mtc"));
  dtb_tables* damaged = nullptr;
  dtb_tables* intact = nullptr;
  REQUIRE(dtb_open(dir.path().c_str(), 1 << 20, &damaged, nullptr) == DTB_OK);
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 1 << 20, &intact, nullptr) == DTB_OK);
  const PositionIndex index(*parse_material("KKKvK"));
  long corrupted = 0, answered = 0, wrong = 0;
  dtb_error first{};
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const dtb_position p = c_position(index.unrank(i));
    dtb_wdl wdl, want_wdl;
    int mtc = -2, want = -2;
    dtb_error e{};
    const dtb_status s = dtb_probe_mtc(damaged, &p, &wdl, &mtc, &e);
    if (s == DTB_CORRUPTED_TABLE) {
      if (corrupted++ == 0) first = e;
      continue;
    }
    REQUIRE(s == DTB_OK);
    REQUIRE(dtb_probe_mtc(intact, &p, &want_wdl, &want, nullptr) == DTB_OK);
    ++answered;
    wrong += wdl != want_wdl || mtc != want;
  }
  REQUIRE(corrupted > 0);
  CHECK(answered > 0);
  CHECK(wrong == 0);
  CHECK(first.status == DTB_CORRUPTED_TABLE);
  CHECK(std::string(first.material) == "KKKvK");
  CHECK(std::string(first.message).find("KKKvK.mtc") != std::string::npos);
  CHECK(first.block >= 0);
  dtb_close(damaged);
  dtb_close(intact);
}

TEST_CASE("dtb_probe_mtc and dtb_best_move: bad arguments have their statuses", "[status]") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  dtb_wdl wdl;
  int mtc = -2;
  dtb_move move{};
  dtb_error e{};
  dtb_position p = c_fen("W:WK1,K2:BK50");
  CHECK(dtb_probe_mtc(tables, &p, &wdl, nullptr, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_mtc(tables, &p, nullptr, &mtc, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_mtc(nullptr, &p, &wdl, &mtc, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_probe_mtc(tables, nullptr, &wdl, &mtc, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_best_move(tables, &p, nullptr, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_best_move(nullptr, &p, &move, &e) == DTB_INVALID_ARGUMENT);
  const dtb_position five = c_fen("W:WK1,K2,K3:BK49,K50");
  CHECK(dtb_probe_mtc(tables, &five, &wdl, &mtc, &e) == DTB_TOO_MANY_PIECES);
  CHECK(dtb_best_move(tables, &five, &move, &e) == DTB_TOO_MANY_PIECES);
  p.black |= p.white;  // a square with both colours
  CHECK(dtb_probe_mtc(tables, &p, &wdl, &mtc, &e) == DTB_INVALID_POSITION);
  CHECK(dtb_best_move(tables, &p, &move, &e) == DTB_INVALID_POSITION);
  dtb_close(tables);
}

TEST_CASE("dtb.hpp: mtc and best_move answer as the C API", "[mtc]") {
  dtb::Tablebase tb;
  REQUIRE(tb.open(mtc_tables_dir(), 1 << 20) == DTB_OK);
  for (const char* fen : {"W:WK1,K2,K3:BK45", "B:WK45:BK1,K2,K3", "W:WK46,28:B3", "W:WK46:BK5", "W:WK1,K2:BK50"}) {
    INFO(fen);
    const dtb_position p = c_fen(fen);
    dtb_wdl a, b;
    int mtc_a = -2, mtc_b = -2;
    REQUIRE(tb.mtc(p, a, mtc_a) == DTB_OK);
    REQUIRE(dtb_probe_mtc(tb.handle(), &p, &b, &mtc_b, nullptr) == DTB_OK);
    CHECK((a == b && mtc_a == mtc_b));
    dtb_move m1{}, m2{};
    REQUIRE(tb.best_move(p, m1) == DTB_OK);
    REQUIRE(dtb_best_move(tb.handle(), &p, &m2, nullptr) == DTB_OK);
    CHECK(dtb::Tablebase::move_text(p, m1) == dtb::Tablebase::move_text(p, m2));
    CHECK(m1.wdl == a);
  }
}

TEST_CASE("dtb_probe_mtc and dtb_best_move from many threads agree with one thread", "[concurrency]") {
  // The .mtc files open lazily under a mutex and each thread keeps its own
  // decoded blocks: threads starting at different places of the same tables
  // must see exactly what one thread sees (tests/cli/probe_tsan.sh runs this
  // under ThreadSanitizer, where each probe is ~100x slower: a sparse sample).
  std::vector<dtb_position> positions;
  for (const char* name : {"KKKvK", "KvKKK", "KKMvK", "MMvMM"}) {
    const PositionIndex index(*parse_material(name));
    for (std::uint64_t i = 0; i < index.size(); i += 1009) positions.push_back(c_position(index.unrank(i)));
  }
  auto probe_all = [&](dtb_tables* handle, std::size_t start, std::vector<long>& out) {
    out.assign(positions.size(), -1);
    for (std::size_t k = 0; k < positions.size(); ++k) {
      const std::size_t i = (start + k) % positions.size();
      dtb_wdl wdl = DTB_DRAW;
      int mtc = -2;
      dtb_move move{};
      const dtb_status a = dtb_probe_mtc(handle, &positions[i], &wdl, &mtc, nullptr);
      const dtb_status b = dtb_best_move(handle, &positions[i], &move, nullptr);
      out[i] = a != DTB_OK || (b != DTB_OK && b != DTB_GAME_OVER)
                   ? -2
                   : ((static_cast<long>(mtc) * 3 + wdl) * 64 + move.from) * 64 + move.to;
    }
  };
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  std::vector<long> alone;
  probe_all(tables, 0, alone);
  dtb_close(tables);
  // A fresh handle for the threads: they race to open the files too.
  dtb_tables* shared = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 1 << 20, &shared, nullptr) == DTB_OK);
  constexpr int kThreads = 4;
  std::vector<std::vector<long>> answers(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(probe_all, shared, positions.size() * static_cast<std::size_t>(t) / kThreads,
                         std::ref(answers[static_cast<std::size_t>(t)]));
  for (std::thread& t : threads) t.join();
  dtb_close(shared);
  for (const std::vector<long>& a : answers) CHECK(a == alone);
  CHECK(std::count(alone.begin(), alone.end(), -2) == 0);
  CHECK(positions.size() > 5000);
}

}  // namespace dtb::test
