// dtb_probe_mtc and dtb_best_move against the definition of moves
// to conversion, position by position: a win's MTC is the least cost among
// the moves that keep the win, a loss's the greatest cost among all moves,
// where a move costs 1 if it converts (a capture or a man move) and 1 + the
// MTC after it otherwise; and against the independent .dtw tables of drawrules/
// (the end of the game is a conversion, so MTC <= dtw, with equality where
// every conversion ends the game). The tables are those of `dtb gen --mtc`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "index/material.h"
#include "index/position_index.h"
#include "probe/c_position.h"
#include "probe_test_support.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::test {
namespace {

struct Mtc {
  dtb_status status;
  dtb_wdl wdl;
  int mtc;
};

Mtc probe_mtc(dtb_tables* tables, const Position& p) {
  Mtc r{DTB_OK, DTB_DRAW, -2};
  const dtb_position c = c_position(p);
  r.status = dtb_probe_mtc(tables, &c, &r.wdl, &r.mtc, nullptr);
  return r;
}

// The definition, written out here rather than taken from the library.
bool converts(const Position& p, const Move& m) {
  const bool king = (p.kings & (Bitboard{1} << m.from)) != 0;
  return m.is_capture() || !king;
}

// What `p` must probe as, from its successors' probes, and which of `moves`
// dtb_best_move must choose: the first (in generation order) of least cost in
// a win, of greatest cost in a loss, the first drawing move in a draw.
struct Expected {
  bool probed = true;  // false if a successor's probe failed
  dtb_wdl wdl = DTB_LOSS;
  int mtc = 0;
  int best = -1;  // index into moves; -1 without a legal move
};

Expected from_successors(dtb_tables* tables, const Position& p, const MoveList& moves) {
  Expected e;
  int win = -1, win_cost = INT_MAX, draw = -1, loss = -1, loss_cost = -1;
  for (int i = 0; i < moves.size; ++i) {
    const Mtc after = probe_mtc(tables, make_move(p, moves[i]));  // the opponent's view
    if (after.status != DTB_OK) {
      e.probed = false;
      return e;
    }
    const int cost = converts(p, moves[i]) ? 1 : 1 + after.mtc;
    if (after.wdl == DTB_LOSS && cost < win_cost) {
      win = i;
      win_cost = cost;
    } else if (after.wdl == DTB_DRAW && draw < 0) {
      draw = i;
    } else if (after.wdl == DTB_WIN && cost > loss_cost) {
      loss = i;
      loss_cost = cost;
    }
  }
  if (win >= 0) {
    e.wdl = DTB_WIN;
    e.mtc = win_cost;
    e.best = win;
  } else if (draw >= 0) {
    e.wdl = DTB_DRAW;
    e.mtc = -1;
    e.best = draw;
  } else {  // every move loses, or there is none (FMJD 7.2: lost, MTC 0)
    e.mtc = moves.size == 0 ? 0 : loss_cost;
    e.best = loss;
  }
  return e;
}

bool same_move(const dtb_move& a, const dtb_move& b) {
  return a.from == b.from && a.to == b.to && a.captured == b.captured;
}

// Every `step`-th position of each material (White to move: list a material
// with its colour twin to cover both sides to move) is checked against its
// successors, and every 4 * step-th one's dtb_best_move against the move the
// definition picks. Returns the number checked; counts into `stats`.
struct Stats {
  long checked = 0, mismatches = 0, read_from_table = 0, best_checked = 0;
  int longest = 0;
};

void check_materials(dtb_tables* tables, const std::vector<std::string>& names, std::uint64_t step, Stats& stats) {
  for (const std::string& name : names) {
    const PositionIndex index(*parse_material(name));
    for (std::uint64_t i = 0; i < index.size(); i += step) {
      const Position p = index.unrank(i);
      MoveList moves;
      generate_moves(p, moves);
      const Mtc got = probe_mtc(tables, p);
      const Expected want = from_successors(tables, p, moves);
      bool ok = got.status == DTB_OK && want.probed && got.wdl == want.wdl && got.mtc == want.mtc;
      // dtb_best_move repeats every successor probe: a quarter of the
      // positions still covers every material and kind of position.
      if (ok && i % (4 * step) == 0) {
        ++stats.best_checked;
        const dtb_position c = c_position(p);
        dtb_move best{};
        const dtb_status s = dtb_best_move(tables, &c, &best, nullptr);
        if (moves.size == 0) {
          ok = s == DTB_GAME_OVER;
        } else {
          ok = s == DTB_OK && same_move(best, probe::to_c(moves[want.best])) && best.wdl == want.wdl &&
               best.keeps_best == 1;
        }
      }
      if (!ok && stats.mismatches++ < 5)
        UNSCOPED_INFO(name << " " << to_fen(p) << ": probe " << got.status << "/" << got.wdl << "/" << got.mtc
                           << ", successors say " << want.wdl << "/" << want.mtc);
      ++stats.checked;
      if (got.wdl != DTB_DRAW && moves.size > 0 && !moves[0].is_capture()) ++stats.read_from_table;
      stats.longest = std::max(stats.longest, got.mtc);
    }
  }
}

}  // namespace

