// dtb_best_move_rule: perfect play inside the 6.3/6.4 classes under the
// class count. Every 6.4 position that dtb_probe_rule calls won with c plies
// of the count played (both sides to move, every count) is played out: the
// winner with dtb_best_move_rule, the defender either with the same function
// (the longest resistance the count allows) or at random. The game must end
// in the winner's favour before the count runs out, with the count kept here
// from the rule's own words (RULES.md: +1 inside a class, a fresh count on
// entering the other class), not from the library's plies_in_class_after.
// The budget (dtb_probe_rule_budget) must fall by exactly one along the line
// against the best defence: the move is the fastest, not merely a winning one.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "index/draw_rule_class.h"
#include "index/material.h"
#include "probe_test_support.h"
#include "rules/notation.h"

namespace dtb::test {
namespace {

Position from_c(const dtb_position& c) {
  char fen[128];
  REQUIRE(dtb_position_to_fen(&c, fen, sizeof fen) == DTB_OK);
  return *parse_fen(fen);
}

RuleClass class_of(const dtb_position& c) { return rule_class(material_of(from_c(c))); }

bool side_to_move_has_pieces(const dtb_position& c) {
  return (c.side_to_move == DTB_WHITE ? c.white : c.black) != 0;
}

struct Tables {
  TempDir dir;
  dtb_tables* t = nullptr;
  Tables() {
    run_gen("--max-pieces 3 --dtw --mtc --threads 2", dir.path());  // .wdl, .mtc, .dtw and the 6.4 .rule tables
    REQUIRE(dtb_open(dir.path().c_str(), 16u << 20, &t, nullptr) == DTB_OK);
  }
  ~Tables() { dtb_close(t); }
};

enum class Defence { Best, Random };

// Plays `start` (won under the class rule for `winner` with `count` plies
// played) out. Returns "" if the winner wins in time, else why not.
std::string play(dtb_tables* t, dtb_position pos, int count, std::uint32_t winner, Defence defence,
                 std::mt19937& rng, bool check_budget) {
  int budget_before = -1;
  for (int ply = 0; ply < 64; ++ply) {
    const RuleClass rule = class_of(pos);
    if (count > limit_plies(rule)) return "the count ran out";
    dtb_move move{};
    dtb_error e{};
    const bool winner_moves = pos.side_to_move == winner;
    if (check_budget) {  // the winner's budget falls by one with every ply inside one class
      dtb_wdl result;
      int budget = 0;
      REQUIRE(dtb_probe_rule_budget(t, &pos, &result, &budget, nullptr) == DTB_OK);
      if (budget_before >= 0 && budget != budget_before - 1)
        return "the budget went from " + std::to_string(budget_before) + " to " + std::to_string(budget);
      budget_before = budget;
    }
    dtb_status s = DTB_OK;
    if (winner_moves || defence == Defence::Best) {
      s = dtb_best_move_rule(t, &pos, count, &move, &e);
      if (s == DTB_OK && winner_moves && move.wdl != DTB_WIN) return "the winner's move does not keep the win";
      if (s == DTB_OK && !winner_moves && move.wdl != DTB_LOSS) return "the loser's move is not a loss";
    } else {
      dtb_move moves[64];
      std::size_t n = 0;
      REQUIRE(dtb_legal_moves(&pos, moves, 64, &n, nullptr) == DTB_OK);
      if (n == 0) s = DTB_GAME_OVER;
      else move = moves[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)];
    }
    if (s == DTB_GAME_OVER) return winner_moves ? "the winner has no move" : "";
    REQUIRE(s == DTB_OK);
    dtb_position after{};
    REQUIRE(dtb_make_move(&pos, &move, &after) == DTB_OK);
    if (!side_to_move_has_pieces(after)) return winner_moves ? "" : "the loser took the last piece";
    const RuleClass next = class_of(after);
    if (next == RuleClass::None) {  // out of the classes: the game's own value decides
      dtb_wdl v;
      REQUIRE(dtb_probe_wdl(t, &after, &v, nullptr) == DTB_OK);
      const bool won = (after.side_to_move == winner) ? v == DTB_WIN : v == DTB_LOSS;
      return won ? "" : "left the classes without the win";
    }
    if (next != rule) budget_before = -1;  // a fresh count: a new budget
    count = next == rule ? count + 1 : 0;
    pos = after;
  }
  return "no end after 64 plies";
}

}  // namespace

TEST_CASE("dtb_best_move_rule wins every 6.4 class win within the count, against any defence") {
  Tables h;
  std::mt19937 rng(20261204);
  long games = 0;
  for (const char* name : {"KKvK", "KMvK", "KvKK", "KvKM"}) {
    for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
      std::uint64_t size = 0;
      REQUIRE(dtb_material_size(name, &size, nullptr) == DTB_OK);
      std::vector<dtb_position> positions(size);
      REQUIRE(dtb_material_positions(name, side, 0, positions.data(), size, nullptr) == DTB_OK);
      for (const dtb_position& start : positions) {
        for (int count = 0; count <= 10; ++count) {
          dtb_wdl v;
          REQUIRE(dtb_probe_rule(h.t, &start, count, &v, nullptr) == DTB_OK);
          if (v == DTB_DRAW) break;  // a draw at c is a draw at every later count
          const std::uint32_t winner = v == DTB_WIN ? start.side_to_move : start.side_to_move ^ 1u;
          for (const Defence d : {Defence::Best, Defence::Random}) {
            const std::string why = play(h.t, start, count, winner, d, rng, d == Defence::Best);
            if (!why.empty()) {
              char fen[128];
              dtb_position_to_fen(&start, fen, sizeof fen);
              FAIL(fen << " with " << count << " plies counted (" << (d == Defence::Best ? "best" : "random")
                        << " defence): " << why);
            }
            ++games;
          }
        }
      }
    }
  }
  CHECK(games > 100000);
}

