// dtb_best_move plays wins out: games from random decided 4-piece positions,
// the winner always playing dtb_best_move, the loser either dtb_best_move (the
// longest resistance) or random legal moves. Along every ply that does not
// convert, the MTC of perfect play falls by exactly one (by at least one
// after a random defence: the loser maximises), and every game ends, within
// a bound, with the side that was winning having won. A best move that keeps
// the win but not the MTC (a shuffling king) fails the first check; one that
// throws the win away fails the last.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "index/colour.h"
#include "index/material.h"
#include "index/position_index.h"
#include "probe/c_position.h"
#include "probe_test_support.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::test {
namespace {

struct Mtc {
  dtb_wdl wdl;
  int mtc;
};

Mtc probe(dtb_tables* tables, const Position& p) {
  Mtc r{DTB_DRAW, -2};
  const dtb_position c = c_position(p);
  dtb_error e{};
  INFO(to_fen(p) << ": " << e.message);
  REQUIRE(dtb_probe_mtc(tables, &c, &r.wdl, &r.mtc, &e) == DTB_OK);
  return r;
}

Move best_move(dtb_tables* tables, const Position& p) {
  const dtb_position c = c_position(p);
  dtb_move m{};
  dtb_error e{};
  INFO(to_fen(p) << ": " << e.message);
  REQUIRE(dtb_best_move(tables, &c, &m, &e) == DTB_OK);
  Move out{};
  REQUIRE(probe::find_move(p, m, out));
  return out;
}

bool converts(const Position& p, const Move& m) {
  return m.is_capture() || (p.kings & (Bitboard{1} << m.from)) == 0;
}

// A bound no game of perfect play from 4 pieces comes near: each of at most
// 4 captures and 4 * 9 man steps ends a phase, and no phase is longer than
// the largest MTC the 4-piece tables hold (checked below).
constexpr int kMaxPlies = 41 * 64;

}  // namespace

TEST_CASE("dtb_best_move plays random won 4-piece positions out, MTC falling by one each quiet ply", "[mtc]") {
  dtb_tables* tables = nullptr;
  REQUIRE(dtb_open(mtc_tables_dir().c_str(), 16 << 20, &tables, nullptr) == DTB_OK);
  std::vector<Material> materials;
  for (const Material& m : materials_in_build_order(4))
    if (m.pieces() == 4) materials.push_back(m);
  std::mt19937_64 rng(13);
  int games = 0, longest_game = 0, largest_mtc = 0;
  long quiet_plies = 0;
  for (int attempt = 0; games < 1000 && attempt < 100000; ++attempt) {
    const PositionIndex index(materials[rng() % materials.size()]);
    Position p = table_unrank(index, rng() % index.size(), rng() % 2 ? Color::White : Color::Black);
    const Mtc start = probe(tables, p);
    if (start.wdl == DTB_DRAW) continue;
    const Color winner = start.wdl == DTB_WIN ? p.side : opposite(p.side);
    const bool random_defence = games % 2 == 1;
    ++games;
    INFO("game from " << to_fen(p) << (random_defence ? " (random defence)" : ""));
    int plies = 0;
    for (;; ++plies) {
      REQUIRE(plies <= kMaxPlies);
      MoveList moves;
      generate_moves(p, moves);
      const Mtc now = probe(tables, p);
      if (moves.size == 0) {  // the game is over: the side to move has lost
        CHECK(p.side != winner);
        CHECK((now.wdl == DTB_LOSS && now.mtc == 0));
        break;
      }
      REQUIRE(now.wdl == (p.side == winner ? DTB_WIN : DTB_LOSS));
      largest_mtc = std::max(largest_mtc, now.mtc);
      const bool random_move = random_defence && p.side != winner;
      const Move m = random_move ? moves[static_cast<int>(rng() % static_cast<std::uint64_t>(moves.size))]
                                 : best_move(tables, p);
      const Position after = make_move(p, m);
      const Mtc next = probe(tables, after);
      INFO("ply " << plies << ": " << to_fen(p) << " " << move_to_string(p, m) << ", mtc " << now.mtc << " -> "
                  << next.mtc);
      // The value is kept (no move of the loser can save it).
      REQUIRE(next.wdl == (after.side == winner ? DTB_WIN : DTB_LOSS));
      if (!converts(p, m)) {
        ++quiet_plies;
        if (random_move)
          CHECK(next.mtc <= now.mtc - 1);
        else
          CHECK(next.mtc == now.mtc - 1);
      }
      p = after;
    }
    longest_game = std::max(longest_game, plies);
  }
  CHECK(games == 1000);
  CHECK(quiet_plies > 500);  // king manoeuvres were played, not only conversions
  CHECK(largest_mtc < 64);   // kMaxPlies assumes it
  UNSCOPED_INFO("longest game " << longest_game << " plies, largest MTC " << largest_mtc);
  dtb_close(tables);
}

}  // namespace dtb::test