TEST_CASE("dtb_probe_mtc: every 3-piece MTC follows from its successors', dtb_best_move picks the move giving it",
          "[mtc]") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 16 << 20, &tables, nullptr) == DTB_OK);
  std::vector<std::string> names;
  for (const Material& m : materials_in_build_order(3))
    if (m.pieces() == 3) names.push_back(m.name());  // both colours of each
  Stats stats;
  check_materials(tables, names, 1, stats);
  CHECK(stats.mismatches == 0);
  CHECK(stats.checked == 806300);  // every 3-piece position (README: 806,300)
  CHECK(stats.read_from_table > 100000);  // the table is read, not only the shortcuts
  CHECK(stats.best_checked > 200000);
  dtb_close(tables);
}

TEST_CASE("dtb_probe_mtc: 4-piece MTC follows from its successors', men only and kings only", "[mtc]") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 16 << 20, &tables, nullptr) == DTB_OK);
  Stats men, kings;
  check_materials(tables, {"MMMvM", "MvMMM"}, 1, men);
  // Three kings against one: the long king manoeuvres MTC exists for, and
  // ~40 moves a position, so a spread fifth of them.
  check_materials(tables, {"KKKvK", "KvKKK"}, 5, kings);
  CHECK(men.mismatches == 0);
  CHECK(kings.mismatches == 0);
  CHECK(men.checked == 2 * 600710);
  CHECK(kings.checked == 2 * 184240);  // every fifth of 921,200, twice
  CHECK(kings.read_from_table > 20000);
  CHECK(kings.longest > 5);  // kings-only wins take manoeuvres, not one move
  dtb_close(tables);
}