TEST_CASE("dtb_best_move_rule: the least-MTC move of dtb_best_move can run out a class count") {
  // W:W6,K7:BK50 (KMvK, 6.4) with 3 plies of the 10 played is still won, but
  // not by the quickest conversion: dtb_best_move takes it, and the defence
  // that resists longest under the count then reaches the limit.
  Tables h;
  const dtb_position start = c_fen("W:W6,K7:BK50");
  dtb_wdl v;
  REQUIRE(dtb_probe_rule(h.t, &start, 3, &v, nullptr) == DTB_OK);
  REQUIRE(v == DTB_WIN);
  dtb_position pos = start;
  int count = 3;
  bool won = false;
  while (count <= 10) {
    dtb_move move{};
    const dtb_status s = pos.side_to_move == DTB_WHITE ? dtb_best_move(h.t, &pos, &move, nullptr)
                                                       : dtb_best_move_rule(h.t, &pos, count, &move, nullptr);
    if (s == DTB_GAME_OVER) {
      won = pos.side_to_move == DTB_BLACK;
      break;
    }
    REQUIRE(s == DTB_OK);
    dtb_position after{};
    REQUIRE(dtb_make_move(&pos, &move, &after) == DTB_OK);
    if (!side_to_move_has_pieces(after)) {
      won = true;
      break;
    }
    REQUIRE(class_of(after) == RuleClass::FiveMoves);
    count += 1;
    pos = after;
  }
  CHECK_FALSE(won);
  // dtb_best_move_rule from the same start wins against the same defence.
  std::mt19937 rng(1);
  CHECK(play(h.t, start, 3, DTB_WHITE, Defence::Best, rng, true).empty());
}

TEST_CASE("dtb_best_move_rule: bad arguments and positions outside the classes") {
  Tables h;
  dtb_move move{};
  dtb_error e{};
  const dtb_position kmvk = c_fen("W:WK12,40:BK11");
  CHECK(dtb_best_move_rule(h.t, &kmvk, 11, &move, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_best_move_rule(h.t, &kmvk, -1, &move, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_best_move_rule(h.t, &kmvk, 0, nullptr, &e) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_best_move_rule(nullptr, &kmvk, 0, &move, &e) == DTB_INVALID_ARGUMENT);
  const dtb_position mmvk = c_fen("W:W28,33:BK3");  // no class until a man promotes
  CHECK(dtb_best_move_rule(h.t, &mmvk, 0, &move, &e) == DTB_NOT_IN_CLASS);
  // At the limit every move draws (the count has run out): a drawing move.
  REQUIRE(dtb_best_move_rule(h.t, &kmvk, 10, &move, &e) == DTB_OK);
  CHECK(move.wdl == DTB_DRAW);
}

}  // namespace dtb::test

namespace dtb::test {

TEST_CASE("dtb_counts_after and dtb_class_limit keep both draw counts as RULES.md words them") {
  // Every move of sampled positions of materials in, into and out of the
  // classes: the 6.2 count restarts on a capture or a man move, the class
  // count goes on in the same class, restarts on entering one, and is -1
  // outside them or once the game is over.
  long moves_checked = 0, entered = 0, kept = 0;
  for (const char* name : {"KKKvK", "KKMvK", "KMMvK", "KKvK", "KMvK", "KvK", "MMvK", "KKvKM", "KMvKM", "KvKKK"}) {
    for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
      std::uint64_t size = 0;
      REQUIRE(dtb_material_size(name, &size, nullptr) == DTB_OK);
      for (std::uint64_t i = 0; i < size; i += 997) {
        dtb_position pos{};
        REQUIRE(dtb_material_positions(name, side, i, &pos, 1, nullptr) == DTB_OK);
        const RuleClass before = class_of(pos);
        CHECK(dtb_class_limit(&pos) == limit_plies(before));
        dtb_move moves[64];
        std::size_t n = 0;
        REQUIRE(dtb_legal_moves(&pos, moves, 64, &n, nullptr) == DTB_OK);
        for (std::size_t k = 0; k < n; ++k) {
          dtb_position after{};
          REQUIRE(dtb_make_move(&pos, &moves[k], &after) == DTB_OK);
          const int in_class = before == RuleClass::None ? -1 : 5;
          int since = -7, class_after = -7;
          REQUIRE(dtb_counts_after(&pos, &moves[k], 20, in_class, &since, &class_after) == DTB_OK);
          const bool man_moved = ((pos.kings >> (moves[k].from - 1)) & 1) == 0;
          CHECK(since == (moves[k].captured != 0 || man_moved ? 0 : 21));
          const RuleClass now = side_to_move_has_pieces(after) ? class_of(after) : RuleClass::None;
          const int expected = now == RuleClass::None ? -1 : now == before ? in_class + 1 : 0;
          CHECK(class_after == expected);
          entered += expected == 0;
          kept += expected == 6;
          ++moves_checked;
        }
      }
    }
  }
  CHECK(moves_checked > 5000);
  CHECK(entered > 0);
  CHECK(kept > 0);
  dtb_position pos = c_fen("W:WK1,K2,K3:BK50");
  dtb_move bad{};
  bad.from = 50;
  bad.to = 45;
  CHECK(dtb_counts_after(&pos, &bad, 0, 0, nullptr, nullptr) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_counts_after(&pos, nullptr, 0, 0, nullptr, nullptr) == DTB_INVALID_ARGUMENT);
  CHECK(dtb_class_limit(nullptr) == 0);
}

}  // namespace dtb::test