TEST_CASE("dtb_probe_mtc agrees with the independent .dtw tables: MTC <= dtw, equal in KvK", "[mtc]") {
  // drawrules/ solves dtw under another value policy, where exits carry
  // distances (solver/exit_distances.h). The end of the game is a
  // conversion, and the side that can force the end within dtw plies can
  // force a conversion within them, so MTC <= dtw for every decided position;
  // in KvK every capture takes the last piece, so there MTC is dtw.
  TempDir dir;
  run_gen("--max-pieces 3 --dtw --mtc --threads 2", dir.path());
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(dir.path().c_str(), 16 << 20, &tables, nullptr) == DTB_OK);
  long decided = 0, below = 0, mismatches = 0;
  for (const Material& m : materials_in_build_order(3)) {
    const PositionIndex index(m);
    const bool kings_alone = m.name() == "KvK";
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const dtb_position p = c_position(index.unrank(i));
      dtb_wdl wdl_mtc = DTB_DRAW, wdl_dtw = DTB_DRAW;
      int mtc = -2, dtw = -2;
      // Statuses checked without an assertion each: a million assertions
      // would cost more than the probes.
      bool ok = dtb_probe_mtc(tables, &p, &wdl_mtc, &mtc, nullptr) == DTB_OK &&
                dtb_probe_dtw(tables, &p, &wdl_dtw, &dtw, nullptr) == DTB_OK && wdl_mtc == wdl_dtw;
      if (wdl_mtc == DTB_DRAW) {
        ok = ok && mtc == DTB_UNKNOWN && dtw == DTB_UNKNOWN;
      } else {
        ++decided;
        below += mtc < dtw;
        ok = ok && mtc >= 0 && mtc <= dtw && (!kings_alone || mtc == dtw);
      }
      if (!ok && mismatches++ < 5)
        UNSCOPED_INFO(m.name() << " " << to_fen(index.unrank(i)) << ": mtc " << wdl_mtc << "/" << mtc << ", dtw "
                               << wdl_dtw << "/" << dtw);
    }
  }
  CHECK(mismatches == 0);
  CHECK(decided > 100000);
  CHECK(below > 1000);  // men moves convert long before the end: the two measures differ
  dtb_close(tables);
}

TEST_CASE("dtb_probe_mtc and dtb_best_move: positions that need no table", "[mtc]") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 1 << 20, &tables, nullptr) == DTB_OK);
  dtb_wdl wdl;
  int mtc = -2;
  dtb_move move{};
  dtb_error e{};
  SECTION("a side without pieces has lost: MTC 0, game over") {
    const std::uint64_t kings_46_40 = (std::uint64_t{1} << 45) | (std::uint64_t{1} << 39);
    const dtb_position no_black{kings_46_40, 0, kings_46_40, DTB_BLACK};
    REQUIRE(dtb_probe_mtc(tables, &no_black, &wdl, &mtc, &e) == DTB_OK);
    CHECK((wdl == DTB_LOSS && mtc == 0));
    CHECK(dtb_best_move(tables, &no_black, &move, &e) == DTB_GAME_OVER);
    CHECK(e.status == DTB_GAME_OVER);
    CHECK(std::string(e.message).find("no legal move") != std::string::npos);
  }
  SECTION("a blocked side has lost: MTC 0, game over") {
    const dtb_position blocked = c_fen("W:W46:B37,41");  // 46-41 occupied, 46x37 blocked
    REQUIRE(dtb_probe_mtc(tables, &blocked, &wdl, &mtc, &e) == DTB_OK);
    CHECK((wdl == DTB_LOSS && mtc == 0));
    CHECK(dtb_best_move(tables, &blocked, &move, &e) == DTB_GAME_OVER);
    CHECK(std::string(dtb_status_string(DTB_GAME_OVER)) == "game over (no legal move)");
  }
  SECTION("a forced capture converts at once: MTC 1, the capture") {
    const dtb_position capture = c_fen("W:W28,K46:B23");
    REQUIRE(dtb_probe_mtc(tables, &capture, &wdl, &mtc, &e) == DTB_OK);
    CHECK((wdl == DTB_WIN && mtc == 1));
    REQUIRE(dtb_best_move(tables, &capture, &move, &e) == DTB_OK);
    char text[128];
    REQUIRE(dtb_move_to_string(&capture, &move, text, sizeof text) == DTB_OK);
    CHECK(std::string(text) == "28x19");
    CHECK((move.wdl == DTB_WIN && move.keeps_best == 1));
  }
  SECTION("a draw has no MTC") {
    const dtb_position draw = c_fen("W:WK1,K2:BK50");
    REQUIRE(dtb_probe_mtc(tables, &draw, &wdl, &mtc, &e) == DTB_OK);
    CHECK((wdl == DTB_DRAW && mtc == DTB_UNKNOWN));
    REQUIRE(dtb_best_move(tables, &draw, &move, &e) == DTB_OK);
    CHECK(move.wdl == DTB_DRAW);
  }
  dtb_close(tables);
}

}  // namespace dtb::test
